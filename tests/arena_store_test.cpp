// The arena's database and ladder (arena/store.hpp, arena/ladder.hpp): tokens kept only as
// hashes, a match rated once with its games or void, ratings recomputed from the archive to the
// same bits (and a stored rating changed behind its back found), one result from a match's
// rotations, the leaderboard's order, the conformance check's record, people's accounts on a
// leaderboard of their own, and schemas 1, 2 and 3 brought to 4.
#include <catch2/catch.hpp>

#include <SQLiteCpp/SQLiteCpp.h>

#include "arena/core/ladder.hpp"
#include "arena/store.hpp"
#include "tests/support/scratch_arena.hpp"

using namespace bg;
using namespace bg::arena;
using bg::test::ScratchArena;

namespace {

GameResult won_by(int seat, int players) {
    GameResult result;
    result.end = End::bananas;
    result.winner = static_cast<PlayerId>(seat);
    for (int s = 0; s < players; ++s) {
        PlayerResult p;
        p.rank = s == seat ? 1 : 2;
        p.outcome = s == seat ? Outcome::won : Outcome::lost;
        result.players.push_back(p);
    }
    return result;
}

}  // namespace

TEST_CASE("arena: a bot's token is kept only as its hash, and lets in only while it is active",
          "[arena][store]") {
    ScratchArena arena("tokens");
    Store& store = *arena.store;
    const std::string token = store.add_bot("alpha", "ann", std::nullopt, std::nullopt);
    CHECK(token.size() == 32);
    CHECK(arena.bytes().find(token) == std::string::npos);
    CHECK(arena.bytes().find(token_hash(token)) != std::string::npos);
    REQUIRE(store.bot_by_token(token));
    CHECK(store.bot_by_token(token)->name == "alpha");
    CHECK(!store.bot_by_token(token + "x"));
    CHECK(!store.bot_by_token(""));
    const int id = store.bot("alpha")->id;
    store.set_state(id, "disabled");
    CHECK(!store.bot_by_token(token));
    store.set_state(id, "active");
    const std::string rotated = store.rotate_token(id);
    CHECK(!store.bot_by_token(token));
    CHECK(store.bot_by_token(rotated));
    // Names are checked, never taken twice; one anchor, a house bot's.
    CHECK_THROWS_AS(store.add_bot("alpha", "", std::nullopt, std::nullopt), std::invalid_argument);
    CHECK_THROWS_AS(store.add_bot("a b", "", std::nullopt, std::nullopt), std::invalid_argument);
    // A name is a page's path too: "." and ".." (and any without a letter or digit) are none.
    for (const char* pathlike : {".", "..", "...", "_", "-.-"}) {
        CHECK_THROWS_AS(store.add_bot(pathlike, "", std::nullopt, std::nullopt),
                        std::invalid_argument);
        CHECK_THROWS_AS(store.add_person(pathlike), std::invalid_argument);
        CHECK(!valid_name(pathlike));
    }
    CHECK(valid_name("a.b-c_1"));
    CHECK(valid_name(".x"));
    CHECK_THROWS_AS(store.add_bot("x", "", std::nullopt, 25.0), std::invalid_argument);
    store.add_bot("house", "", std::string("true"), 25.0);
    CHECK_THROWS_AS(store.add_bot("house2", "", std::string("true"), 30.0), std::invalid_argument);
    CHECK(store.bot("alpha")->owner == "ann");
    CHECK(store.bot("house")->owner == "house");
    // An entry a version; the anchor's held at its rating.
    const Entry first = store.entry(*store.bot("alpha"), "");
    CHECK(first.belief == store.model().initial());
    CHECK(store.entry(*store.bot("alpha"), "v2").id != first.id);
    CHECK(store.entry(*store.bot("alpha"), "").id == first.id);
    CHECK(store.entry(*store.bot("house"), "true").belief == stats::Belief{25.0, 0});
}

