// The arena's core (arena/core/arena_core.hpp) without a socket, a process or a database: inputs
// in, effects out. A match begun only once stored and rated once from the ratings held; a write
// that fails changes nothing held, and its match is voided once the store can be written; the
// pause after exactly K faulty matches; a version checked before it is queued; a person's
// chosen opponent; the stop and its grace; statuses published as they change. And the
// simulation the property tests drive (tests/support/arena_sim.hpp) shown to catch cores that
// break a rule.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <csignal>
#include <stdexcept>

#include "arena/core/arena_core.hpp"
#include "tests/support/arena_sim.hpp"

using namespace bg;
using namespace bg::arena;

namespace {

template <class E>
std::vector<E> all_of(const Effects& effects) {
    std::vector<E> found;
    for (const Effect& e : effects)
        if (const auto* x = std::get_if<E>(&e))
            found.push_back(*x);
    return found;
}

template <class E>
bool has(const Effects& effects) {
    return !all_of<E>(effects).empty();
}

// An arena of one house bot (the anchor at 25), two remote bots of their own (one checked
// already, one not) and a person, with the settings given.
Bot account(int id, const char* name, const char* owner) {
    Bot bot;
    bot.id = id;
    bot.name = name;
    bot.owner = owner;
    return bot;
}

Entry entry_of(int id, int bot, double sigma, const char* checked = "") {
    Entry entry;
    entry.id = id;
    entry.bot = bot;
    entry.label = "v1";
    entry.belief = {25, sigma};
    entry.checked = checked;
    return entry;
}

struct Small {
    Bot house = [] {
        Bot h = account(1, "H", "H");
        h.command = "house";
        h.anchor = 25.0;
        return h;
    }();
    Bot remote = account(2, "R", "r-owner");
    Bot fresh = account(3, "F", "f-owner");
    Bot person = [] {
        Bot p = account(4, "P", "P");
        p.person = true;
        return p;
    }();
    Entry house_entry = entry_of(11, 1, 0);
    Entry remote_entry = entry_of(12, 2, 25.0 / 3, "then");
    Entry fresh_entry = entry_of(13, 3, 25.0 / 3);
    Entry person_entry = entry_of(14, 4, 25.0 / 3);
    ArenaCore core;
    // Tables of two: a remote bot and the house bot's seat are a full table at once.
    static ArenaCore::Settings two(ArenaCore::Settings settings) {
        settings.matchmaker.max_players = 2;
        return settings;
    }
    explicit Small(ArenaCore::Settings settings = {})
        : core(two(settings),
               ArenaCore::Start{Roster({}, {house, remote, fresh, person},
                                       {house_entry, remote_entry, fresh_entry, person_entry}, {}),
                                {{1, 0, 11}},
                                {},
                                {},
                                7}) {}
    // The next match begun, stored as `id`: what the core did once it was.
    Effects begin(int id, std::uint64_t now) {
        const Effects turn = core.take(arena::input::Tick{now});
        REQUIRE(has<effect::BeginMatch>(turn));
        return core.take(arena::input::Written{id, "then"});
    }
};

// A game of two seats: `winner` first (the seat's entrant, rotated), the other out with `code`.
StoredGame game(int rotation, int winner_seat, std::optional<OutCode> loser_code = std::nullopt) {
    StoredGame g;
    g.rotation = rotation;
    g.result.players.resize(2);
    g.result.players[static_cast<std::size_t>(winner_seat)].rank = 1;
    auto& loser = g.result.players[static_cast<std::size_t>(1 - winner_seat)];
    loser.rank = loser_code ? 0 : 2;
    loser.out_code = loser_code;
    return g;
}

}  // namespace

