// Seasons (arena/core/season.hpp) and their finals (arena/core/finals.hpp), pure: a season's
// board rates only its own matches and leaves the ladder's alone; tiers cut by their published
// percentiles; the finals' rules refuse what cannot be played. And the finals against simulated
// truth: finalists of known strengths (and copies of one) in, how often the finals order them
// rightly, call copies even, and stop within their deals out; every prefix of the matches
// played gives the same finals, so that an arena killed mid-finals goes on where it was. And the
// store's seasons, on SQLite and PostgreSQL: added, refused, closed, frozen and finished once, and
// their finals matches read back as the fold reads them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "arena/core/finals.hpp"
#include "arena/core/season.hpp"
#include "arena/season_docs.hpp"
#include "arena/seasons.hpp"
#include "arena/store.hpp"
#include "tests/support/scratch_arena.hpp"

using namespace bg;
using namespace bg::arena;

namespace {

Bot account(int id, const std::string& name, bool person = false) {
    Bot bot;
    bot.id = id;
    bot.name = name;
    bot.owner = name;
    bot.command = person ? std::nullopt : std::optional<std::string>("run " + name);
    bot.person = person;
    return bot;
}

Entry version(int id, int bot, const std::string& created) {
    Entry e;
    e.id = id;
    e.bot = bot;
    e.label = "v" + std::to_string(id);
    e.created = created;
    return e;
}

// A rated match as the archive holds it: its entrants' ranks (their ratings are the ladder's,
// which a season does not read).
Match rated(int id, const std::string& finished, const std::vector<std::pair<int, int>>& ranks) {
    Match m;
    m.id = id;
    m.state = "rated";
    m.finished = finished;
    m.rated_order = id;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        m.entrants.push_back({ranks[i].first, static_cast<int>(i), ranks[i].second, {}, {}});
    return m;
}

Season season_of(const std::string& starts, const std::string& closes) {
    Season s;
    s.name = "autumn";
    s.starts = starts;
    s.closes = closes;
    return s;
}

}  // namespace

TEST_CASE("season: its board rates only the matches that finished in it, from the first belief",
          "[season]") {
    const std::vector<Bot> bots{account(1, "a"), account(2, "b"), account(3, "c"),
                                account(4, "pat", true), account(5, "late")};
    std::vector<Entry> entries{
        version(1, 1, "2026-01-01T00:00:00.000Z"), version(2, 2, "2026-01-01T00:00:00.000Z"),
        version(3, 3, "2026-01-01T00:00:00.000Z"), version(4, 4, "2026-01-01T00:00:00.000Z"),
        version(5, 5, "2026-03-01T00:00:00.000Z"),
        // a's second version, made after the close: not the season's
        version(6, 1, "2026-03-01T00:00:00.000Z")};
    for (Entry& e : entries)
        e.belief = {40, 1};  // the ladder's: the season reads none of it
    const stats::WengLin model;
    const std::vector<Match> archive{
        rated(1, "2026-01-15T00:00:00.000Z", {{1, 1}, {2, 2}}),  // before the season
        rated(2, "2026-02-01T00:00:00.000Z", {{1, 1}, {2, 2}}),
        rated(3, "2026-02-02T00:00:00.000Z", {{2, 1}, {1, 2}, {4, 3}}),
        rated(4, "2026-02-03T00:00:00.000Z", {{1, 1}, {4, 2}}),
        rated(5, "2026-02-28T00:00:00.000Z", {{6, 1}, {5, 2}}),  // after the close
    };
    const Season season = season_of("2026-02-01T00:00:00.000Z", "2026-02-28T00:00:00.000Z");
    const SeasonBoard board = season_board(season, archive, bots, entries, model);
    CHECK(board.matches == 3);
    CHECK(board.last_order == 4);
    // c played no match in it: there at the first belief; late came after the close. a's row
    // is the version it had at the close.
    REQUIRE(board.bots.size() == 3);
    CHECK(board.bots[0].row.bot.name == "a");
    CHECK(board.bots[0].row.entry.id == 1);
    CHECK(board.bots[0].matches == 3);
    CHECK(board.bots[1].row.bot.name == "b");
    CHECK(board.bots[1].matches == 2);
    CHECK(board.bots[2].row.bot.name == "c");
    CHECK(board.bots[2].matches == 0);
    CHECK(board.bots[2].row.entry.belief == model.initial());
    // The people apart, on their own board.
    REQUIRE(board.people.size() == 1);
    CHECK(board.people[0].row.bot.name == "pat");
    CHECK(board.people[0].row.rank == 1);
    // Its ratings are the ladder's step over its matches alone, from the first belief.
    const std::vector<Match> own(archive.begin() + 1, archive.begin() + 4);
    const Rerated expected = rerate(own, starts(entries, bots, model), model);
    CHECK(board.bots[0].row.entry.belief == expected.beliefs.at(1));
    CHECK(board.bots[1].row.entry.belief == expected.beliefs.at(2));
    CHECK(board.bots[0].row.entry.belief != stats::Belief{40, 1});
    CHECK(board.bots[0].row.provisional);
    // An anchor is held at its rating, as on the ladder.
    std::vector<Bot> anchored = bots;
    anchored[1].anchor = 30.0;
    const SeasonBoard held = season_board(season, archive, anchored, entries, model);
    const auto b = std::find_if(held.bots.begin(), held.bots.end(),
                                [](const SeasonRow& r) { return r.row.bot.name == "b"; });
    REQUIRE(b != held.bots.end());
    CHECK(b->row.entry.belief == stats::Belief{30, 0});
    // A season with no match in it: everyone there at the first belief.
    const SeasonBoard empty =
        season_board(season_of("2027-01-01T00:00:00.000Z", "2027-02-01T00:00:00.000Z"), archive,
                     bots, entries, model);
    CHECK(empty.bots.size() == 4);
    for (const SeasonRow& r : empty.bots)
        CHECK(r.row.entry.belief == model.initial());
    CHECK(empty.matches == 0);
    CHECK(empty.last_order == 0);
}