TEST_CASE("arena: a match is rated once with its games or void, and rerate finds the stored bits",
          "[arena][store]") {
    ScratchArena arena("matches");
    Store& store = *arena.store;
    store.add_bot("a", "", std::nullopt, std::nullopt);
    store.add_bot("b", "", std::nullopt, std::nullopt);
    store.add_bot("h", "", std::string("true"), 25.0);
    const Entry a = store.entry(*store.bot("a"), "");
    const Entry b = store.entry(*store.bot("b"), "");
    const Entry h = store.entry(*store.bot("h"), "true");
    const auto play = [&](const std::vector<Entry>& who, const std::vector<int>& ranks) {
        const int id = store.begin_match(42).id;
        std::vector<stats::Entrant> in;
        for (std::size_t i = 0; i < who.size(); ++i) {
            Entry now;
            for (const Entry& e : store.entries())
                if (e.id == who[i].id)
                    now = e;
            in.push_back({now.belief, ranks[i], who[i].id == h.id});
        }
        const auto after = stats::rate(in, store.model());
        std::vector<Rated> rated;
        std::vector<StoredGame> games;
        for (std::size_t i = 0; i < who.size(); ++i) {
            rated.push_back({who[i].id, static_cast<int>(i), ranks[i], in[i].belief, after[i]});
            games.push_back({static_cast<int>(i), "", won_by(0, static_cast<int>(who.size()))});
        }
        store.rate_match(id, rated, games);
        return id;
    };
    const int first = play({a, b, h}, {1, 2, 2});
    play({b, h}, {1, 2});
    play({a, h}, {2, 1});
    // The groups the matchmaker avoids: the last ones rated, their entries by seat.
    CHECK(store.recent_groups(2) == std::vector<RecentMatch>{{b.id, h.id}, {a.id, h.id}});
    CHECK(store.recent_groups(10).size() == 3);
    // Rated once: a second time is refused, and nothing of it is kept.
    CHECK_THROWS(store.rate_match(first, {}, {}));
    CHECK(store.games_of(first).size() == 3);
    CHECK(store.games_of(first)[0].result == won_by(0, 3));
    // Left running by an arena that stopped: void, never rated.
    const int cut = store.begin_match(7).id;
    CHECK(store.void_running("stopped") == 1);
    CHECK(store.match(cut)->state == "void");
    CHECK(store.match(cut)->why == "stopped");
    CHECK_THROWS(store.rate_match(cut, {}, {}));
    // The anchor is held; the others moved; rerate arrives at exactly the stored ratings.
    for (const Entry& e : store.entries()) {
        if (e.id == h.id)
            CHECK(e.belief == stats::Belief{25.0, 0});
        else
            CHECK(e.belief != store.model().initial());
    }
    CHECK(store.entries()[0].matches == 2);
    const auto from = starts(store.entries(), store.bots(true), store.model());
    const Rerated again = rerate(store.rated_in_order(), from, store.model());
    CHECK(again.matches == 3);
    CHECK(again.differing.empty());
    for (const Entry& e : store.entries())
        CHECK(again.beliefs.at(e.id) == e.belief);
    // A stored rating changed behind the archive's back is found.
    arena.exec("UPDATE match_entries SET mu_after = mu_after + 1e-9 WHERE match_id = 2");
    CHECK(rerate(store.rated_in_order(), from, store.model()).differing == std::vector<int>{2});
}

TEST_CASE(
    "arena: a match's rotations come to one result, and the leaderboard ranks by mu - 3 sigma",
    "[arena][ladder]") {
    // Places summed over the rotations (out of a game: last): fewest first, equal sums tied.
    CHECK(match_ranks({{1, 2, 2}, {2, 1, 2}, {1, 2, 2}}) == std::vector<int>{1, 2, 3});
    CHECK(match_ranks({{1, 2}, {2, 1}}) == std::vector<int>{1, 1});
    CHECK(match_ranks({{1, 0}, {0, 1}, {1, 2}}) == std::vector<int>{1, 2});
    std::vector<Bot> bots(3);
    std::vector<Entry> entries(3);
    for (int i = 0; i < 3; ++i) {
        bots[static_cast<std::size_t>(i)].id = i + 1;
        bots[static_cast<std::size_t>(i)].name = std::string(1, static_cast<char>('a' + i));
        Entry& e = entries[static_cast<std::size_t>(i)];
        e.id = e.bot = i + 1;
        e.belief = {25.0 + i, 8.0 - 3 * i};
        e.matches = 4 * i;
        e.checked = "2026-11-27T10:00:00.000Z";
    }
    const stats::WengLin model;
    const auto rows = leaderboard(bots, entries, {}, model);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].bot.name == "c");  // 27 - 3 * 2
    CHECK(rows[2].bot.name == "a");  // 25 - 3 * 8
    CHECK(rows[0].provisional);      // 8 matches
    // A remote bot's new version that has not passed its check stays off the board: its last
    // checked one is shown.
    Entry unchecked = entries[2];
    unchecked.id = 4;
    unchecked.label = "v2";
    unchecked.checked.clear();
    entries.push_back(unchecked);
    CHECK(leaderboard(bots, entries, {}, model)[0].entry.id == 3);
    entries.back().checked = "2026-11-27T11:00:00.000Z";
    CHECK(leaderboard(bots, entries, {}, model)[0].entry.id == 4);
    bots[2].state = "removed";
    CHECK(leaderboard(bots, entries, {}, model).size() == 2);
}

