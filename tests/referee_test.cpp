// The referee's own counts beside the game's: stale peels and think times, from the times the
// arrivals came in with.
#include <catch2/catch.hpp>

#include "core/grid.hpp"
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
    referee.take(arrival::OutOfMemory{1, 256ULL << 20}, 2);
    // Its exit, which the OOM killer caused, says nothing new.
    referee.take(arrival::Exited{1, 0, 9}, 3);
    const auto& out = referee.game().players()[1];
    CHECK(out.phase == PlayerState::Phase::out);
    CHECK(out.reason == "used more than 256 MiB of memory (its processes together)");
    CHECK_FALSE(referee.over());  // the others play on
    referee.take(arrival::OutOfMemory{0, 3ULL << 30}, 4);
    CHECK(referee.game().players()[0].reason ==
          "used more than 3 GiB of memory (its processes together)");
    CHECK(referee.over());
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
    referee.finish({PlayerUsage{7'000'000, 1 << 20}, PlayerUsage{}}, 2);
    REQUIRE(log.result_record);
    REQUIRE(log.usages.size() == 2);
    CHECK(log.usages[0] == PlayerUsage{7'000'000, 1 << 20});
    const auto& players = (*log.result_record)["players"];
    CHECK(players[0]["cpu_ms"] == 7.0);
    CHECK(players[0]["memory_peak_bytes"] == 1 << 20);
    CHECK(players[1]["cpu_ms"].is_null());
    CHECK(players[1]["memory_peak_bytes"].is_null());
    CHECK(referee.result() == *log.result_record);
    // Once only.
    referee.finish({}, 3);
    CHECK(log.usages.size() == 2);
}
