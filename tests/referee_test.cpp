// The referee's own counts beside the game's: stale peels and think times, from the times the
// arrivals came in with.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "core/grid.hpp"
#include "core/text.hpp"
#include "referee/referee.hpp"
#include "support/memory_log.hpp"
#include "support/staircase.hpp"

namespace {

using namespace bg;

constexpr std::uint64_t second = 1'000'000'000;

std::string staircase_of(const Referee& referee, PlayerId player) {
    const auto& hand = referee.game().players()[static_cast<std::size_t>(player)].hand;
    return "p" + serialise(staircase_grid(hand.to_string()));
}

}  // namespace

TEST_CASE("referee: think times run from new tiles to the next peel, and stale peels count",
          "[referee]") {
    GameSetup setup;
    setup.game = RulesConfig{1, 2, 1};
    setup.commands = {"one", "two"};
    MemoryLog log;
    Referee referee(setup, two_letter_words(), log);
    referee.start(0);
    referee.take(arrival::Output{0, "r"}, 1 * second);
    referee.take(arrival::Output{1, "r"}, 2 * second);  // the deal, at 2 s
    REQUIRE(referee.game().dealt());
    const std::string first_grid_of_two = staircase_of(referee, 1);

    referee.take(arrival::Output{0, staircase_of(referee, 0)}, 5 * second);  // 3 s after
    REQUIRE(referee.game().players()[0].peels == 1);
    // Player two had not seen the peel's tile: its grid is stale, 4 s after its deal.
    referee.take(arrival::Output{1, first_grid_of_two}, 6 * second);
    REQUIRE(referee.game().players()[1].peels == 0);
    // Player one's next tiles came with its own peel at 5 s.
    referee.take(arrival::Output{0, staircase_of(referee, 0)}, 8 * second);
    REQUIRE(referee.game().players()[0].peels == 2);

    CHECK(referee.seat_stats(0).stale_peels == 0);
    CHECK(referee.seat_stats(0).timed_peels == 2);
    CHECK(referee.seat_stats(0).think_ns == 6 * second);
    CHECK(referee.seat_stats(1).stale_peels == 1);
    CHECK(referee.seat_stats(1).timed_peels == 1);
    CHECK(referee.seat_stats(1).think_ns == 4 * second);
}

namespace {

// Whether `effects` start (or, with `start` false, stop) the stall clock.
bool stall_clock(const Effects& effects, bool start) {
    const GameTimer stall{GameTimer::Kind::stall, 0};
    return std::any_of(effects.begin(), effects.end(), [&](const Effect& e) {
        if (start)
            if (const auto* s = std::get_if<effect::StartTimer>(&e))
                return s->timer == stall;
        if (!start)
            if (const auto* s = std::get_if<effect::StopTimer>(&e))
                return s->timer == stall;
        return false;
    });
}

}  // namespace

TEST_CASE("referee: the stall clock runs while the bunch cannot serve a dump, from the last peel",
          "[referee]") {
    GameSetup setup;
    setup.game = RulesConfig{1, 2, 1};
    setup.commands = {"one", "two"};
    setup.stall_timeout_ms = 5000;
    MemoryLog log;
    // Seat order fixed: in one turn, player 2's message is taken before the host's clock.
    Referee referee(setup, two_letter_words(), log, RefereeOptions{false, SeatOrder::fixed});
    referee.start(0);
    referee.take(arrival::Output{0, "r"}, 1);
    referee.take(arrival::Output{1, "r"}, 1);
    // Player 1 peels until the bunch cannot serve a dump (two tiles left): the clock starts.
    Effects effects;
    std::uint64_t t = 2;
    while (referee.game().bunch_serves_dumps()) {
        CHECK_FALSE(stall_clock(effects, true));
        effects = referee.take(arrival::Output{0, staircase_of(referee, 0)}, t++);
    }
    REQUIRE(referee.game().bunch_size() == 2);
    CHECK(stall_clock(effects, true));
    const GameTimer stall{GameTimer::Kind::stall, 0};
    // A refused dump does not restart it.
    const char letter = referee.game().players()[1].hand.to_string()[0];
    effects = referee.take(arrival::Output{1, std::string("d") + letter}, t++);
    CHECK(referee.game().players()[1].dumps == 0);
    CHECK_FALSE(stall_clock(effects, true));
    // An accepted peel does; a firing taken in the same turn, after it, came before the restart:
    // no stall.
    effects = referee.take(std::vector<Arrival>{arrival::Output{1, staircase_of(referee, 1)},
                                                arrival::TimerFired{stall}},
                           t++);
    REQUIRE(referee.game().players()[1].peels == 1);
    CHECK(stall_clock(effects, true));
    CHECK_FALSE(referee.over());
    // The restarted clock's own firing ends it.
    referee.take(arrival::TimerFired{stall}, t++);
    REQUIRE(referee.over());
    CHECK(referee.game().end() == End::stalled);
}

