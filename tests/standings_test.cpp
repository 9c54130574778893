// A tournament's standings from its database rows: counts, kinds of disqualification, head to
// head and the pairs of a deal, on games whose results are known.
#include <catch2/catch.hpp>

#include "tournament/standings.hpp"

using namespace bg::tournament;

namespace {

// A player out: why, as a code and in words.
struct Out {
    bg::OutCode code = bg::OutCode::other;
    std::string reason;
};

// A done game: seats hold these bots, with these standings (0 disqualified, `out` says why).
FixtureRecord done(int id, int deal, int rotation, std::vector<int> bots,
                   std::vector<int> standings, bg::End end = bg::End::bananas, Out out = {}) {
    FixtureRecord row;
    row.id = id;
    row.game.deal = deal;
    row.game.rotation = rotation;
    row.game.seats = std::move(bots);
    row.state = State::done;
    PlayedGame played;
    bg::GameResult& result = played.result;
    result.end = end;
    for (std::size_t s = 0; s < standings.size(); ++s) {
        bg::PlayerResult seat;
        seat.rank = standings[s];
        seat.outcome = standings[s] == 0   ? bg::Outcome::disqualified
                       : standings[s] == 1 ? bg::Outcome::won
                                           : bg::Outcome::lost;
        if (standings[s] == 1 && end != bg::End::game_timeout)
            result.winner = static_cast<bg::PlayerId>(s);
        if (standings[s] == 0) {
            seat.out_code = out.code;
            seat.reason = out.reason;
        }
        seat.counts = bg::PeelCounts{1, 2, 10};
        result.players.push_back(seat);
    }
    row.played = std::move(played);
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
        done(2, 0, 1, {1, 2, 0}, {2, 0, 1}, bg::End::bananas,
             {bg::OutCode::protocol_error, "protocol error: sent r (ready) twice"}),
        done(3, 0, 2, {2, 0, 1}, {2, 2, 1}, bg::End::game_timeout),
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
    CHECK(c.disqualifications.at(bg::OutCode::protocol_error) == 1);
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
        done(5, 2, 0, {0, 1}, {2, 2}, bg::End::game_timeout),
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

TEST_CASE("standings: disqualifications are counted by their codes, whatever their sentences say",
          "[standings][out_code]") {
    const TournamentSpec spec = spec_of(2, 2);
    const auto table = [&](const std::string& first, const std::string& second) {
        std::vector<FixtureRecord> rows = {
            done(1, 0, 0, {0, 1}, {1, 0}, bg::End::last_player_standing,
                 {bg::OutCode::killed, first}),
            done(2, 0, 1, {1, 0}, {0, 1}, bg::End::last_player_standing,
                 {bg::OutCode::illegal_peel, second}),
        };
        const Standings s = standings(spec, rows, std::nullopt);
        return std::pair(standings_table(s), standings_json(s));
    };
    // As the referee words them today, and reworded: every figure holds.
    const auto [said, said_json] =
        table("was killed by signal 9 (Killed)", "illegal peel: XQ is not a word");
    const auto [reworded, reworded_json] =
        table("its process died of SIGKILL", "protocol error: a grid that is not a play");
    CHECK(said == reworded);
    CHECK(said_json == reworded_json);
    CHECK_THAT(said, Catch::Contains("b disqualified 1 time: killed"));
    CHECK_THAT(said, Catch::Contains("b disqualified 1 time: illegal peel"));
    for (const auto& bot : said_json["bots"])
        if (bot["name"] == "b") {
            CHECK(bot["out_codes"] == nlohmann::json({{"killed", 1}, {"illegal_peel", 1}}));
            CHECK(bot["disqualifications"] == nlohmann::json({{"killed", 1}, {"illegal peel", 1}}));
        }
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
    rows[0].played->result.contended = true;
    rows[0].played->result.players[0].cpu_wait_ms = 40;
    rows[0].played->result.players[1].cpu_wait_ms = 2;
    rows[1].played->result.contended = false;
    rows[1].played->result.players[0].cpu_wait_ms = 4;

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
    replay.played->result.contended = false;
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
    rows.back().played.reset();
    rows.back().state = State::pending;
    rows[0].replayed_by.reset();
    s = standings(spec, rows, std::nullopt);
    CHECK(s.replays == 0);
    CHECK(bot_named(s, "a").wins == 3);
    CHECK(s.contended == 1);
}