TEST_CASE("arena core: a match begins only once stored, and is rated once from the ratings held",
          "[arena][core]") {
    Small arena;
    Effects waited =
        arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0});
    CHECK(has<effect::Soon>(waited));
    CHECK(arena.core.queued() == 1);
    // The turn: the remote bot and the house bot's free seat; nothing plays until it is stored.
    const Effects turn = arena.core.take(arena::input::Tick{30'000});
    REQUIRE(turn.size() >= 1);
    const auto begin = std::get<effect::BeginMatch>(turn.back());
    CHECK(begin.entries == std::vector<int>{12, 11});
    CHECK(arena.core.playing().empty());
    CHECK_THROWS_AS(arena.core.take(arena::input::Tick{30'001}),
                    std::logic_error);  // its outcome first
    const Effects begun = arena.core.take(arena::input::Written{5, "then"});
    const auto play = all_of<effect::Play>(begun);
    REQUIRE(play.size() == 1);
    CHECK(play[0].match == 5);
    CHECK(play[0].seats[0].connection == 100);
    CHECK(play[0].seats[1].command == 0);
    CHECK(all_of<effect::Began>(begun)[0].bots == std::vector<std::string>{"R", "H"});
    CHECK(arena.core.queued() == 0);
    CHECK(arena.core.houses()[0].in_use == 1);
    // Over: the remote bot won both rotations. Rated from the ratings held, through the step.
    const Effects over =
        arena.core.take(arena::input::Played{5, true, "", false, {game(0, 0), game(1, 1)}, 31'000});
    const auto rate = std::get<effect::RateMatch>(over.back());
    CHECK(rate.rated == rating_step(
                            {12, 11}, {1, 2},
                            [&](int e) { return arena.core.roster().standing(e); },
                            arena.core.roster().model()));
    CHECK(rate.rated[1].after == stats::Belief{25, 0});  // the anchor held
    const Effects rated = arena.core.take(arena::input::Written{5, "later"});
    CHECK(arena.core.roster().entry(12)->belief == rate.rated[0].after);
    CHECK(arena.core.roster().entry(12)->matches == 1);
    CHECK(arena.core.roster().last_match(12) == "later");
    CHECK(all_of<effect::Over>(rated)[0].record.match.state == "rated");
    CHECK(all_of<effect::Release>(rated)[0].match == 5);
    CHECK(arena.core.playing().empty());
    CHECK(arena.core.houses()[0].in_use == 0);
    CHECK(arena.core.last_over().front().id == 5);
}

TEST_CASE("arena core: a write that fails changes nothing held, and its match is voided later",
          "[arena][core]") {
    Small arena;
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0});
    // A begin that cannot be stored: no match, the connection still waits.
    arena.core.take(arena::input::Tick{30'000});
    const Effects refused = arena.core.take(arena::input::NotWritten{"disk full"});
    CHECK(!has<effect::Play>(refused));
    CHECK(arena.core.queued() == 1);
    CHECK(!arena.core.writable());
    arena.begin(1, 30'200);
    CHECK(arena.core.writable());
    // Its rating cannot be stored: the ratings held are as before, the seats let go.
    const auto before = arena.core.roster().entry(12)->belief;
    arena.core.take(arena::input::Played{1, true, "", false, {game(0, 0), game(1, 1)}, 31'000});
    const Effects failed = arena.core.take(arena::input::NotWritten{"disk full"});
    CHECK(arena.core.roster().entry(12)->belief == before);
    CHECK(arena.core.unrecorded() == 1);
    CHECK(has<effect::Release>(failed));
    // The next turn voids it first.
    const Effects tick = arena.core.take(arena::input::Tick{31'200});
    const auto v = std::get<effect::VoidMatch>(tick.back());
    CHECK(v.match == 1);
    const Effects voided = arena.core.take(arena::input::Written{1, "later"});
    CHECK(arena.core.unrecorded() == 0);
    CHECK(all_of<effect::Over>(voided)[0].record.match.state == "void");
}

TEST_CASE("arena core: a bot is paused after exactly three matches out for its own fault",
          "[arena][core]") {
    Small arena;
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0});
    std::uint64_t now = 30'000;
    for (int m = 1; m <= 3; ++m) {
        arena.begin(m, now += 1000);
        // The remote bot (entrant 0) is out of both rotations for not being ready.
        arena.core.take(
            arena::input::Played{m,
                                 true,
                                 "",
                                 false,
                                 {game(0, 1, OutCode::not_ready), game(1, 0, OutCode::not_ready)},
                                 now});
        const Effects rated = arena.core.take(arena::input::Written{m, "then"});
        if (m < 3) {
            CHECK(!has<effect::Pause>(rated));
            // Its connection comes back to the queue, as the lobby sends it.
            arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", now});
            continue;
        }
        const auto pause = all_of<effect::Pause>(rated);
        REQUIRE(pause.size() == 1);
        CHECK(pause[0].bot == 2);
        CHECK(pause[0].why ==
              "out of 3 matches in a row for its own fault, the last: not ready in time");
    }
    arena.core.take(arena::input::Written{0, "now"});
    CHECK(arena.core.roster().account(2)->paused.starts_with("out of 3 matches"));
    // Paused, its next connection is checked first.
    const Effects back = arena.core.take(
        arena::input::Arrived{101, *arena.core.roster().account(2), arena.remote_entry, "", now});
    CHECK(has<effect::Check>(back));
}

TEST_CASE("arena core: a version not yet checked is checked before it is queued", "[arena][core]") {
    Small arena;
    const Effects came =
        arena.core.take(arena::input::Arrived{100, arena.fresh, arena.fresh_entry, "", 0});
    REQUIRE(has<effect::Check>(came));
    CHECK(arena.core.queued() == 0);
    CHECK(arena.core.statuses().at(3) == "checking");
    const Effects record = arena.core.take(arena::input::Checked{100, false, 1, "answers", "told"});
    CHECK(std::get<effect::RecordCheck>(record.back()).passed == false);
    const Effects sent = arena.core.take(arena::input::Written{0, "now"});
    const auto done = all_of<effect::CheckDone>(sent);
    REQUIRE(done.size() == 1);
    CHECK((!done[0].passed && done[0].told == "told"));
    CHECK(arena.core.roster().entry(13)->check_failed == "answers");
    // Again, passed: it comes back and is queued.
    arena.core.take(arena::input::Arrived{101, arena.fresh, arena.fresh_entry, "", 0});
    arena.core.take(arena::input::Checked{101, true, 3, "", ""});
    CHECK(all_of<effect::CheckDone>(arena.core.take(arena::input::Written{0, "now"}))[0].passed);
    CHECK(arena.core.roster().entry(13)->checked == "now");
    CHECK(has<effect::Soon>(arena.core.take(
        arena::input::Arrived{101, arena.fresh, *arena.core.roster().entry(13), "", 0})));
    CHECK(arena.core.queued() == 1);
}

TEST_CASE("arena core: a check cut short records nothing, and the bot is checked again",
          "[arena][core]") {
    Small arena;
    REQUIRE(has<effect::Check>(
        arena.core.take(arena::input::Arrived{100, arena.fresh, arena.fresh_entry, "", 0})));
    arena.core.take(arena::input::Left{100});
    CHECK(arena.core.statuses().at(3) == "checking");  // its outcome is still awaited
    arena::input::Checked cut{100, false, 0, "its front node was gone before it ended", ""};
    cut.cut_short = true;
    const Effects after = arena.core.take(cut);
    CHECK(!has<effect::RecordCheck>(after));
    CHECK(!has<effect::CheckDone>(after));
    CHECK(!arena.core.statuses().count(3));
    CHECK(arena.core.roster().entry(13)->check_failed.empty());
    // Its next connection is checked, as before.
    CHECK(has<effect::Check>(
        arena.core.take(arena::input::Arrived{101, arena.fresh, arena.fresh_entry, "", 0})));
}

TEST_CASE("arena core: a person who chose a house bot plays it alone", "[arena][core]") {
    Small arena;
    // The remote bot waits too: the person plays the house bot's one seat, alone.
    arena.core.take(arena::input::Arrived{200, arena.person, arena.person_entry, "H", 0});
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 50});
    const Effects turn = arena.core.take(arena::input::Tick{100});
    const auto begin = std::get<effect::BeginMatch>(turn.back());
    CHECK(begin.entries == std::vector<int>{14, 11});
    const auto play = all_of<effect::Play>(arena.core.take(arena::input::Written{1, "then"}));
    CHECK(play[0].seats[0].connection == 200);
    CHECK(arena.core.queued() == 1);  // the remote bot: the house bot's one seat is taken
}

TEST_CASE("arena core: a stop begins nothing more, lets the matches finish, and finishes once",
          "[arena][core]") {
    ArenaCore::Settings settings;
    settings.stop_grace_ms = 5'000;
    Small arena(settings);
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0});
    arena.begin(1, 30'000);
    arena.core.take(arena::input::Arrived{101, arena.remote, arena.remote_entry, "", 30'000});
    const Effects stop = arena.core.take(arena::input::Signalled{15, "SIGTERM", 31'000});
    CHECK(has<effect::CloseDoors>(stop));
    CHECK(!has<effect::Finish>(stop));
    CHECK(arena.core.queued() == 0);
    // Within its grace: nothing more begins, nothing is aborted.
    const Effects soon = arena.core.take(arena::input::Tick{33'000});
    CHECK(!has<effect::BeginMatch>(soon));
    CHECK(!has<effect::Abort>(soon));
    // Past it: aborted, once.
    CHECK(has<effect::Abort>(arena.core.take(arena::input::Tick{36'000})));
    CHECK(!has<effect::Abort>(arena.core.take(arena::input::Tick{36'200})));
    arena.core.take(arena::input::Played{1, false, "the arena stopped", false, {}, 36'300});
    const Effects voided = arena.core.take(arena::input::Written{1, "now"});
    CHECK(all_of<effect::Finish>(voided).size() == 1);
    CHECK(!has<effect::Finish>(arena.core.take(arena::input::Tick{36'400})));
    // A second signal aborts at once.
    CHECK(has<effect::Abort>(arena.core.take(arena::input::Signalled{2, "SIGINT", 36'500})));
}

TEST_CASE("arena core: what each account is doing is published at the turn after it changes",
          "[arena][core]") {
    Small arena;
    CHECK(!has<effect::Statuses>(arena.core.take(arena::input::Tick{0})));
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0});
    const auto said = all_of<effect::Statuses>(arena.core.take(arena::input::Tick{100}));
    REQUIRE(said.size() == 1);
    CHECK(said[0].by_name == std::map<std::string, std::string>{{"R", "queued"}});
    arena.core.take(arena::input::Written{1, "then"});  // the turn began a match: playing
    const auto playing = all_of<effect::Statuses>(arena.core.take(arena::input::Tick{200}));
    REQUIRE(playing.size() == 1);
    CHECK(playing[0].by_name ==
          std::map<std::string, std::string>{{"H", "playing"}, {"R", "playing"}});
    CHECK(!has<effect::Statuses>(arena.core.take(arena::input::Tick{300})));  // unchanged: nothing
}

// The simulation the property tests drive can fail: each core here is wrong in one way, and the
// simulation names the rule it breaks.
TEST_CASE("arena core: the simulation catches a core that breaks a rule", "[arena][core][sim]") {
    using bg::test::ArenaSim;
    using bg::test::SimCommand;
    using bg::test::SimSetup;
    // A busy evening: bots come, matches end with faults, checks pass, the clock runs.
    std::vector<SimCommand> evening;
    for (std::uint64_t i = 0; i < 400; ++i) {
        evening.push_back({SimCommand::arrive, i * 7, i % 3, i % 5});  // c: its node, with fronts
        evening.push_back({SimCommand::check_over, i, 1});
        evening.push_back({SimCommand::tick, 1'500});
        evening.push_back({SimCommand::match_over, i, 1, i * 31 + 5});
    }
    const auto run = [&](const SimSetup& setup,
                         std::function<Effects(Effects)> distort) -> std::string {
        ArenaSim sim(setup, std::move(distort));
        for (const SimCommand& c : evening)
            if (!sim.step(c).empty())
                return sim.broken();
        return sim.drain();
    };
    // A core that changes each match it plays so.
    const auto on_play = [](std::function<void(effect::Play&)> change) {
        return [change = std::move(change)](Effects effects) {
            for (Effect& e : effects)
                if (auto* play = std::get_if<effect::Play>(&e))
                    change(*play);
            return effects;
        };
    };
    SimSetup setup;
    setup.settings.concurrency = 3;
    setup.settings.matchmaker.max_wait_ms = 1'000;
    CHECK(run(setup, nullptr) == "");  // the core as it is keeps every rule

    // Rates a match otherwise than its games say.
    const std::string wrong_rating = run(setup, [](Effects effects) {
        for (Effect& e : effects)
            if (auto* rate = std::get_if<effect::RateMatch>(&e))
                rate->rated[0].after.mu += 0.5;
        return effects;
    });
    CHECK(wrong_rating.find("rated otherwise") != std::string::npos);

    // Seats a person who chose a house bot with another.
    setup.people = 2;
    const std::string wrong_table = run(setup, on_play([](effect::Play& play) {
                                            for (MatchSeat& seat : play.seats)
                                                if (seat.command && seat.bot.name == "house0")
                                                    seat.bot.name = "house1";
                                        }));
    CHECK(wrong_table.find("chose house0, and plays another table") != std::string::npos);

    // Pauses a bot one match early: a core whose count is one short of the rules'.
    SimSetup early = setup;
    early.core_faults_to_pause = setup.settings.faults_to_pause - 1;
    CHECK(run(early, nullptr).find("paused before 3 matches") != std::string::npos);

    // Plays a front node's match at the holder, or says a connection is the holder's.
    SimSetup fronted = setup;
    fronted.fronts = 2;
    evening.insert(evening.begin(), {SimCommand::fronts, 3, 1});
    CHECK(run(fronted, nullptr) == "");
    const std::string at_holder =
        run(fronted, on_play([](effect::Play& play) { play.node.clear(); }));
    CHECK(at_holder.find("its connections at 'f") != std::string::npos);
    const std::string unnamed = run(fronted, on_play([](effect::Play& play) {
                                        for (MatchSeat& seat : play.seats)
                                            seat.node.clear();
                                    }));
    CHECK(unnamed.find("seated as one of node ''") != std::string::npos);
    const std::string house_placed = run(fronted, on_play([](effect::Play& play) {
                                             for (MatchSeat& seat : play.seats)
                                                 if (seat.command)
                                                     seat.node = "f0";
                                         }));
    CHECK(house_placed.find("the arena's own, given node 'f0'") != std::string::npos);
    // A shell that tells the core of a front it does not see, or of no limit to a front's cores.
    SimSetup all_seen = fronted;
    all_seen.wrong_fronts = SimSetup::WrongFronts::all_seen;
    evening[0] = {SimCommand::fronts, 1, 1};  // f0 alone seen
    CHECK(run(all_seen, nullptr).find("played at front node f1, which is not seen") !=
          std::string::npos);
    SimSetup unlimited = fronted;
    unlimited.wrong_fronts = SimSetup::WrongFronts::unlimited;
    evening[0] = {SimCommand::fronts, 3, 1};  // f0 of one core, f1 of two
    CHECK(run(unlimited, nullptr).find("cores") != std::string::npos);
    evening.erase(evening.begin());

    // Begins a match twice with the one seat of a house bot.
    const std::string twice =
        run(setup, on_play([](effect::Play& play) {
                if (play.seats.size() == 2 && play.seats[1].command && !play.seats[0].command)
                    play.seats[0] = play.seats[1];
            }));
    CHECK(twice != "");
}

TEST_CASE(
    "arena core: a match the machine decided (a house bot not ready, a bot not ready in a "
    "contended race) is void and no one's fault",
    "[arena][core]") {
    Small arena;
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0});
    std::uint64_t now = 30'000;
    for (int m = 1; m <= 4; ++m) {
        arena.begin(m, now += 1000);
        // Matches 1 to 3: the house bot (entrant 1) out of its first rotation, never ready (the
        // arena's machine too slow to start it); match 4: the remote bot (entrant 0) not ready
        // in a contended race.
        StoredGame first = m < 4 ? game(0, 0, OutCode::not_ready) : game(0, 1, OutCode::not_ready);
        if (m == 4)
            first.result.contended = true;
        const Effects played =
            arena.core.take(arena::input::Played{m, true, "", false, {first, game(1, 1)}, now});
        const auto voided = all_of<effect::VoidMatch>(played);
        REQUIRE(voided.size() == 1);
        CHECK(!has<effect::RateMatch>(played));
        CHECK(voided[0].why.starts_with(m < 4 ? "the machine was too slow: house bot H was not "
                                                "ready in its game 1"
                                              : "the machine was too busy: R was not ready in "
                                                "its game 1"));
        const Effects after = arena.core.take(arena::input::Written{m, "then"});
        CHECK(!has<effect::Pause>(after));
        arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", now});
    }
    CHECK(arena.core.roster().account(1)->paused.empty());
    CHECK(arena.core.roster().account(2)->paused.empty());
    CHECK(arena.core.roster().entry(11)->matches == 0);
    CHECK(arena.core.roster().entry(12)->belief.sigma == Approx(25.0 / 3));
    // A contended race whose players were all ready is rated (its result says so).
    arena.begin(5, now += 1000);
    StoredGame busy = game(0, 0);
    busy.result.contended = true;
    const Effects played =
        arena.core.take(arena::input::Played{5, true, "", false, {busy, game(1, 1)}, now});
    CHECK(has<effect::RateMatch>(played));
    arena.core.take(arena::input::Written{5, "then"});
}

TEST_CASE("arena core: a game with a person at it has the people's clock, where it is the longer",
          "[arena][core]") {
    arena::MatchSeat bot, person;
    person.bot.person = true;
    CHECK(arena::game_clock({bot, bot}, 600'000, 1'200'000) == 600'000);
    CHECK(arena::game_clock({bot, person}, 600'000, 1'200'000) == 1'200'000);
    CHECK(arena::game_clock({person, bot}, 3'600'000, 1'200'000) == 3'600'000);
    CHECK(arena::game_clock({person, bot}, 0, 1'200'000) == 0);  // no clock stays none
}

TEST_CASE(
    "arena core: a bot not ready in a game in which the arena's loop stalled past its bar is no "
    "one's fault, and below the bar its own",
    "[arena][core]") {
    Small arena;
    const std::uint64_t bar = arena.core.settings().loop_stall_bar_ms;
    std::uint64_t now = 30'000;
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", now});
    arena.begin(1, now += 1000);
    // The remote bot (entrant 0) not ready in the second game, while the loop stalled: void.
    const Effects stalled = arena.core.take(arena::input::Played{
        1, true, "", false, {game(0, 0), game(1, 0, OutCode::not_ready)}, now, {0, bar}});
    const auto voided = all_of<effect::VoidMatch>(stalled);
    REQUIRE(voided.size() == 1);
    CHECK(voided[0].why == fmt::format("the machine was too slow: the arena's loop stalled for "
                                       "{:.1f} s in game 2, in which R was not ready, which no "
                                       "bot is rated for",
                                       static_cast<double>(bar) / 1000.0));
    CHECK(!has<effect::Pause>(arena.core.take(arena::input::Written{1, "then"})));
    // The same with the stall in the other game, or below the bar: the bot's own fault, rated.
    for (const std::vector<std::uint64_t>& stalls :
         {std::vector<std::uint64_t>{bar, 0}, std::vector<std::uint64_t>{0, bar - 1}}) {
        arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", now});
        const int m = stalls[0] ? 2 : 3;
        arena.begin(m, now += 1000);
        const Effects played = arena.core.take(arena::input::Played{
            m, true, "", false, {game(0, 0), game(1, 0, OutCode::not_ready)}, now, stalls});
        CHECK(has<effect::RateMatch>(played));
        CHECK(!has<effect::VoidMatch>(played));
        arena.core.take(arena::input::Written{m, "then"});
    }
}

TEST_CASE("arena core: a bot that asks for a house bot spars with it, unrated and no one's fault",
          "[arena][core]") {
    Small arena;
    std::uint64_t now = 30'000;
    for (int m = 1; m <= 3; ++m) {
        // The remote bot asks for H: its table is the two of them, and its match is never rated,
        // its faults never counted.
        arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "H", now});
        const Effects begun = arena.begin(m, now += 1000);
        const auto play = all_of<effect::Play>(begun);
        REQUIRE(play.size() == 1);
        REQUIRE(play[0].seats.size() == 2);
        CHECK((play[0].seats[0].sparring || play[0].seats[1].sparring));
        const Effects played = arena.core.take(arena::input::Played{
            m,
            true,
            "",
            false,
            {game(0, 1, OutCode::protocol_error), game(1, 0, OutCode::protocol_error)},
            now});
        const auto voided = all_of<effect::VoidMatch>(played);
        REQUIRE(voided.size() == 1);
        CHECK(voided[0].why == "a sparring match, which is never rated: R asked to play H");
        CHECK(!has<effect::Pause>(arena.core.take(arena::input::Written{m, "then"})));
    }
    CHECK(arena.core.roster().account(2)->paused.empty());
    CHECK(arena.core.roster().entry(12)->matches == 0);
}

TEST_CASE(
    "arena core: a hosted bot's version that passed its check plays as a connection would, one "
    "match at a time, filled by a house bot, a new version takes its place, and its faults are "
    "its own",
    "[arena][core]") {
    Small arena;
    Bot hosted = account(5, "S", "s-owner");
    Entry first = entry_of(15, 5, 25.0 / 3, "then");
    first.label = "s-1";
    std::uint64_t now = 1'000;
    arena.core.take(arena::input::Hosted{{5, 1, 15, true}, hosted, first, now});
    REQUIRE(arena.core.houses().size() == 2);
    CHECK(arena.core.houses()[1].house.hosted);
    // A table is made for it (not a filler), with the house bot's free seat.
    const Effects begun = arena.begin(1, now += 100);
    const auto play = all_of<effect::Play>(begun);
    REQUIRE(play.size() == 1);
    CHECK(play[0].seats[0].bot.name == "S");
    CHECK(play[0].seats[0].hosted);
    CHECK(play[0].seats[0].command == 1);
    CHECK(play[0].seats[1].bot.name == "H");
    CHECK(!play[0].seats[1].hosted);
    // One match at a time: nothing more begins while it plays, though house seats are free.
    const Effects turn = arena.core.take(arena::input::Tick{now += 100});
    CHECK(!has<effect::BeginMatch>(turn));
    // A new version passes its check while the first plays: it takes the seat once free.
    Entry second = entry_of(16, 5, 25.0 / 3, "later");
    second.label = "s-2";
    arena.core.take(arena::input::Hosted{{5, 2, 16, true}, hosted, second, now});
    CHECK(arena.core.houses().size() == 2);
    CHECK(arena.core.houses()[1].house.entry == 16);
    CHECK(arena.core.houses()[1].in_use == 1);
    // Not ready in its game: its own fault (a house bot's would be the machine's), rated.
    const Effects over = arena.core.take(arena::input::Played{
        1, true, "", false, {game(0, 1), game(1, 0, OutCode::not_ready)}, now += 100});
    CHECK(has<effect::RateMatch>(over));
    CHECK(!has<effect::VoidMatch>(over));
    arena.core.take(arena::input::Written{1, "then"});
    CHECK(arena.core.houses()[1].in_use == 0);
    // The next match is the new version's.
    const Effects next = arena.begin(2, now += 100);
    const auto again = all_of<effect::Play>(next);
    REQUIRE(again.size() == 1);
    CHECK(again[0].seats[0].entry.id == 16);
    CHECK(again[0].seats[0].command == 2);
}

TEST_CASE(
    "arena core: with --cores, the players the arena runs itself never outnumber its cores, a "
    "table shedding house seats or waiting",
    "[arena][core]") {
    // fits_cores alone: a hosted seat with three house fillers on two cores sheds two of them.
    const auto seat = [](int bot, bool command, bool hosted) {
        MatchSeat s;
        s.bot.id = bot;
        if (command)
            s.command = bot;
        s.hosted = hosted;
        return s;
    };
    std::vector<MatchSeat> table = {seat(1, true, true), seat(2, true, false),
                                    seat(3, false, false), seat(4, true, false)};
    int in_play = 0;
    CHECK(fits_cores(table, 2, in_play));
    REQUIRE(table.size() == 3);
    CHECK(table[0].bot.id == 1);
    CHECK(table[1].bot.id == 2);
    CHECK(table[2].bot.id == 3);  // a connection's seat is never shed
    CHECK(in_play == 2);
    // No core left: the next waits; a table of connections alone needs none.
    std::vector<MatchSeat> more = {seat(5, true, true), seat(6, true, false)};
    CHECK(!fits_cores(more, 2, in_play));
    std::vector<MatchSeat> remote = {seat(7, false, false), seat(8, false, false)};
    CHECK(fits_cores(remote, 2, in_play));
    // Two hosted seats are never shed for the cores: such a table waits.
    std::vector<MatchSeat> two_hosted = {seat(1, true, true), seat(5, true, true),
                                         seat(6, true, true)};
    int none = 0;
    CHECK(!fits_cores(two_hosted, 2, none));
    CHECK(none == 0);
    std::vector<MatchSeat> unlimited = two_hosted;
    CHECK(fits_cores(unlimited, 0, none));
    CHECK(unlimited.size() == 3);

    // In the core: two hosted bots, one house bot with two seats, two cores and room for two
    // matches: only one match at once, for the machine has two cores for four players.
    ArenaCore::Settings settings;
    settings.cores = 2;
    settings.house_seats = 2;
    Small arena(settings);
    Bot s = account(5, "S", "s"), t = account(6, "T", "t");
    arena.core.take(arena::input::Hosted{{5, 1, 15, true}, s, entry_of(15, 5, 25.0 / 3, "x"), 0});
    arena.core.take(arena::input::Hosted{{6, 2, 16, true}, t, entry_of(16, 6, 25.0 / 3, "x"), 0});
    arena.begin(1, 100);
    const Effects turn = arena.core.take(arena::input::Tick{200});
    CHECK(!has<effect::BeginMatch>(turn));
    CHECK(arena.core.playing().size() == 1);
}

TEST_CASE(
    "arena core: with workers, a match of the arena's own players alone is a worker's, begun "
    "only while workers are seen and within their cores, and a remote bot's match stays the "
    "arena's",
    "[arena][core]") {
    ArenaCore::Settings settings;
    settings.workers = true;
    settings.cores = 2;
    settings.house_seats = 3;
    settings.concurrency = 4;
    Small arena(settings);
    Bot s = account(5, "S", "s"), t = account(6, "T", "t");
    arena.core.take(arena::input::Hosted{{5, 1, 15, true}, s, entry_of(15, 5, 25.0 / 3, "x"), 0});
    arena.core.take(arena::input::Hosted{{6, 2, 16, true}, t, entry_of(16, 6, 25.0 / 3, "x"), 0});
    Bot u = account(7, "U", "u");
    // No worker seen: a remote bot's match with the house bot begins, the arena's own (one of
    // its players on its two cores); nothing of the hosted bots does.
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0});
    auto play = all_of<effect::Play>(arena.begin(1, 30'100));
    REQUIRE(play.size() == 1);
    CHECK(!play[0].by_workers);
    CHECK(play[0].seats[0].bot.name == "R");
    CHECK(!has<effect::BeginMatch>(arena.core.take(arena::input::Tick{30'200})));
    // A worker of two cores: one match of two of the arena's players, played by it, though the
    // arena's own cores are one short of it.
    CHECK(has<effect::Soon>(arena.core.take(arena::input::Workers{2, 2})));
    play = all_of<effect::Play>(arena.begin(2, 30'300));
    REQUIRE(play.size() == 1);
    CHECK(play[0].by_workers);
    CHECK(play[0].seats.size() == 2);
    CHECK(arena.core.playing().at(2).by_workers);
    // A third hosted bot: its cores taken, it waits for the workers.
    arena.core.take(
        arena::input::Hosted{{7, 3, 17, true}, u, entry_of(17, 7, 25.0 / 3, "x"), 30'300});
    CHECK(!has<effect::BeginMatch>(arena.core.take(arena::input::Tick{61'000 - 1})));
    // Two workers more, of two cores each: its match with the house bot begins beside it.
    arena.core.take(arena::input::Workers{6, 2});
    play = all_of<effect::Play>(arena.begin(3, 61'000));
    REQUIRE(play.size() == 1);
    CHECK(play[0].by_workers);
    CHECK(names_of(play[0].seats) == std::vector<std::string>{"U", "H"});
    // The workers gone: their matches play on (a worker's lease says what became of them);
    // nothing more begins.
    arena.core.take(arena::input::Workers{0, 0});
    CHECK(arena.core.playing().size() == 3);

    // fits_workers alone: a table of three house seats on workers of two cores at most sheds
    // one; none seen, none fits.
    const auto house = [](int bot) {
        MatchSeat seat;
        seat.bot.id = bot;
        seat.command = bot;
        return seat;
    };
    std::vector<MatchSeat> three = {house(1), house(2), house(3)};
    int in_play = 0;
    CHECK(fits_workers(three, arena::input::Workers{8, 2}, in_play));
    CHECK(three.size() == 2);
    CHECK(in_play == 2);
    std::vector<MatchSeat> two = {house(1), house(2)};
    int none = 0;
    CHECK(!fits_workers(two, arena::input::Workers{0, 0}, none));
    CHECK(by_workers(two, true));
    CHECK(!by_workers(two, false));
}

TEST_CASE(
    "arena core: a front node's connection plays at that node while it is seen, its house seats "
    "against that node's cores, and the holder's cores count the holder's alone",
    "[arena][core]") {
    ArenaCore::Settings settings;
    settings.cores = 1;
    settings.house_seats = 3;
    settings.concurrency = 4;
    Small arena(settings);
    // The remote bot at front node f0: no front seen, so it waits, though the holder has its
    // core and the house bot its seats free.
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0, "f0"});
    CHECK(!has<effect::BeginMatch>(arena.core.take(arena::input::Tick{30'100})));
    // f0 seen, with one core: the match begins there, its house seat counted against f0's core.
    CHECK(has<effect::Soon>(arena.core.take(arena::input::Fronts{{{"f0", 1}}})));
    auto play = all_of<effect::Play>(arena.begin(1, 30'200));
    REQUIRE(play.size() == 1);
    CHECK(play[0].node == "f0");
    CHECK(!play[0].by_workers);
    CHECK(names_of(play[0].seats) == std::vector<std::string>{"R", "H"});
    CHECK(play[0].seats[0].node == "f0");
    CHECK(play[0].seats[1].node.empty());  // the house bot's seat plays wherever its table does
    CHECK(arena.core.playing().at(1).node == "f0");
    // The person at the holder: its table with the house bot is the holder's, on its own core
    // (f0's house seat is not counted against it).
    arena.core.take(arena::input::Arrived{101, arena.person, arena.person_entry, "", 30'200});
    play = all_of<effect::Play>(arena.begin(2, 30'300));
    REQUIRE(play.size() == 1);
    CHECK(play[0].node.empty());
    CHECK(names_of(play[0].seats) == std::vector<std::string>{"P", "H"});
    const auto over = [&](int match, std::uint64_t now) {
        REQUIRE(has<effect::RateMatch>(arena.core.take(
            arena::input::Played{match, true, "", false, {game(0, 0), game(1, 1)}, now})));
        arena.core.take(arena::input::Written{match, "then"});
    };
    over(2, 30'400);  // the holder's core free again
    // Another bot at f0: f0's one core is taken, so it waits (the holder's is free); given two,
    // it begins there.
    Bot v = account(8, "V", "v");
    arena.core.take(
        arena::input::Arrived{102, v, entry_of(18, 8, 25.0 / 3, "then"), "", 30'400, "f0"});
    CHECK(!has<effect::BeginMatch>(arena.core.take(arena::input::Tick{61'000})));
    arena.core.take(arena::input::Fronts{{{"f0", 2}}});
    play = all_of<effect::Play>(arena.begin(3, 61'100));
    REQUIRE(play.size() == 1);
    CHECK(play[0].node == "f0");
    CHECK(names_of(play[0].seats) == std::vector<std::string>{"V", "H"});
    // f0 gone: its matches play on (their end is its job's), and nothing more begins there,
    // though the holder's core and the house bot's seats are free.
    arena.core.take(arena::input::Fronts{});
    CHECK(arena.core.playing().size() == 2);
    over(1, 61'200);
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 61'200, "f0"});
    CHECK(!has<effect::BeginMatch>(arena.core.take(arena::input::Tick{99'000})));
    // Back, its connection plays there again.
    arena.core.take(arena::input::Fronts{{{"f0", 2}}});
    play = all_of<effect::Play>(arena.begin(4, 99'100));
    REQUIRE(play.size() == 1);
    CHECK(play[0].node == "f0");

    // place_of: a table's connections' node, or the holder's.
    MatchSeat house_seat, at_f1;
    house_seat.command = 0;
    at_f1.node = "f1";
    CHECK(place_of({house_seat, at_f1}) == "f1");
    CHECK(place_of({house_seat}).empty());
}

TEST_CASE(
    "arena core: a season's finals matches begin first, on their own deal, once each, as "
    "their bots' seats are free",
    "[arena][core]") {
    Bot h1 = account(1, "H1", "H1"), h2 = account(2, "H2", "H2"), x = account(3, "X", "X");
    h1.command = "house one";
    h2.command = "house two";
    const Entry e1 = entry_of(11, 1, 25.0 / 3), e2 = entry_of(12, 2, 25.0 / 3),
                e3 = entry_of(13, 3, 25.0 / 3, "then");
    ArenaCore::Settings settings;
    settings.concurrency = 4;
    ArenaCore core(settings, ArenaCore::Start{Roster({}, {h1, h2, x}, {e1, e2, e3}, {}),
                                              {{1, 0, 11}, {2, 1, 12}, {3, 2, 13, true}},
                                              {},
                                              {},
                                              7});
    // Two tables of one round: H1 plays one match at a time (--house-seats 1), so the second
    // waits for the first's end. An older version's command (X's 9) plays as given.
    const FinalsOf of{1, 0, 0, 99};
    const std::vector<FinalsTable> wanted{{of, {{1, 0, 11}, {2, 1, 12}}},
                                          {of, {{1, 0, 11}, {3, 9, 13, true}}}};
    core.take(arena::input::Finals{wanted});
    const auto first = all_of<effect::BeginMatch>(core.take(arena::input::Tick{1'000}));
    REQUIRE(first.size() == 1);
    CHECK(first[0].entries == std::vector<int>{11, 12});
    CHECK(first[0].finals == of);
    const auto play = all_of<effect::Play>(core.take(arena::input::Written{5, "then"}));
    REQUIRE(play.size() == 1);
    CHECK(play[0].seats[0].command == 0);
    CHECK(core.playing().at(5).finals == of);
    // Told again while it plays (the store read before its end): neither begins again.
    core.take(arena::input::Finals{wanted});
    CHECK_FALSE(has<effect::BeginMatch>(core.take(arena::input::Tick{2'000})));
    // Its end frees H1: the second begins, on the round's deal, with X's version as given.
    const Effects rated =
        core.take(arena::input::Played{5, true, "", false, {game(0, 0), game(1, 0)}, 3'000, {}});
    REQUIRE(has<effect::RateMatch>(rated));
    core.take(arena::input::Written{5, "later"});
    const auto second = all_of<effect::BeginMatch>(core.take(arena::input::Tick{4'000}));
    REQUIRE(second.size() == 1);
    CHECK(second[0].entries == std::vector<int>{11, 13});
    CHECK(second[0].finals == of);
    const auto played = all_of<effect::Play>(core.take(arena::input::Written{6, "then"}));
    REQUIRE(played.size() == 1);
    CHECK(played[0].seats[1].command == 9);
    CHECK(played[0].seats[1].hosted);
    // None wanted: none begins; and none while the arena stops.
    core.take(arena::input::Finals{});
    CHECK_FALSE(has<effect::BeginMatch>(core.take(arena::input::Tick{5'000})));
    core.take(arena::input::Finals{{{{1, 0, 1, 98}, {{2, 1, 12}, {3, 9, 13, true}}}}});
    core.take(arena::input::Signalled{SIGTERM, "SIGTERM", 6'000});
    CHECK_FALSE(has<effect::BeginMatch>(core.take(arena::input::Tick{7'000})));
    // A finalist the core seats nowhere else (a bot removed since: no house seat) plays one
    // finals match at a time.
    ArenaCore bare(
        settings,
        ArenaCore::Start{
            Roster({}, {h1, h2, x}, {e1, e2, e3}, {}), {{1, 0, 11}, {2, 1, 12}}, {}, {}, 7});
    const FinalsOf next{1, 0, 1, 98};
    bare.take(arena::input::Finals{
        {{next, {{3, 9, 13, true}, {1, 0, 11}}}, {next, {{2, 1, 12}, {3, 9, 13, true}}}}});
    const auto unseated = all_of<effect::BeginMatch>(bare.take(arena::input::Tick{1'000}));
    REQUIRE(unseated.size() == 1);
    CHECK(unseated[0].entries == std::vector<int>{13, 11});
    bare.take(arena::input::Written{5, "then"});
    CHECK_FALSE(has<effect::BeginMatch>(bare.take(arena::input::Tick{2'000})));
    // Where the bots have seats to spare, a table playing is still not begun a second time.
    settings.house_seats = 2;
    ArenaCore roomy(
        settings,
        ArenaCore::Start{
            Roster({}, {h1, h2, x}, {e1, e2, e3}, {}), {{1, 0, 11}, {2, 1, 12}}, {}, {}, 7});
    roomy.take(arena::input::Finals{{wanted[0]}});
    REQUIRE(has<effect::BeginMatch>(roomy.take(arena::input::Tick{1'000})));
    roomy.take(arena::input::Written{5, "then"});
    roomy.take(arena::input::Finals{{wanted[0]}});
    CHECK_FALSE(has<effect::BeginMatch>(roomy.take(arena::input::Tick{2'000})));
}

TEST_CASE("arena core: a finalist its finals want plays no ladder match meanwhile",
          "[arena][core]") {
    Small arena;
    // The house bot's finals table waits for a partner the core cannot seat (not there yet).
    arena.core.take(arena::input::Finals{{{{1, 0, 0, 99}, {{1, 0, 11}, {99, 5, 99}}}}});
    arena.core.take(arena::input::Arrived{100, arena.remote, arena.remote_entry, "", 0});
    CHECK_FALSE(has<effect::BeginMatch>(arena.core.take(arena::input::Tick{30'000})));
    // Its finals no longer want it: the remote bot plays it.
    arena.core.take(arena::input::Finals{});
    const auto begun = all_of<effect::BeginMatch>(arena.core.take(arena::input::Tick{31'000}));
    REQUIRE(begun.size() == 1);
    CHECK(begun[0].entries == std::vector<int>{12, 11});
    CHECK_FALSE(begun[0].finals);
}