TEST_CASE("arena: the anchor, sure by choice, ranks below a bot the evidence puts above it",
          "[arena][ladder]") {
    // The board: the anchor at 25 +- 0 and a bot at 41.6 +- 6.6 (conservative 21.8)
    // that beat it in 13 of 14 matches. Ranked by its own deviation (nought) the anchor would be
    // first; it is ranked with a new bot's (25/3), as 25 - 25 = 0.
    const stats::WengLin model;
    std::vector<Bot> bots(3);
    std::vector<Entry> entries(3);
    const stats::Belief beliefs[] = {{25.0, 0.0}, {41.6, 6.6}, {20.0, 6.0}};
    for (int i = 0; i < 3; ++i) {
        bots[static_cast<std::size_t>(i)].id = i + 1;
        bots[static_cast<std::size_t>(i)].name = std::string(1, static_cast<char>('a' + i));
        bots[static_cast<std::size_t>(i)].command = "./bot";
        Entry& e = entries[static_cast<std::size_t>(i)];
        e.id = e.bot = i + 1;
        e.belief = beliefs[i];
        e.matches = 14;
    }
    bots[0].anchor = 25.0;
    const auto rows = leaderboard(bots, entries, {}, model);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].bot.name == "b");
    CHECK(rows[1].bot.name == "c");  // 20 - 18 = 2, above the anchor's 0
    CHECK(rows[2].bot.name == "a");
    CHECK(rows[2].conservative == Approx(25.0 - 25.0));
    CHECK(rows[2].entry.belief.sigma == 0.0);  // its rating as it is
    CHECK_FALSE(rows[2].provisional);
}

TEST_CASE(
    "arena: a version is let play once it passes its check, and a paused bot once it passes "
    "again",
    "[arena][store]") {
    ScratchArena arena("checks");
    Store& store = *arena.store;
    store.add_bot("alpha", "", std::nullopt, std::nullopt);
    const auto entries = [&] { return store.entries_of(store.bot("alpha")->id); };
    CHECK(why_not_queued(*store.bot("alpha"), entries()).empty());  // checked as it connects
    const Entry v1 = store.entry(*store.bot("alpha"), "v1");
    CHECK(v1.checked.empty());
    CHECK(why_not_queued(*store.bot("alpha"), entries()) ==
          "its version v1 has not passed the conformance check yet");
    store.record_check(v1.id, false, "starts, and says it is ready");
    CHECK(why_not_queued(*store.bot("alpha"), entries()) ==
          "its version v1 failed the conformance check: starts, and says it is ready");
    store.record_check(v1.id, true, "");
    CHECK(!entries()[0].checked.empty());
    CHECK(entries()[0].check_failed.empty());
    CHECK(why_not_queued(*store.bot("alpha"), entries()).empty());
    // Paused, it is not queued whatever its checks; a passed check lifts the pause.
    store.set_paused(v1.bot, "out of 3 matches in a row for its own fault");
    CHECK(why_not_queued(*store.bot("alpha"), entries()) ==
          "paused: out of 3 matches in a row for its own fault");
    store.record_check(v1.id, false, "answers the deal");
    CHECK(!store.bot("alpha")->paused.empty());
    store.record_check(v1.id, true, "");
    CHECK(store.bot("alpha")->paused.empty());
    // A house bot is the organiser's: never checked over a connection.
    store.add_bot("house", "", std::string("true"), std::nullopt);
    store.entry(*store.bot("house"), "true");
    CHECK(why_not_queued(*store.bot("house"), store.entries_of(store.bot("house")->id)).empty());
}