TEST_CASE("referee: the stall clock stops when a player put out refills the bunch", "[referee]") {
    GameSetup setup;
    setup.game = RulesConfig{1, 3, 1};
    setup.commands = {"one", "two", "three"};
    setup.stall_timeout_ms = 5000;
    MemoryLog log;
    Referee referee(setup, two_letter_words(), log);
    referee.start(0);
    for (PlayerId p = 0; p < 3; ++p)
        referee.take(arrival::Output{p, "r"}, 1);
    Effects effects;
    std::uint64_t t = 2;
    while (referee.game().bunch_serves_dumps())
        effects = referee.take(arrival::Output{1, staircase_of(referee, 1)}, t++);
    CHECK(stall_clock(effects, true));
    // Player 0 leaves: its tiles go back, dumps are served again, and the clock stops.
    effects = referee.take(arrival::Exited{0, 1, 0}, t++);
    REQUIRE(referee.game().bunch_serves_dumps());
    CHECK(stall_clock(effects, false));
    // A firing of a clock that was stopped is no stall.
    referee.take(arrival::TimerFired{{GameTimer::Kind::stall, 0}}, t++);
    CHECK_FALSE(referee.over());
}

TEST_CASE("referee: the stall clock's firing ends the game as stalled, and none runs at 0",
          "[referee]") {
    for (const std::uint64_t ms : {std::uint64_t{0}, std::uint64_t{5000}}) {
        GameSetup setup;
        setup.game = RulesConfig{1, 2, 1};
        setup.commands = {"one", "two"};
        setup.stall_timeout_ms = ms;
        MemoryLog log;
        Referee referee(setup, two_letter_words(), log);
        referee.start(0);
        referee.take(arrival::Output{0, "r"}, 1);
        referee.take(arrival::Output{1, "r"}, 1);
        bool started = false;
        std::uint64_t t = 2;
        while (referee.game().bunch_serves_dumps())
            started = stall_clock(referee.take(arrival::Output{0, staircase_of(referee, 0)}, t++),
                                  true) ||
                      started;
        CHECK(started == (ms > 0));
        referee.take(arrival::TimerFired{{GameTimer::Kind::stall, 0}}, t++);
        CHECK(referee.over() == (ms > 0));
        if (ms > 0)
            CHECK(referee.game().end() == End::stalled);
    }
}

TEST_CASE("referee: a player whose cgroup ran out of memory is put out, saying its limit",
          "[referee]") {
    GameSetup setup;
    setup.game = RulesConfig{1, 3, 1};
    setup.commands = {"one", "two", "three"};
    MemoryLog log;
    Referee referee(setup, two_letter_words(), log);
    referee.start(0);
    for (PlayerId p = 0; p < 3; ++p)
        referee.take(arrival::Output{p, "r"}, 1);
    REQUIRE(referee.game().dealt());
    const std::string oom = "used more than 256 MiB of memory (its processes together)";
    referee.take(arrival::Gone{1, OutCode::out_of_memory, oom}, 2);
    // Its exit, which the OOM killer caused, says nothing new.
    referee.take(arrival::Exited{1, 0, 9}, 3);
    const auto& out = referee.game().players()[1];
    CHECK(out.phase == PlayerState::Phase::out);
    CHECK(out.out_code == OutCode::out_of_memory);
    CHECK(out.reason == oom);
    CHECK_FALSE(referee.over());  // the others play on
    referee.take(arrival::Gone{0, OutCode::out_of_memory, "used more than 3 GiB"}, 4);
    CHECK(referee.game().players()[0].reason == "used more than 3 GiB");
    CHECK(referee.over());
    CHECK(memory_amount(256ULL << 20) == "256 MiB");
    CHECK(memory_amount(3ULL << 30) == "3 GiB");
    CHECK(memory_amount(1000) == "1000 bytes");
}

TEST_CASE("referee: once the players are gone, what each used and then the result are logged",
          "[referee]") {
    GameSetup setup;
    setup.game = RulesConfig{1, 2, 1};
    setup.commands = {"one", "two"};
    MemoryLog log;
    Referee referee(setup, two_letter_words(), log);
    referee.start(0);
    referee.take(arrival::Exited{0, 1, 0}, 1);
    referee.take(arrival::Exited{1, 1, 0}, 1);
    REQUIRE(referee.over());
    // The game is over, but its players may still be leaving: no result yet.
    CHECK_FALSE(log.result_record);
    referee.finish({PlayerUsage{7'000'000, 1 << 20, {}}, PlayerUsage{}}, 2);
    REQUIRE(log.result_record);
    REQUIRE(log.usages.size() == 2);
    CHECK(log.usages[0] == PlayerUsage{7'000'000, 1 << 20, {}});
    const auto& players = (*log.result_record)["players"];
    CHECK(players[0]["cpu_ms"] == 7.0);
    CHECK(players[0]["memory_peak_bytes"] == 1 << 20);
    CHECK(players[1]["cpu_ms"].is_null());
    CHECK(players[1]["memory_peak_bytes"].is_null());
    CHECK(to_json(referee.result()) == *log.result_record);
    // Once only.
    referee.finish({}, 3);
    CHECK(log.usages.size() == 2);
}

