// A tournament's database holds each game's typed result (record/result.hpp) through one list
// of columns: what goes in comes back whole, and a database from before a column reads as its
// time had it.
#include <unistd.h>

#include <filesystem>
#include <memory>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "tournament/database.hpp"

using namespace bg;
using namespace bg::tournament;

namespace Catch {
// A game as a failed check shows it: the result as its log has it, and what the log has not.
template <>
struct StringMaker<PlayedGame> {
    static std::string convert(const PlayedGame& g) {
        std::string text =
            fmt::format("{} ms, log {}: {}", g.duration_ms, g.log, to_json(g.result).dump());
        for (const auto& p : g.result.players)
            text += fmt::format(" [counts {}: {} {} {}, restarted {}]", p.counts.has_value(),
                                p.counts ? p.counts->stale : -1, p.counts ? p.counts->timed : -1,
                                p.counts ? p.counts->think_ms : -1,
                                p.restarted ? static_cast<int>(*p.restarted) : -1);
        return text;
    }
};
}  // namespace Catch

namespace {

// A database of two bots' two games, at a path of this test's own, removed at the end.
struct ScratchDatabase {
    explicit ScratchDatabase(const std::string& name)
        : path((std::filesystem::temp_directory_path() /
                fmt::format("bg-database-test-{}-{}.db", ::getpid(), name))
                   .string()) {
        remove();
        TournamentSpec spec;
        spec.bots = {{"a", "true"}, {"b", "true"}};
        auto made = Database::create(path, spec);
        REQUIRE(std::holds_alternative<std::unique_ptr<Database>>(made));
        database = std::move(std::get<std::unique_ptr<Database>>(made));
    }
    ~ScratchDatabase() {
        database.reset();
        remove();
    }
    void remove() const {
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(path + suffix);
    }
    std::unique_ptr<Database> reopened(Database::Access access) const {
        auto opened = Database::open(path, access);
        REQUIRE(std::holds_alternative<std::unique_ptr<Database>>(opened));
        return std::move(std::get<std::unique_ptr<Database>>(opened));
    }
    std::string path;
    std::unique_ptr<Database> database;
};

// A game with every figure of the result set, as a runner records it (no command, no grid: the
// database keeps neither).
PlayedGame every_figure(std::uint64_t seed) {
    PlayedGame played;
    played.duration_ms = 1234;
    played.log = "/logs/game-000001.jsonl";
    GameResult& r = played.result;
    r.seed = seed;
    r.winner = 1;
    r.end = End::last_player_standing;
    r.peels = 7;
    r.bunch = 40;
    r.host_version = "1.6.0";
    r.race_ms = 812.5;
    r.contended = false;
    PlayerResult out;
    out.protocol = "v4";
    out.rank = 0;
    out.outcome = Outcome::disqualified;
    out.out_code = OutCode::left;
    out.reason = "its connection dropped and did not come back within 10000 ms";
    out.hand = "AEQ";
    out.tiles = 3;
    out.peels = 2;
    out.dumps = 1;
    out.process_game = 3;
    out.cpu_ms = 1.5;
    out.memory_peak_bytes = 1 << 20;
    out.remote = LinkUsage{2, 5, 3.25, 9.5};
    out.cpu_wait_ms = 0.25;
    out.cpu_wait_note = "a lower bound";
    out.counts = PeelCounts{1, 2, 31.5};
    out.restarted = true;
    PlayerResult won;
    won.protocol = "legacy-v1";
    won.rank = 1;
    won.outcome = Outcome::won;
    won.hand = "";
    won.peels = 5;
    won.counts = PeelCounts{0, 5, 120};
    won.restarted = false;
    r.players = {out, won};
    return played;
}

}  // namespace

TEST_CASE("database: a game's result goes into its rows and comes back whole",
          "[tournament][database]") {
    ScratchDatabase db("whole");
    const auto rows = db.database->games();
    REQUIRE(rows.size() == 2);
    const PlayedGame played = every_figure(rows[0].game.seed);
    db.database->mark_running(rows[0].id);
    db.database->record({{rows[0].id, &played}});
    for (auto access : {Database::Access::write, Database::Access::read}) {
        const auto again = db.reopened(access)->games();
        REQUIRE(again[0].played);
        CHECK(*again[0].played == played);
        CHECK_FALSE(again[1].played);
    }
}

TEST_CASE(
    "database: a schema 4 database's players out have the codes their sentences say, and "
    "upgraded it keeps them",
    "[tournament][database][out_code]") {
    ScratchDatabase db("schema-4");
    const auto rows = db.database->games();
    PlayedGame played = every_figure(rows[0].game.seed);
    played.result.players[0].out_code = OutCode::killed;
    played.result.players[0].reason = "was killed by signal 9 (Killed)";
    db.database->mark_running(rows[0].id);
    db.database->record({{rows[0].id, &played}});
    db.database.reset();
    {
        // As 1.5.0 left it: schema 4, none of version 5's columns.
        SQLite::Database sql(db.path, SQLite::OPEN_READWRITE);
        for (const char* column : {"out_code", "hand", "link_connections", "link_pings",
                                   "link_rtt_ms", "link_rtt_max_ms"})
            sql.exec(fmt::format("ALTER TABLE seats DROP COLUMN {}", column));
        sql.exec("PRAGMA user_version = 4");
    }
    // What schema 4 lacks is as its time had it: the code from the sentence, no hand, no link.
    PlayedGame expected = played;
    for (auto& player : expected.result.players) {
        player.hand = "";
        player.remote.reset();
    }
    for (auto access : {Database::Access::read, Database::Access::write}) {
        const auto again = db.reopened(access)->games();
        REQUIRE(again[0].played);
        CHECK(*again[0].played == expected);
    }
    SQLite::Database sql(db.path, SQLite::OPEN_READONLY);
    CHECK(sql.execAndGet("PRAGMA user_version").getInt() == schema_version);
}
