// A tournament's standings from its database rows: counts, kinds of disqualification, head to
// head and the pairs of a deal, on games whose results are known.
#include <catch2/catch.hpp>

#include "tournament/standings.hpp"

using namespace bg::tournament;

namespace {

// A done game: seats hold these bots, with these standings (0 disqualified, with `reason`).
FixtureRecord done(int id, int deal, int rotation, std::vector<int> bots,
                   std::vector<int> standings, std::string end = "bananas",
                   std::string reason = "") {
    FixtureRecord row;
    row.id = id;
    row.game.deal = deal;
    row.game.rotation = rotation;
    row.game.seats = std::move(bots);
    row.state = State::done;
    GameResult result;
    result.end = std::move(end);
    for (std::size_t s = 0; s < standings.size(); ++s) {
        SeatResult seat;
        seat.standing = standings[s];
        seat.outcome = standings[s] == 0 ? "disqualified" : standings[s] == 1 ? "won" : "lost";
        if (standings[s] == 1 && result.end != "game_timeout")
            result.winner_seat = static_cast<int>(s);
        if (standings[s] == 0)
            seat.reason = reason;
        seat.stale_peels = 1;
        seat.timed_peels = 2;
        seat.think_ms = 10;
        result.seats.push_back(seat);
    }
    row.result = std::move(result);
    return row;
}

TournamentSpec spec_of(int bots, int players) {
    TournamentSpec spec;
    for (int b = 0; b < bots; ++b)
        spec.bots.push_back({std::string(1, static_cast<char>('a' + b)), "true"});
    spec.players = players;
    return spec;
}

const BotStanding& bot_named(const Standings& s, const std::string& name) {
    for (const auto& b : s.bots)
        if (b.name == name)
            return b;
    FAIL("no bot " << name);
    return s.bots.front();
}

}  // namespace

TEST_CASE("standings: counts, standings, disqualifications and head to head", "[standings]") {
    const TournamentSpec spec = spec_of(3, 3);
    std::vector<FixtureRecord> rows = {
        done(1, 0, 0, {0, 1, 2}, {1, 2, 3}),
        done(2, 0, 1, {1, 2, 0}, {2, 0, 1}, "bananas", "protocol error: sent r (ready) twice"),
        done(3, 0, 2, {2, 0, 1}, {2, 2, 1}, "game_timeout"),
    };
    FixtureRecord pending;
    pending.id = 4;
    pending.game.seats = {0, 1, 2};
    rows.push_back(pending);
    const Standings s = standings(spec, rows, std::nullopt);
    CHECK(s.total == 4);
    CHECK(s.done == 3);
    const BotStanding& a = bot_named(s, "a");
    const BotStanding& c = bot_named(s, "c");
    CHECK(a.games == 3);
    CHECK(a.wins == 2);  // the timed-out game has no winner
    CHECK(a.mean_standing == Approx((1 + 1 + 2) / 3.0));
    CHECK(c.disqualified == 1);
    CHECK(c.disqualifications.at("protocol error") == 1);
    // Disqualified, c stood last of three in game 2.
    CHECK(c.mean_standing == Approx((3 + 3 + 2) / 3.0));
    CHECK(a.timeouts == 1);
    CHECK(a.stale_peels == 3);
    REQUIRE(a.think_ms);
    CHECK(*a.think_ms == Approx(5.0));
    // a above b in games 1 and 2, below in 3; a above c in 1 and 2, level in 3.
    CHECK(s.head_to_head[0][1] == 2);
    CHECK(s.head_to_head[1][0] == 1);
    CHECK(s.games_between[0][1] == 3);
    CHECK(s.head_to_head[0][2] == 2.5);
    // The best rating first: a won most.
    CHECK(s.bots.front().name == "a");
    CHECK_FALSE(s.pairs);
}

TEST_CASE("standings: two bots are scored on the two games of each deal", "[standings]") {
    TournamentSpec spec = spec_of(2, 2);
    spec.sprt = bg::stats::Sprt{0, 50, 0.05, 0.05};
    const std::vector<FixtureRecord> rows = {
        done(1, 0, 0, {0, 1}, {1, 2}),
        done(2, 0, 1, {1, 0}, {2, 1}),  // a wins both: 4
        done(3, 1, 0, {0, 1}, {1, 2}),
        done(4, 1, 1, {1, 0}, {1, 2}),  // one each: 2
        done(5, 2, 0, {0, 1}, {2, 2}, "game_timeout"),
        done(6, 2, 1, {1, 0}, {1, 2}),  // no winner, then b: 1
        done(7, 3, 0, {0, 1}, {1, 2}),  // its pair is not complete: not counted
    };
    PairTally tally;
    for (const auto& row : rows)
        tally.add(row);
    CHECK(tally.results().pairs == std::array<std::uint64_t, 5>{0, 1, 1, 0, 1});
    const Standings s = standings(spec, rows, std::string("stopped"));
    REQUIRE(s.pairs);
    CHECK(s.pairs->pairs == 3);
    CHECK(s.pairs->score == Approx((1 + 0.5 + 0.25) / 3));
    REQUIRE(s.sprt);
    CHECK(s.sprt->llr == Approx(spec.sprt->llr(tally.results())));
    CHECK(s.stopped == "stopped");
    const auto json = standings_json(s);
    CHECK(json["pairs"]["pairs"] == 3);
    CHECK(json["sprt"]["decision"] == "undecided");
    CHECK(standings_table(s).find("a against b: 3 game pairs") != std::string::npos);
    // Each rating says what it is.
    CHECK(
        standings_table(s).find("Elo: each bot's rating, fitted to the standings of every game") !=
        std::string::npos);
    CHECK(standings_table(s).find("(the pair line rates the first bot against the second on game "
                                  "pairs alone") != std::string::npos);
}