namespace {

// A v004 player's game: player 1 fresh (it says v004R), player 2 continuing in its process's
// second game when `continuing`.
GameSetup v004_setup(bool continuing) {
    GameSetup setup;
    setup.game = RulesConfig{1, 2, 1};
    if (continuing)
        setup.game.continuing = {std::nullopt, Continuing{protocol_v4, 2}};
    setup.commands = {"one", "two"};
    return setup;
}

template <class E>
std::vector<E> all_of_kind(const Effects& effects) {
    std::vector<E> found;
    for (const auto& e : effects)
        if (const auto* one = std::get_if<E>(&e))
            found.push_back(*one);
    return found;
}

// Player `p`'s v2 peel of its whole hand, stating the newest peel.
std::string v2_peel(const Referee& referee, PlayerId p) {
    const auto& hand = referee.game().players()[static_cast<std::size_t>(p)].hand;
    return fmt::format("P{:04}{}", referee.game().peel_number(),
                       serialise(staircase_grid(hand.to_string())));
}

// Plays the game to bananas by player 1's peels; the effects of the last.
Effects peel_to_bananas(Referee& referee, std::uint64_t& t) {
    Effects effects;
    while (!referee.over())
        effects = referee.take(arrival::Output{0, v2_peel(referee, 0)}, t++);
    return effects;
}

}  // namespace

TEST_CASE("referee: a continuing player is sent G where a fresh one is started",
          "[referee][v004]") {
    MemoryLog log;
    Referee referee(v004_setup(true), two_letter_words(), log);
    const Effects effects = referee.start(0);
    const auto starts = all_of_kind<effect::Start>(effects);
    REQUIRE(starts.size() == 1);
    CHECK(starts[0].player == 0);
    const auto sends = all_of_kind<effect::Send>(effects);
    REQUIRE(sends.size() == 1);
    CHECK(sends[0] == effect::Send{1, "G0202."});
}

TEST_CASE("referee: a v004 player still in at the end may stay, with its reader",
          "[referee][v004]") {
    MemoryLog log;
    Referee referee(v004_setup(false), two_letter_words(), log);
    referee.start(0);
    std::uint64_t t = 1;
    referee.take(arrival::Output{0, "v004R"}, t++);
    referee.take(arrival::Output{1, "v003R"}, t++);
    REQUIRE(referee.game().dealt());
    const Effects last = peel_to_bananas(referee, t);
    REQUIRE(referee.game().end() == End::bananas);
    const auto stops = all_of_kind<effect::Stop>(last);
    REQUIRE(stops.size() == 2);
    for (const auto& stop : stops)
        CHECK(stop.may_stay == (stop.player == 0));  // v003 plays one game a process
    // What it sent after its E, before reading it: a peel, cut in two, then a dump. Read and
    // ignored; the reader it goes on with is where the bytes left it.
    const std::string late = v2_peel(referee, 0) + "DA";
    referee.take(arrival::Output{0, late.substr(0, 5)}, t++);
    referee.take(arrival::Output{0, late.substr(5, 4)}, t++);
    CHECK_FALSE(referee.release_reader(1));
    auto reader = referee.release_reader(0);
    REQUIRE(reader);
    CHECK_FALSE(referee.release_reader(0));  // once

    // The next game, in the other seat: it continues, the rest of the cut peel first, then its
    // R; its moves are its new seat's, whatever seat its reader began in.
    MemoryLog next_log;
    Referee second(v004_setup(true), two_letter_words(), next_log);
    second.continue_reader(1, std::move(*reader));
    const Effects started = second.start(0);
    CHECK(all_of_kind<effect::Send>(started) == std::vector<effect::Send>{{1, "G0202."}});
    second.take(arrival::Output{1, late.substr(9) + "R"}, 1);
    second.take(arrival::Output{0, "v004R"}, 2);
    CHECK(second.game().dealt());
    CHECK(second.game().players()[1].phase == PlayerState::Phase::playing);
    second.take(arrival::Output{1, v2_peel(second, 1)}, 3);
    CHECK(second.game().players()[1].peels == 1);
    CHECK(second.game().players()[0].phase == PlayerState::Phase::playing);
    // The leftover peel and dump were logged, and decided nothing.
    REQUIRE(next_log.inputs.size() == 6);
    CHECK(std::holds_alternative<input::Peel>(next_log.inputs[0]));
    CHECK(std::holds_alternative<input::Dump>(next_log.inputs[1]));
}