TEST_CASE("arena: people have accounts of their own, apart from bots, and a board of their own",
          "[arena][store]") {
    ScratchArena arena("people");
    Store& store = *arena.store;
    store.add_bot("house", "", std::string("true"), std::nullopt);
    const std::string code = store.add_person("alice");
    CHECK(code.size() == 32);
    const auto alice = store.bot_by_token(code);
    REQUIRE(alice);
    CHECK((alice->person && alice->name == "alice" && alice->owner == "alice" && !alice->command));
    // One name space: a person cannot take a bot's name, nor a bot a person's.
    CHECK_THROWS_WITH(store.add_person("house"), "there is a bot named house already");
    CHECK_THROWS_WITH(store.add_bot("alice", "", std::nullopt, std::nullopt),
                      "there is a person named alice already");
    // One who signs up chooses the code; a code is a token's shape.
    CHECK(store.add_person("bob", "bob-chose-this-code-0123") == "bob-chose-this-code-0123");
    CHECK(store.bot_by_token("bob-chose-this-code-0123")->name == "bob");
    CHECK_THROWS(store.add_person("carol", "short"));
    // Never checked: a person is queued as it comes.
    store.entry(*alice, "");
    CHECK(why_not_queued(*alice, store.entries_of(alice->id)).empty());
    // Each board holds its own.
    store.entry(*store.bot("house"), "true");
    store.entry(*store.bot("bob"), "");
    const auto entries = store.entries();
    std::vector<std::string> bots, people;
    for (const Row& row : leaderboard(store.bots(), entries, {}, store.model()))
        bots.push_back(row.bot.name);
    for (const Row& row : leaderboard(store.bots(), entries, {}, store.model(), Board::people))
        people.push_back(row.bot.name);
    CHECK(bots == std::vector<std::string>{"house"});
    CHECK(people == std::vector<std::string>{"alice", "bob"});  // equal ratings: by name
    CHECK(std::string(kind(*alice)) == "person");
}

TEST_CASE(
    "arena: a database of schema 1 to 10 is brought to 11 as it is opened, its played entries "
    "counted checked, its accounts bots', no pause's time, no game's counts, no bot's "
    "description and no hosted version known",
    "[arena][store][sqlite]") {
    ScratchArena arena("schema1");
    arena.store->add_bot("alpha", "", std::nullopt, std::nullopt);
    const Bot alpha = *arena.store->bot("alpha");
    arena.store->entry(alpha, "played");
    arena.store->entry(alpha, "new");
    arena.store.reset();
    {
        // As 1.7.0's first arena left it: no check columns.
        SQLite::Database db(arena.path, SQLite::OPEN_READWRITE);
        db.exec("UPDATE entries SET matches = 3 WHERE label = 'played'");
        db.exec("ALTER TABLE entries DROP COLUMN checked");
        db.exec("ALTER TABLE entries DROP COLUMN check_failed");
        db.exec("ALTER TABLE bots DROP COLUMN person");
        db.exec("ALTER TABLE bots DROP COLUMN paused_at");
        db.exec("ALTER TABLE games DROP COLUMN counts");
        db.exec("ALTER TABLE bots DROP COLUMN about");
        db.exec("DROP TABLE hosted");
        db.exec("ALTER TABLE games DROP COLUMN log_gz");
        for (const char* table :
             {"game_stderr", "job_logs", "jobs", "workers", "archives", "stream_events",
              "live_state", "fronts", "front_mail", "finals_matches", "seasons"})
            db.exec(std::string("DROP TABLE ") + table);
        db.exec("UPDATE bots SET paused = 'as it was'");
        db.exec("PRAGMA user_version = 1");
    }
    auto opened = Store::open(arena.path, false);
    REQUIRE(std::holds_alternative<std::unique_ptr<Store>>(opened));
    arena.store = std::move(std::get<std::unique_ptr<Store>>(opened));
    const auto entries = arena.store->entries_of(alpha.id);
    REQUIRE(entries.size() == 2);
    CHECK(!entries[0].checked.empty());  // played
    CHECK(entries[1].checked.empty());
    CHECK(!arena.store->bot("alpha")->person);
    CHECK(arena.store->bot("alpha")->paused == "as it was");
    CHECK(arena.store->bot("alpha")->paused_at.empty());  // when: not known
    CHECK(arena.store->bot("alpha")->about.empty());
    {
        SQLite::Database db(arena.path, SQLite::OPEN_READONLY);
        CHECK(db.execAndGet("PRAGMA user_version").getInt() == 11);
    }
    CHECK(arena.store->hosted().empty());
    CHECK(arena.store->jobs().queued().empty());
    CHECK(arena.store->seasons().all().empty());
    // What a bot is: said, kept, and unsaid; never a control character, nor more than 80.
    arena.store->set_about(alpha.id, "level 1: a person's pace");
    CHECK(arena.store->bot("alpha")->about == "level 1: a person's pace");
    CHECK_THROWS_AS(arena.store->set_about(alpha.id, "two\nlines"), std::invalid_argument);
    CHECK_THROWS_AS(arena.store->set_about(alpha.id, std::string(81, 'x')), std::invalid_argument);
    arena.store->set_about(alpha.id, "");
    CHECK(arena.store->bot("alpha")->about.empty());
    // A later schema is refused, not read.
    arena.store.reset();
    {
        SQLite::Database db(arena.path, SQLite::OPEN_READWRITE);
        db.exec("PRAGMA user_version = 12");
    }
    auto later = Store::open(arena.path, false);
    REQUIRE(std::holds_alternative<std::string>(later));
    CHECK(std::get<std::string>(later).find("schema version 12") != std::string::npos);
}