TEST_CASE("season: tiers cut the ranked rows by their published percentiles", "[season]") {
    const std::vector<Tier> tiers{{"gold", 10}, {"silver", 30}, {"bronze", 60}, {"entrant", 100}};
    // Ten rows: 1 gold, 2 silver, 3 bronze, 4 entrants.
    std::map<std::string, int> count;
    for (int rank = 1; rank <= 10; ++rank)
        ++count[tier_of(rank, 10, tiers)];
    CHECK(count ==
          std::map<std::string, int>{{"gold", 1}, {"silver", 2}, {"bronze", 3}, {"entrant", 4}});
    // The best is in the first tier however few there are; the last tier takes the rest.
    CHECK(tier_of(1, 1, tiers) == "gold");
    CHECK(tier_of(1, 3, tiers) == "gold");
    CHECK(tier_of(2, 3, tiers) == "bronze");
    CHECK(tier_of(3, 3, tiers) == "entrant");
    std::string why;
    const auto parsed = parse_tiers("top:25,rest:100", why);
    REQUIRE(parsed);
    CHECK(tiers_text(*parsed) == "top:25,rest:100");
    CHECK(*parse_tiers(tiers_text(tiers), why) == tiers);
    for (const char* bad : {"", "gold", "gold:10", "gold:50,silver:40,rest:100", "gold:10,gold:100",
                            "a b:100", "gold:x,rest:100", "rest:100,more:100"}) {
        INFO(bad);
        CHECK_FALSE(parse_tiers(bad, why));
        CHECK_FALSE(why.empty());
    }
}

TEST_CASE("season: its rules refuse finals that cannot be played", "[season]") {
    CHECK(halving_fields(8) == std::vector<int>{8, 4, 2});
    CHECK(halving_fields(6) == std::vector<int>{6, 3, 2});
    CHECK(halving_fields(2) == std::vector<int>{2});
    CHECK(halving_fields(5) == std::vector<int>{5, 2});
    SeasonRules rules;
    CHECK(check_rules(rules).empty());
    const auto refused = [](auto change) {
        SeasonRules r;
        change(r);
        return !check_rules(r).empty();
    };
    CHECK(refused([](SeasonRules& r) { r.finalists = 1; }));
    CHECK(refused([](SeasonRules& r) { r.finalists = 65; }));
    CHECK(refused([](SeasonRules& r) { r.fields = {4, 2}; }));  // not every finalist
    CHECK(refused([](SeasonRules& r) { r.fields = {8, 8}; }));
    CHECK(refused([](SeasonRules& r) { r.fields = {8, 1}; }));
    CHECK(refused([](SeasonRules& r) { r.deals = 0; }));
    CHECK(refused([](SeasonRules& r) { r.sprt.elo1 = 0; }));
    CHECK(refused([](SeasonRules& r) { r.sprt.alpha = 0.5; }));
    CHECK(refused([](SeasonRules& r) { r.tiers = {}; }));
}

