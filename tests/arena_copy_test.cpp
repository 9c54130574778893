// The arena's store on either database (arena/sql_store.hpp, sql/): an arena copied whole
// between SQLite and PostgreSQL holds the same bits (its tokens let the same bots in, its
// ratings are rerate's to the bit, its ids go on from where they were); a copy into an arena
// that holds one is refused; a later schema is refused; a password on the command line is
// refused before anything connects. Run on SQLite files, and under pg_virtualenv with
// BG_TEST_POSTGRESQL on PostgreSQL as well (tests/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "arena/core/ladder.hpp"
#include "arena/seasons.hpp"
#include "arena/sql_store.hpp"
#include "serve/gzip.hpp"
#include "sql/postgres_connection.hpp"
#include "tests/support/scratch_arena.hpp"

using namespace bg;
using namespace bg::arena;
using bg::test::ScratchArena;

namespace {

// A game's log file, in the temporary folder: removed once the match is rated (the store keeps
// it).
std::string log_file(int match) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              fmt::format("bg-copy-{}-{}.log", ::getpid(), match))
                                 .string();
    std::ofstream(path) << fmt::format(R"({{"seq":0,"start":{{"seed":{}}}}})", 1000 + match)
                        << "\n";
    return path;
}

// Three bots, a person, a hosted version, matches rated (with games, the first of each with its
// log) and one void; the tokens handed out.
std::vector<std::string> fill(Store& store) {
    std::vector<std::string> tokens;
    tokens.push_back(store.add_bot("alpha", "ann", std::nullopt, std::nullopt));
    tokens.push_back(store.add_bot("beta", "", std::nullopt, std::nullopt));
    tokens.push_back(store.add_bot("house", "", std::string("reference-bot"), 25.0));
    tokens.push_back(store.add_person("pat"));
    store.set_about(store.bot("beta")->id, "plays fast");
    store.set_paused(store.bot("beta")->id, "failed its check");
    HostedVersion v;
    v.label = "h1";
    v.sha256 = std::string(64, 'c');
    v.command = "./bot";
    v.protocol = "v2";
    store.add_hosted(*store.bot("alpha"), v);
    store.jobs().keep_archive(v.sha256, std::string("an archive\0 of bytes", 20));
    std::vector<Entry> who = {store.entry(*store.bot("alpha"), "v1"),
                              store.entry(*store.bot("beta"), ""),
                              store.entry(*store.bot("house"), "reference-bot")};
    for (int m = 0; m < 5; ++m) {
        const int id = store.begin_match(1000 + static_cast<std::uint64_t>(m)).id;
        std::vector<stats::Entrant> in;
        for (std::size_t i = 0; i < who.size(); ++i) {
            const auto now = store.entries();
            const auto e = std::find_if(now.begin(), now.end(),
                                        [&](const Entry& x) { return x.id == who[i].id; });
            in.push_back({e->belief, static_cast<int>((i + m) % 3) + 1, i == 2});
        }
        const auto after = stats::rate(in, store.model());
        std::vector<Rated> rated;
        std::vector<StoredGame> games;
        for (std::size_t i = 0; i < who.size(); ++i) {
            rated.push_back({who[i].id, static_cast<int>(i), in[i].rank, in[i].belief, after[i]});
            GameResult g;
            g.end = End::bananas;
            g.winner = static_cast<PlayerId>(i);
            for (std::size_t s = 0; s < who.size(); ++s) {
                PlayerResult p;
                p.rank = s == i ? 1 : 2;
                p.outcome = s == i ? Outcome::won : Outcome::lost;
                p.counts = PeelCounts{m, 1, 0.1 * static_cast<double>(s) + 1.0 / 3.0};
                g.players.push_back(p);
            }
            games.push_back({static_cast<int>(i), i == 0 ? log_file(m) : "", g});
        }
        if (m == 0) {
            // Played by a worker, which kept what a player wrote to stderr in the store.
            JobPlan plan;
            plan.match = id;
            store.jobs().queue(plan, "words", 3);
            REQUIRE(store.jobs().claim("w1", "words", 3, 30'000));
            REQUIRE(store.jobs().finish(id, "w1", JobResult{true, "", {}}, {},
                                        {{0, 1, serve::gzip("beta's stderr")}}));
        }
        store.rate_match(id, rated, games);
        std::filesystem::remove(games[0].log);
    }
    // A season closed, its finals begun: the void match was its first.
    const Season autumn = store.seasons().add("autumn", "", "2999-01-01T00:00:00.000Z", {});
    store.seasons().close(autumn.id, {{"bots", nlohmann::json::array()}}, {1, 2});
    store.begin_finals_match({autumn.id, 0, 0, 99});
    store.void_running("stopped");
    return tokens;
}

// Everything a store answers, in one comparable text.
std::string everything(const Store& store) {
    nlohmann::json all;
    all["model"] = to_json(store.model());
    all["matchmaker"] = to_json(store.matchmaker());
    for (const Bot& b : store.bots(true))
        all["bots"].push_back({b.id, b.name, b.owner, b.command.value_or("-"),
                               b.anchor.value_or(-1), b.state, b.paused, b.created, b.person,
                               b.paused_at, b.about});
    for (const Entry& e : store.entries())
        all["entries"].push_back({e.id, e.bot, e.label, e.belief.mu, e.belief.sigma, e.matches,
                                  e.created, e.checked, e.check_failed});
    for (const Match& m : store.matches()) {
        all["matches"].push_back(
            {m.id, m.seed, m.state, m.started, m.finished, m.rated_order.value_or(0), m.why});
        for (const Rated& r : m.entrants)
            all["entrants"].push_back({m.id, r.entry, r.seat, r.rank, r.before.mu, r.before.sigma,
                                       r.after.mu, r.after.sigma});
        for (const StoredGame& g : store.games_of(m.id)) {
            all["games"].push_back({m.id, g.rotation, g.log, to_json(g.result),
                                    store.game_log(m.id, g.rotation).value_or("none")});
            for (int seat = 0; seat < static_cast<int>(g.result.players.size()); ++seat)
                all["stderr"].push_back(store.game_stderr(m.id, g.rotation, seat).value_or("-"));
        }
    }
    for (const HostedVersion& h : store.hosted()) {
        all["hosted"].push_back(
            {h.entry, h.bot, h.label, h.sha256, h.command, h.protocol, h.submitted, h.report});
        all["archives"].push_back(const_cast<Store&>(store).jobs().archive(h.sha256).value_or(""));
    }
    Seasons& seasons = const_cast<Store&>(store).seasons();
    for (const Season& s : seasons.all()) {
        const auto frozen = seasons.frozen(s.id);
        all["seasons"].push_back({s.id, s.name, s.starts, s.closes, to_json(s.rules), s.state,
                                  s.added, frozen->board, frozen->finalists, frozen->standings});
        for (const auto& f : seasons.finals_matches(s.id))
            all["finals"].push_back({f.match, f.stage, f.round, f.state});
    }
    return all.dump();
}

// A copy of `from` into `to`, checked to be the same arena.
void copied_same(Store& from, const std::string& from_where, const std::string& to,
                 const std::vector<std::string>& tokens) {
    auto copied = copy_arena(from_where, to);
    if (auto* error = std::get_if<std::string>(&copied))
        FAIL(*error);
    const Copied rows = std::get<Copied>(copied);
    CHECK(rows == Copied{{"bots", 4},
                         {"entries", 4},
                         {"matches", 6},
                         {"match_entries", 15},
                         {"games", 15},
                         {"game_stderr", 1},
                         {"hosted", 1},
                         {"archives", 1},
                         {"seasons", 1},
                         {"finals_matches", 1}});
    auto reopened = Store::open(to, false);
    REQUIRE(std::holds_alternative<std::unique_ptr<Store>>(reopened));
    Store& copy = *std::get<std::unique_ptr<Store>>(reopened);
    CHECK(everything(copy) == everything(from));
    for (const std::string& token : tokens)
        CHECK(copy.bot_by_token(token).has_value() == from.bot_by_token(token).has_value());
    CHECK(copy.bot_by_token(tokens[0])->name == "alpha");
    // The games' logs came with it (their files were gone before it was copied).
    CHECK(copy.game_log(1, 0) == "{\"seq\":0,\"start\":{\"seed\":1000}}\n");
    CHECK(!copy.game_log(1, 1));
    CHECK(copy.game_stderr(1, 0, 1) == "beta's stderr");
    // Rerate arrives at the copied ratings to the bit.
    const auto start = starts(copy.entries(), copy.bots(true), copy.model());
    const Rerated again = rerate(copy.rated_in_order(), start, copy.model());
    CHECK(again.matches == 5);
    CHECK(again.differing.empty());
    for (const Entry& e : copy.entries())
        CHECK(again.beliefs.at(e.id) == e.belief);
    // Its ids go on from the copied ones.
    CHECK(copy.begin_match(1).id == 7);
    CHECK(copy.entry(*copy.bot("beta"), "v9").id == 5);
    copy.add_bot("gamma", "", std::nullopt, std::nullopt);
    CHECK(copy.bot("gamma")->id == 5);
    // Copied again into it: refused, nothing written.
    auto twice = copy_arena(from_where, to);
    REQUIRE(std::holds_alternative<std::string>(twice));
    CHECK(std::get<std::string>(twice).find("holds an arena already") != std::string::npos);
    CHECK(copy.bots(true).size() == 5);
}

}  // namespace

TEST_CASE(
    "arena: an arena copied whole to a new one holds the same bits, its tokens, its "
    "ratings to rerate's bit and its ids going on",
    "[arena][store][copy]") {
    ScratchArena from("copy-from");
    const auto tokens = fill(*from.store);
    // To an SQLite file always; where the tests have PostgreSQL, the other way too.
    const auto file =
        std::filesystem::temp_directory_path() / fmt::format("bg-arena-copy-{}.db", ::getpid());
    std::filesystem::remove(file);
    copied_same(*from.store, from.path, file.string(), tokens);
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(file.string() + suffix);
    if (bg::test::test_postgresql()) {
        ScratchArena to("copy-to");  // a database of its own, an arena with nothing in it
        copied_same(*from.store, from.path, to.path, tokens);
    }
}

TEST_CASE(
    "arena: a store of schema 6 is brought to 11 as it is opened, and keeps the logs of the "
    "games it rates from then on",
    "[arena][store]") {
    ScratchArena arena("six");
    arena.store->add_bot("alpha", "", std::nullopt, std::nullopt);
    arena.exec("ALTER TABLE games DROP COLUMN log_gz");
    for (const char* table :
         {"game_stderr", "job_logs", "jobs", "workers", "archives", "stream_events", "live_state",
          "fronts", "front_mail", "finals_matches", "seasons"})
        arena.exec(std::string("DROP TABLE ") + table);
    if (arena.postgresql())
        arena.exec("DROP SEQUENCE jobs_finished");
    arena.exec(arena.postgresql() ? "UPDATE arena_schema SET version = 6"
                                  : "PRAGMA user_version = 6");
    arena.store.reset();
    auto opened = Store::open(arena.path, false);
    if (auto* error = std::get_if<std::string>(&opened))
        FAIL(*error);
    arena.store = std::move(std::get<std::unique_ptr<Store>>(opened));
    const Entry a = arena.store->entry(*arena.store->bot("alpha"), "v1");
    const int id = arena.store->begin_match(3).id;
    GameResult g;
    g.end = End::bananas;
    g.players.resize(1);
    arena.store->rate_match(id, {{a.id, 0, 1, a.belief, a.belief}}, {{0, log_file(99), g}});
    CHECK(arena.store->game_log(id, 0) == "{\"seq\":0,\"start\":{\"seed\":1099}}\n");
    // And the workers' tables made, and the front nodes'.
    arena.store->jobs().keep_archive("d", "bytes");
    CHECK(arena.store->jobs().has_archive("d"));
    arena.store->published().state("{}");
    CHECK(arena.store->published().state()->json == "{}");
    arena.store->fronts().hello("a:1", 2);
    CHECK(arena.store->fronts().seen(10'000).at("a:1") == 2);
    JobPlan plan;
    plan.match = arena.store->begin_match(4).id;
    arena.store->jobs().queue(plan, "w", 2, "a:1");
    CHECK(arena.store->jobs().claim("a:1", "w", 0, 1'000, "a:1"));
    // And the seasons'.
    arena.store->seasons().add("autumn", "", "2999-01-01T00:00:00.000Z", {});
    CHECK(arena.store->seasons().all().size() == 1);
    std::filesystem::remove(log_file(99));
}

TEST_CASE(
    "arena: one arena serves a store: a second is refused while the first holds it, and "
    "takes it once the first is gone",
    "[arena][store]") {
    ScratchArena arena("serving");
    const auto again = [&] {
        auto opened = Store::open(arena.path, false);
        if (auto* error = std::get_if<std::string>(&opened))
            FAIL(*error);
        return std::move(std::get<std::unique_ptr<Store>>(opened));
    };
    auto second = again();
    CHECK(arena.store->hold_serving());
    CHECK(!second->hold_serving());
    CHECK(!again()->hold_serving());
    // The one that holds it reads and writes as before; another may read it (a copy, standings).
    arena.store->add_bot("alpha", "", std::nullopt, std::nullopt);
    CHECK(second->bot("alpha"));
    // Gone: PostgreSQL lets its lock go as the session's process ends, a moment after.
    arena.store.reset();
    bool held = false;
    for (int tries = 0; tries < 50 && !held; ++tries) {
        held = second->hold_serving();
        if (!held)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(held);
    CHECK(!again()->hold_serving());
}

TEST_CASE("arena: a store of a later schema is refused, not read", "[arena][store]") {
    ScratchArena arena("later");
    arena.store->add_bot("alpha", "", std::nullopt, std::nullopt);
    if (arena.postgresql())
        arena.exec("UPDATE arena_schema SET version = 12");
    else
        arena.exec("PRAGMA user_version = 12");
    auto later = Store::open(arena.path, false);
    REQUIRE(std::holds_alternative<std::string>(later));
    CHECK(std::get<std::string>(later).find("schema version 12") != std::string::npos);
    CHECK(std::get<std::string>(later).find("later") != std::string::npos);
}

TEST_CASE(
    "sql: a PostgreSQL database is told from a file, its password never taken from the "
    "command line, and shown without it",
    "[arena][store][sql]") {
    CHECK(sql::is_postgresql("postgresql://arena@db.example/arena"));
    CHECK(sql::is_postgresql("postgres:///arena"));
    CHECK(sql::is_postgresql("dbname=arena host=/run/postgresql"));
    CHECK(sql::is_postgresql("service=arena"));
    CHECK(!sql::is_postgresql("arena.db"));
    CHECK(!sql::is_postgresql("./dbname=arena"));
    CHECK(!sql::is_postgresql("/srv/arena.db"));
    CHECK(!sql::is_postgresql("=x"));
    for (const char* with_password : {"postgresql://arena:s3cret@localhost/arena",
                                      "host=localhost dbname=arena password=s3cret"}) {
        auto refused = sql::PostgresConnection::connect(with_password);
        REQUIRE(std::holds_alternative<std::string>(refused));
        CHECK(std::get<std::string>(refused).find("holds a password") != std::string::npos);
        CHECK(std::get<std::string>(refused).find("s3cret") == std::string::npos);
        CHECK(std::get<std::string>(refused).find("PGPASSFILE") != std::string::npos);
    }
    CHECK(sql::shown("postgresql://arena:s3cret@localhost/arena") ==
          "postgresql://arena:***@localhost/arena");
    CHECK(sql::shown("host=h password='a b' dbname=x") == "host=h password=*** dbname=x");
    CHECK(sql::shown("postgresql:///arena?password=s3cret&sslmode=require") ==
          "postgresql:///arena?password=***&sslmode=require");
    CHECK(sql::shown("postgresql://arena@localhost/arena") == "postgresql://arena@localhost/arena");
    auto bad = sql::PostgresConnection::connect("postgresql://[");
    REQUIRE(std::holds_alternative<std::string>(bad));
    // No server: said, within the timeout.
    auto none = sql::PostgresConnection::connect("host=/nonexistent dbname=arena");
    REQUIRE(std::holds_alternative<std::string>(none));
    CHECK(std::get<std::string>(none).find("cannot connect") != std::string::npos);
    CHECK(sql::numbered_parameters("SELECT ? WHERE a = '?' AND b = ? AND \"c?\" = ?") ==
          "SELECT $1 WHERE a = '?' AND b = $2 AND \"c?\" = $3");
}