TEST_CASE("referee: a v004 player that sends more than moves after its E, or is out, may not stay",
          "[referee][v004]") {
    for (const std::string after : {"R", "v004", "Z", ""}) {
        MemoryLog log;
        Referee referee(v004_setup(false), two_letter_words(), log);
        referee.start(0);
        std::uint64_t t = 1;
        referee.take(arrival::Output{0, "v004R"}, t++);
        referee.take(arrival::Output{1, "v004R"}, t++);
        peel_to_bananas(referee, t);
        if (after.empty())
            referee.take(arrival::Exited{0, 1, 0}, t++);
        else
            referee.take(arrival::Output{0, after}, t++);
        CHECK_FALSE(referee.release_reader(0));
        CHECK(referee.release_reader(1));
    }
    // Put out: no stay.
    MemoryLog log;
    Referee referee(v004_setup(false), two_letter_words(), log);
    referee.start(0);
    referee.take(arrival::Output{0, "v004R"}, 1);
    const Effects out = referee.take(arrival::Output{1, "v004RR"}, 2);
    REQUIRE(referee.over());
    // Player 2 is out; player 1, left alone, has won, and may stay.
    for (const auto& stop : all_of_kind<effect::Stop>(out))
        CHECK(stop.may_stay == (stop.player == 0));
    CHECK_FALSE(referee.release_reader(1));
    CHECK(referee.release_reader(0));
}

TEST_CASE(
    "referee: every way out has its code, and a sentence written before codes reads back to it",
    "[referee]") {
    // Sixteen players, each put out another way; the last two stay in.
    constexpr int players = 16;
    GameSetup setup;
    setup.game = RulesConfig{3, players, 2};
    for (int i = 0; i < players; ++i)
        setup.commands.push_back(fmt::format("bot{}", i));
    MemoryLog log;
    Referee referee(setup, two_letter_words(), log);
    referee.start(0);
    std::uint64_t t = second;
    const auto take = [&](Arrival arrival) { referee.take(std::move(arrival), t += second); };
    // Before the deal: a command that cannot start, one sh cannot find, one that sends a byte
    // the grammar does not allow; every other player is ready but the one left for the ready
    // timeout.
    take(arrival::StartFailed{0, "no such file"});
    take(arrival::Exited{1, 127, 0});
    take(arrival::Output{2, "x"});
    for (int p = 4; p < players; ++p)
        take(arrival::Output{p, "r"});
    take(arrival::TimerFired{{GameTimer::Kind::ready, 0}});
    REQUIRE(referee.game().dealt());
    // After it, each other way.
    take(arrival::Exited{4, 1, 0});
    take(arrival::Exited{5, 0, 9});
    take(arrival::OutputEnd{6});
    take(arrival::TimerFired{{GameTimer::Kind::exit_wait, 6}});
    take(arrival::InputError{7, "broken pipe"});
    take(arrival::TimerFired{{GameTimer::Kind::exit_wait, 7}});
    take(arrival::Backlog{8, Referee::backlog_limit + 1});
    take(arrival::Gone{9, OutCode::out_of_memory, "used more than 256 MiB of memory"});
    take(arrival::Gone{10, OutCode::left,
                       "its connection dropped and did not come back within 10000 ms"});
    take(arrival::Output{11, "p001001A"});  // not its hand
    const auto& hand12 = referee.game().players()[12].hand;
    char absent = 'A';
    while (hand12.count(absent) > 0)
        ++absent;
    take(arrival::Output{12, std::string("d") + absent});
    take(arrival::Output{13, "pX"});  // a grid's size that is no number
    const std::vector<OutCode> expected = {OutCode::could_not_start,
                                           OutCode::could_not_start,
                                           OutCode::protocol_error,
                                           OutCode::not_ready,
                                           OutCode::exited,
                                           OutCode::killed,
                                           OutCode::closed_output,
                                           OutCode::stopped_reading,
                                           OutCode::stopped_reading,
                                           OutCode::out_of_memory,
                                           OutCode::left,
                                           OutCode::illegal_peel,
                                           OutCode::illegal_dump,
                                           OutCode::protocol_error};
    for (std::size_t p = 0; p < expected.size(); ++p) {
        const PlayerState& player = referee.game().players()[p];
        INFO(p << ": " << player.reason);
        REQUIRE(player.phase == PlayerState::Phase::out);
        CHECK(player.out_code == expected[p]);
        // A log or a database from before codes has the sentence alone: it reads back the same.
        CHECK(out_code_of(player.reason) == expected[p]);
    }
    CHECK(referee.game().players()[14].phase != PlayerState::Phase::out);
    CHECK(referee.game().players()[15].phase != PlayerState::Phase::out);
}