namespace {

// Finals of finalists of known strengths (Elo, by entry), every game won by the stronger with
// the logistic model's chance; until over, or `limit` matches.
struct Simulated {
    std::vector<FinalsGame> played;
    FinalsState state;
    int rounds_seen = 0;
};
Simulated simulate(const SeasonRules& rules, const std::vector<int>& finalists,
                   const std::map<int, double>& elo, std::mt19937_64& random,
                   std::size_t limit = 1'000'000) {
    Simulated s;
    std::uniform_real_distribution<double> uniform(0, 1);
    while (true) {
        s.state = finals_state(rules, finalists, s.played);
        if (s.state.over) {
            // Each round judged by the games by its end: the rounds it says its last stage
            // played are the rounds played.
            std::set<int> rounds;
            for (const FinalsGame& g : s.played)
                if (g.stage == s.state.stage)
                    rounds.insert(g.round);
            CHECK(static_cast<int>(rounds.size()) == s.state.round);
        }
        if (s.state.over || s.played.size() >= limit)
            return s;
        ++s.rounds_seen;
        for (const FinalsPair& p : s.state.wanted) {
            // Without strengths, the first seat wins both games: a pair's head-to-head pairs
            // alternate 0 and 1 as its first seat does, which no test can settle.
            const double win =
                elo.empty() ? 1 : stats::score_of_elo(elo.at(p.first) - elo.at(p.second));
            FinalsGame g{p.stage, p.round, p.first, p.second, {}};
            for (int& points : g.first_points)
                points = uniform(random) < win ? 2 : 0;
            s.played.push_back(g);
        }
    }
}

// Finals rules: every finalist first, these stages, deals and test.
SeasonRules finals_rules(const std::vector<int>& fields, int deals, double elo1) {
    SeasonRules rules;
    rules.finalists = fields.front();
    rules.fields = fields;
    rules.deals = deals;
    rules.sprt = {0, elo1, 0.05, 0.05};
    return rules;
}

}  // namespace

TEST_CASE("season: finals of known strengths put them in order and call copies even",
          "[season][finals]") {
    const SeasonRules rules = finals_rules({4, 2}, 60, 200);
    // Entries 1 to 4, strongest first, 3 and 4 copies of one bot; the board had them in the
    // wrong order at the close.
    const std::map<int, double> elo{{1, 600}, {2, 300}, {3, 0}, {4, 0}};
    const std::vector<int> finalists{4, 3, 2, 1};
    std::mt19937_64 random(20261129);
    const int runs = 200;
    int ordered = 0, even = 0, apart_wrongly = 0;
    for (int run = 0; run < runs; ++run) {
        const Simulated s = simulate(rules, finalists, elo, random);
        REQUIRE(s.state.over);
        REQUIRE(s.state.places.size() == 4);
        // Never more rounds than its stages allow.
        CHECK(s.rounds_seen <= rules.deals * 2);
        std::vector<int> order;
        for (const FinalsPlace& p : s.state.places)
            order.push_back(p.entry);
        ordered += order[0] == 1 && order[1] == 2;
        const FinalsPlace& third = s.state.places[2];
        even += third.verdict == FinalsPlace::Verdict::even;
        apart_wrongly += third.verdict == FinalsPlace::Verdict::ahead;
        CHECK(s.state.places[0].verdict == FinalsPlace::Verdict::ahead);
        CHECK(s.state.places[3].verdict == FinalsPlace::Verdict::last);
    }
    // The levels are 300 Elo apart: ordered nearly always. The copies: called even mostly, and
    // told apart no oftener than the test's error rates allow (alpha, each way).
    CHECK(ordered >= runs * 95 / 100);
    CHECK(even >= runs * 80 / 100);
    CHECK(apart_wrongly <= runs * 2 * 5 / 100 + 5);
}