TEST_CASE("standings: every disqualification the referee gives has its kind", "[standings]") {
    CHECK(reason_kind("protocol error: sent r (ready) a second time") == "protocol error");
    CHECK(reason_kind("illegal peel: XQ is not a word") == "illegal peel");
    CHECK(reason_kind("not ready (no r, nor v002R in v2) before the ready timeout") ==
          "not ready in time");
    CHECK(reason_kind("could not start: sh exited with status 127 (command not found)") ==
          "could not start");
    CHECK(reason_kind("exited with status 3") == "exited");
    CHECK(reason_kind("was killed by signal 9 (Killed)") == "exited");
    CHECK(reason_kind("closed its output (stdout)") == "exited");
    CHECK(reason_kind("does not read its input (1048577 bytes queued)") == "stopped reading");
    CHECK(reason_kind("stopped reading its input (broken pipe)") == "stopped reading");
    CHECK(reason_kind("flooded the host: more than 10000 messages") == "flooded");
    CHECK(reason_kind("something new") == "other");
}

TEST_CASE(
    "standings: a contended game is counted, left out with --uncontended, or replaced by "
    "its replay",
    "[standings][cpu_wait]") {
    const TournamentSpec spec = spec_of(2, 2);
    // Deal 1: a wins both seatings; its first game was contended, and replayed (game 5), where
    // b won. Deal 2: split, not contended.
    std::vector<FixtureRecord> rows = {done(1, 1, 0, {0, 1}, {1, 2}), done(2, 1, 1, {1, 0}, {2, 1}),
                                       done(3, 2, 0, {0, 1}, {1, 2}),
                                       done(4, 2, 1, {1, 0}, {1, 2})};
    rows[0].result->contended = true;
    rows[0].result->seats[0].cpu_wait_ms = 40;
    rows[0].result->seats[1].cpu_wait_ms = 2;
    rows[1].result->contended = false;
    rows[1].result->seats[0].cpu_wait_ms = 4;

    auto s = standings(spec, rows, std::nullopt);
    CHECK(s.done == 4);
    CHECK(s.total == 4);
    CHECK(s.contended == 1);
    CHECK(bot_named(s, "a").contended == 1);
    CHECK(bot_named(s, "a").wins == 3);
    // a's waits: 40 in game 1, none counted elsewhere; b's: 2 and 4.
    CHECK(bot_named(s, "a").cpu_wait_ms == 40);
    CHECK(bot_named(s, "b").cpu_wait_ms == 3);
    CHECK_THAT(standings_table(s), Catch::Contains("1 of them contended"));

    // Left out: a has three games, and deal 1 is no longer a whole pair.
    s = standings(spec, rows, std::nullopt, true);
    CHECK(s.left_out == 1);
    CHECK(bot_named(s, "a").games == 3);
    CHECK(s.pairs->pairs == 1);
    CHECK(standings_json(s)["left_out"] == 1);

    // Replayed, and the replay done: it counts instead (b won it), the first play does not.
    FixtureRecord replay = done(5, 1, 0, {0, 1}, {2, 1});
    replay.replay_of = 1;
    replay.result->contended = false;
    rows.push_back(replay);
    rows[0].replayed_by = 5;
    s = standings(spec, rows, std::nullopt);
    CHECK(s.total == 4);
    CHECK(s.done == 4);
    CHECK(s.replays == 1);
    CHECK(s.contended == 0);
    CHECK(bot_named(s, "a").games == 4);
    CHECK(bot_named(s, "a").wins == 2);
    CHECK(s.pairs->pairs == 2);
    CHECK_THAT(standings_table(s), Catch::Contains("1 replayed"));

    // A replay not yet done: the first play counts still.
    rows.back().result.reset();
    rows.back().state = State::pending;
    rows[0].replayed_by.reset();
    s = standings(spec, rows, std::nullopt);
    CHECK(s.replays == 0);
    CHECK(bot_named(s, "a").wins == 3);
    CHECK(s.contended == 1);
}