TEST_CASE(
    "arena: a hosted bot's versions are kept with their archive's digest, command and protocol, "
    "each an entry of its own, a label twice refused, its check's report kept and its "
    "submissions of the last day counted",
    "[arena][store]") {
    ScratchArena arena("hosted");
    arena.store->add_bot("alpha", "", std::nullopt, std::nullopt);
    arena.store->add_bot("beta", "", std::nullopt, std::nullopt);
    const Bot alpha = *arena.store->bot("alpha");
    const Bot beta = *arena.store->bot("beta");
    CHECK(arena.store->submitted_in_last_day(alpha.id) == std::pair{0, 0});
    HostedVersion one;
    one.label = "one";
    one.sha256 = std::string(64, 'a');
    one.command = "python3 bot.py";
    one.protocol = "v1";
    const Entry first = arena.store->add_hosted(alpha, one);
    CHECK(first.label == "one");
    CHECK(first.checked.empty());
    HostedVersion two = one;
    two.label = "two";
    two.protocol = "v2";
    const Entry second = arena.store->add_hosted(alpha, two);
    CHECK(second.id != first.id);
    // The same label again: refused, and nothing written.
    CHECK_THROWS_AS(arena.store->add_hosted(alpha, two), std::invalid_argument);
    // Another bot may name its version so.
    arena.store->add_hosted(beta, two);
    const auto kept = arena.store->hosted_of(alpha.id);
    REQUIRE(kept.size() == 2);
    CHECK(kept[0].entry == first.id);
    CHECK(kept[0].sha256 == one.sha256);
    CHECK(kept[0].command == "python3 bot.py");
    CHECK(kept[0].protocol == "v1");
    CHECK(kept[1].protocol == "v2");
    CHECK(kept[0].report.empty());
    CHECK(!kept[0].submitted.empty());
    CHECK(arena.store->hosted().size() == 3);
    arena.store->set_check_report(first.id, "9 of 9 checks passed");
    CHECK(arena.store->hosted_of(alpha.id)[0].report == "9 of 9 checks passed");
    const auto [count, wait_s] = arena.store->submitted_in_last_day(alpha.id);
    CHECK(count == 2);
    CHECK(wait_s > 86'000);
    CHECK(wait_s <= 86'401);
    CHECK(arena.store->submitted_in_last_day(beta.id).first == 1);
    // A protocol that is neither is refused by the schema.
    HostedVersion odd = one;
    odd.label = "odd";
    odd.protocol = "v9";
    CHECK_THROWS(arena.store->add_hosted(alpha, odd));
}