TEST_CASE("season: finals narrow to the top when the bottom cannot be settled, within their deals",
          "[season][finals]") {
    const SeasonRules rules = finals_rules({6, 3, 2}, 8, 20);  // too fine for 8 deals
    const std::vector<int> finalists{1, 2, 3, 4, 5, 6};
    std::mt19937_64 random(7);
    const Simulated s = simulate(rules, finalists, {}, random);
    REQUIRE(s.state.over);
    // Every stage played all its deals: 15 pairs, then 3, then 1.
    CHECK(s.played.size() == 8 * 15 + 8 * 3 + 8 * 1);
    CHECK(s.state.stage == 2);
    CHECK(s.state.places.size() == 6);
    CHECK(s.state.places[0].stage == 2);
    CHECK(s.state.places[2].stage == 1);
    CHECK(s.state.places[5].stage == 0);
    // Every share even: the board's order stands. The last two played the last stage; their
    // games count against its field alone (each other, two games a deal of each stage).
    for (std::size_t i = 0; i < 6; ++i)
        CHECK(s.state.places[i].entry == static_cast<int>(i) + 1);
    CHECK(s.state.places[0].games == 2 * (8 + 8 + 8));
    CHECK(s.state.places[0].verdict == FinalsPlace::Verdict::unsettled);
    // Each round's deal is the same for every pair of it, and differs from every other round's.
    std::map<std::pair<int, int>, std::uint64_t> deals;
    for (const FinalsGame& g : s.played)
        deals.emplace(std::pair{g.stage, g.round}, finals_deal(rules.seed, g.stage, g.round));
    std::set<std::uint64_t> distinct;
    for (const auto& [round, deal] : deals)
        distinct.insert(deal);
    CHECK(distinct.size() == deals.size());
}

TEST_CASE(
    "season: the finals resume from any prefix of their matches, and a pair played twice "
    "in a round counts once",
    "[season][finals]") {
    const SeasonRules rules = finals_rules({4, 2}, 6, 150);
    const std::map<int, double> elo{{1, 200}, {2, 100}, {3, 0}, {4, -100}};
    const std::vector<int> finalists{1, 2, 3, 4};
    std::mt19937_64 random(11);
    const Simulated s = simulate(rules, finalists, elo, random);
    REQUIRE(s.state.over);
    // Every prefix: what is still wanted is exactly what the whole went on to play next, in the
    // same round's pairs and deal.
    for (std::size_t n = 0; n < s.played.size(); ++n) {
        const std::vector<FinalsGame> prefix(s.played.begin(),
                                             s.played.begin() + static_cast<long>(n));
        const FinalsState at = finals_state(rules, finalists, prefix);
        REQUIRE_FALSE(at.over);
        const FinalsGame& next = s.played[n];
        const bool wanted =
            std::any_of(at.wanted.begin(), at.wanted.end(), [&](const FinalsPair& p) {
                return p.stage == next.stage && p.round == next.round && p.first == next.first &&
                       p.second == next.second &&
                       p.seed == finals_deal(rules.seed, next.stage, next.round);
            });
        CHECK(wanted);
    }
    // A match of a pair played again in one round (a void's replay that was rated after all)
    // changes nothing.
    std::vector<FinalsGame> twice = s.played;
    FinalsGame again = twice.front();
    again.first_points = {2 - again.first_points[0], 2 - again.first_points[1]};
    twice.insert(twice.begin() + 1, again);
    const FinalsState same = finals_state(rules, finalists, twice);
    REQUIRE(same.places.size() == s.state.places.size());
    CHECK((same.over && same.stage == s.state.stage && same.round == s.state.round));
    for (std::size_t i = 0; i < same.places.size(); ++i) {
        const FinalsPlace &a = same.places[i], &b = s.state.places[i];
        CHECK((a.entry == b.entry && a.share == b.share && a.games == b.games &&
               a.pairs == b.pairs && a.llr == b.llr && a.verdict == b.verdict));
    }
    // Two finalists: one stage of one pair; one: nothing to play.
    CHECK(finals_state(rules, {1, 2}, {}).wanted.size() == 1);
    CHECK(finals_state(rules, {1}, {}).over);
    // Fewer finalists than the first stage: the stages narrower than them are played.
    CHECK(stage_fields(finals_rules({8, 4, 2}, 3, 100), 3) == std::vector<int>{3, 2});
    CHECK(stage_fields(finals_rules({8, 4, 2}, 3, 100), 4) == std::vector<int>{4, 2});
    CHECK(stage_fields(finals_rules({8, 4, 2}, 3, 100), 8) == std::vector<int>{8, 4, 2});
}

TEST_CASE("season: a time is a UTC time or one from now, and nothing else", "[season]") {
    const std::string now = "2026-11-29T21:00:00.000Z";
    CHECK(season_time("2026-12-24T18:00:00Z", now) == "2026-12-24T18:00:00.000Z");
    CHECK(season_time("2026-12-24T18:00Z", now) == "2026-12-24T18:00:00.000Z");
    CHECK(season_time("2026-12-24 18:00", now) == "2026-12-24T18:00:00.000Z");
    CHECK(season_time("2026-12-24", now) == "2026-12-24T00:00:00.000Z");
    CHECK(season_time("+90s", now) == "2026-11-29T21:01:30.000Z");
    CHECK(season_time("+2h", now) == "2026-11-29T23:00:00.000Z");
    CHECK(season_time("+7d", now) == "2026-12-06T21:00:00.000Z");
    for (const char* bad : {"", "tomorrow", "+", "+5", "+5w", "+-5h", "+0m", "2026-02-31",
                            "2026-13-01", "2026-12-24T24:00Z", "2026-12-24T-1:00Z",
                            "2026-12-24T18:00+01:00", "2026-12-24Z", "2026-12-24T18"}) {
        INFO(bad);
        CHECK_FALSE(season_time(bad, now));
    }
}

TEST_CASE(
    "season: a season whose board has fewer than two bots the arena runs is over at its "
    "close, and its documents read",
    "[arena][store]") {
    test::ScratchArena arena("lone");
    Store& store = *arena.store;
    store.add_bot("house", "", std::string("run house"), std::nullopt);
    store.add_bot("remote", "", std::nullopt, std::nullopt);
    store.entry(*store.bot("house"), "run house");
    const Entry remote = store.entry(*store.bot("remote"), "v1");
    store.record_check(remote.id, true, "");
    const Season season = store.seasons().add("lone", "", "2999-01-01T00:00:00.000Z", {});
    CHECK(close_season(store, season).find("too few") != std::string::npos);
    CHECK(store.seasons().find("lone")->state == "over");
    const auto doc = season_json(store, "lone");
    REQUIRE(doc);
    CHECK(doc->at("board").at("bots").size() == 2);
    REQUIRE(doc->at("finals").at("places").size() == 1);
    CHECK(doc->at("finals").at("places")[0].at("name") == "house");
    CHECK(doc->at("finals").at("over") == true);
    const auto places = seasons_of(
        store, "remote", [&](const std::string& name) { return season_json(store, name); });
    REQUIRE(places.size() == 1);
    CHECK(places[0].at("finalist") == false);
    CHECK(places[0].at("finals_place").is_null());
}

TEST_CASE("season: a finals match's games are read from its first entrant's side", "[season]") {
    const auto game = [](int rotation, int rank0, int rank1) {
        StoredGame g;
        g.rotation = rotation;
        g.result.players.resize(2);
        g.result.players[0].rank = rank0;
        g.result.players[1].rank = rank1;
        return g;
    };
    // Rotation 0: the first sits in seat 0 and wins; rotation 1: it sits in seat 1 and loses.
    CHECK(finals_game(0, 0, 7, 8, {game(0, 1, 2), game(1, 1, 2)}).first_points ==
          std::array<int, 2>{2, 0});
    // Out of a game (rank 0) is last; a shared place is no winner.
    CHECK(finals_game(0, 0, 7, 8, {game(0, 0, 1), game(1, 1, 1)}).first_points ==
          std::array<int, 2>{0, 1});
}

TEST_CASE("season: the store keeps a season, freezes it once, and reads its finals back in order",
          "[arena][store]") {
    test::ScratchArena arena("seasons");
    Store& store = *arena.store;
    Seasons& seasons = store.seasons();
    SeasonRules rules = finals_rules({2}, 5, 100);
    rules.seed = 18'446'744'073'709'551'615ULL;  // every bit of it kept
    const Season added = seasons.add("autumn", "", "2999-01-01T00:00:00.000Z", rules);
    CHECK(added.state == "open");
    CHECK(added.starts <= seasons.now());
    CHECK(seasons.find("autumn")->rules == rules);
    CHECK_FALSE(seasons.find("winter"));
    // Refused: a name taken or not a name, a close before the start, rules that cannot be played.
    CHECK_THROWS_AS(seasons.add("autumn", "", "2999-01-01T00:00:00.000Z", rules),
                    std::invalid_argument);
    CHECK_THROWS_AS(seasons.add("..", "", "2999-01-01T00:00:00.000Z", rules),
                    std::invalid_argument);
    CHECK_THROWS_AS(seasons.add("w", "2030-01-01T00:00:00.000Z", "2029-01-01T00:00:00.000Z", rules),
                    std::invalid_argument);
    SeasonRules bad = rules;
    bad.deals = 0;
    CHECK_THROWS_AS(seasons.add("w", "", "2999-01-01T00:00:00.000Z", bad), std::invalid_argument);
    CHECK(seasons.all().size() == 1);
    // Two finalists' matches: one rated, one void, one running; the rated read back.
    store.add_bot("a", "", std::string("run a"), std::nullopt);
    store.add_bot("b", "", std::string("run b"), std::nullopt);
    const Entry a = store.entry(*store.bot("a"), "run a");
    const Entry b = store.entry(*store.bot("b"), "run b");
    CHECK_FALSE(seasons.frozen(added.id));
    seasons.close(added.id, {{"bots", nlohmann::json::array()}}, {a.id, b.id});
    CHECK_THROWS_AS(seasons.close(added.id, {}, {}), std::logic_error);
    CHECK(seasons.find("autumn")->state == "finals");
    CHECK(seasons.frozen(added.id)->finalists == std::vector<int>{a.id, b.id});
    CHECK(seasons.frozen(added.id)->standings.is_null());
    const auto play = [&](int stage, int round) {
        const Store::Begun begun = store.begin_finals_match(
            {added.id, stage, round, finals_deal(rules.seed, stage, round)});
        CHECK(store.match(begun.id)->seed == finals_deal(rules.seed, stage, round));
        return begun.id;
    };
    const auto rate = [&](int match, const Entry& first, const Entry& second) {
        GameResult first_won, second_won;
        first_won.players.resize(2);
        first_won.players[0].rank = 1;
        first_won.players[1].rank = 2;
        second_won = first_won;
        // Rotation 0: seat 0 (the first) wins; rotation 1: seat 0 (the second) wins.
        store.rate_match(match,
                         {{first.id, 0, 1, first.belief, first.belief},
                          {second.id, 1, 1, second.belief, second.belief}},
                         {{0, "", first_won}, {1, "", second_won}});
    };
    const int voided = play(0, 0);
    store.void_match(voided, "its front node was cut off");
    const int first = play(0, 0);
    rate(first, b, a);
    const int running = play(0, 1);
    const auto read = seasons.finals_rated(added.id);
    REQUIRE(read.size() == 1);
    CHECK(read[0].second == FinalsGame{0, 0, b.id, a.id, {2, 0}});
    CHECK(seasons.finals_rated(added.id, read[0].first).empty());
    const auto all = seasons.finals_matches(added.id);
    REQUIRE(all.size() == 3);
    CHECK(all[0].state == "void");
    CHECK(all[1].state == "rated");
    CHECK(all[2].match == running);
    CHECK(all[2].round == 1);
    // Its finals over: their standings kept, once.
    seasons.finish(added.id, {{"places", nlohmann::json::array()}});
    CHECK_THROWS_AS(seasons.finish(added.id, {}), std::logic_error);
    CHECK(seasons.find("autumn")->state == "over");
    CHECK(seasons.frozen(added.id)->standings.contains("places"));
    CHECK_FALSE(seasons.frozen(added.id)->ended.empty());
}
