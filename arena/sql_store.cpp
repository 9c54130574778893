#include "arena/sql_store.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arena/sql_rows.hpp"
#include "core/text.hpp"
#include "sql/postgres_connection.hpp"
#include "sql/sqlite_connection.hpp"
#include "sqlite/schema_file.hpp"

namespace bg::arena {

using namespace rows;

namespace {

constexpr int application_id = 0x42674172;  // "BgAr"

// Hosted bots' versions (schema 6).
constexpr const char* hosted_table = R"(
CREATE TABLE hosted (
    entry_id INTEGER PRIMARY KEY REFERENCES entries (id),
    sha256 TEXT NOT NULL,
    command TEXT NOT NULL,
    protocol TEXT NOT NULL CHECK (protocol IN ('v2', 'v1')),
    submitted TEXT NOT NULL,
    report TEXT
);
CREATE INDEX hosted_by_sha ON hosted (sha256);
)";

// Workers (schema 8), in the dialect of `backend`: bytes, and on PostgreSQL the sequence of the
// order workers finish in.
std::string workers_tables(sql::Backend backend) {
    const bool sqlite = backend == sql::Backend::sqlite;
    return fmt::format(R"(
CREATE TABLE archives (
    sha256 TEXT PRIMARY KEY,
    bytes {blob} NOT NULL
);
CREATE TABLE jobs (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    plan TEXT NOT NULL,
    words TEXT NOT NULL,
    players INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued', 'claimed', 'played', 'void')),
    worker TEXT,
    lease_ms BIGINT,
    finish_order BIGINT UNIQUE,
    result TEXT,
    claimed TEXT,
    finished TEXT
);
CREATE INDEX jobs_by_state ON jobs (state, match_id);
CREATE TABLE job_logs (
    match_id INTEGER NOT NULL REFERENCES jobs (match_id),
    rotation INTEGER NOT NULL,
    log_gz {blob} NOT NULL,
    PRIMARY KEY (match_id, rotation)
);
CREATE TABLE game_stderr (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    rotation INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text_gz {blob} NOT NULL,
    PRIMARY KEY (match_id, rotation, seat)
);
CREATE TABLE workers (
    name TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    cores INTEGER NOT NULL,
    words TEXT NOT NULL,
    started TEXT NOT NULL,
    seen_ms BIGINT NOT NULL
);{sequence}
)",
                       fmt::arg("blob", sqlite ? "BLOB" : "BYTEA"),
                       fmt::arg("sequence", sqlite ? "" : "\nCREATE SEQUENCE jobs_finished;"));
}

// What the node that holds the arena shows its front nodes (schema 9, arena/published.hpp): its
// stream's newest events under their ids (each with the id before it), and its live state (with
// when it was stored, on the database's clock). Not copied by `arena copy`: an
// arena served again publishes them anew.
constexpr const char* published_tables = R"(
CREATE TABLE stream_events (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    data TEXT NOT NULL,
    after_id BIGINT NOT NULL
);
CREATE TABLE live_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    state TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
)";

// Front nodes that seat remote bots and people (schema 10, arena/front_mail.hpp): each front as
// it last said it was there, with the cores it gives its house and hosted players; the messages
// between the holder and its fronts, each taken once by its reader; and the front node a job is
// addressed to (none: any worker's). Not copied by `arena copy`, as what is published.
std::string fronts_tables(sql::Backend backend) {
    return fmt::format(R"(
CREATE TABLE fronts (
    name TEXT PRIMARY KEY,
    cores INTEGER NOT NULL,
    started TEXT NOT NULL,
    seen_ms BIGINT NOT NULL
);
CREATE TABLE front_mail (
    id {id},
    node TEXT NOT NULL,
    to_holder INTEGER NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX front_mail_by_reader ON front_mail (to_holder, node, id);
ALTER TABLE jobs ADD COLUMN node TEXT;
)",
                       fmt::arg("id", backend == sql::Backend::sqlite
                                          ? "INTEGER PRIMARY KEY"
                                          : "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"));
}

// The schema of this version, in the dialect of `backend`: on SQLite, ids its rows' ids; on
// PostgreSQL, ids drawn by the database unless given (an arena copied in keeps its own), doubles
// of 64 bits, and the schema's version in a table of its own.
std::string schema(sql::Backend backend) {
    const bool sqlite = backend == sql::Backend::sqlite;
    return fmt::format(
               R"({version}
CREATE TABLE arena (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    created TEXT NOT NULL,
    rating TEXT NOT NULL,
    matchmaker TEXT NOT NULL
);
CREATE TABLE bots (
    id {id},
    name TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    command TEXT,
    anchor {real},
    token_hash TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('active', 'disabled', 'removed')),
    paused TEXT,
    created TEXT NOT NULL,
    person INTEGER NOT NULL DEFAULT 0,
    paused_at TEXT,
    about TEXT
);
CREATE TABLE entries (
    id {id},
    bot_id INTEGER NOT NULL REFERENCES bots (id),
    label TEXT NOT NULL,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    matches INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    checked TEXT,
    check_failed TEXT,
    UNIQUE (bot_id, label)
);
CREATE TABLE matches (
    id {id},
    seed TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'rated', 'void')),
    started TEXT NOT NULL,
    finished TEXT,
    rated_order INTEGER UNIQUE,
    why TEXT
);
CREATE TABLE match_entries (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    entry_id INTEGER NOT NULL REFERENCES entries (id),
    seat INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    mu_before {real} NOT NULL,
    sigma_before {real} NOT NULL,
    mu_after {real} NOT NULL,
    sigma_after {real} NOT NULL,
    PRIMARY KEY (match_id, entry_id)
);
CREATE TABLE games (
    id {id},
    match_id INTEGER NOT NULL REFERENCES matches (id),
    rotation INTEGER NOT NULL,
    log TEXT,
    result TEXT NOT NULL,
    counts TEXT,
    log_gz {blob}
);
CREATE INDEX games_by_match ON games (match_id);
CREATE INDEX match_entries_by_entry ON match_entries (entry_id);
)",
               fmt::arg("version",
                        sqlite ? "" : "\nCREATE TABLE arena_schema (version INTEGER NOT NULL);"),
               fmt::arg("id", sqlite ? "INTEGER PRIMARY KEY"
                                     : "INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
               fmt::arg("real", sqlite ? "REAL" : "DOUBLE PRECISION"),
               fmt::arg("blob", sqlite ? "BLOB" : "BYTEA")) +
           hosted_table + workers_tables(backend) + published_tables + fronts_tables(backend) +
           seasons_schema(backend);
}

// The tables an arena holds, each with the columns it is copied by, in an order that keeps
// every reference to a row after the row (arena/sql_store.hpp's schema).
struct Table {
    const char* name;
    std::string columns;
};
std::vector<Table> tables() {
    return {{"bots", std::string(bot_columns) + ", token_hash"},
            {"entries", entry_columns},
            {"matches", match_columns},
            {"match_entries", std::string("match_id, ") + rated_columns},
            {"games", std::string("id, match_id, ") + game_columns + ", log_gz"},
            {"game_stderr", "match_id, rotation, seat, text_gz"},
            {"hosted", "entry_id, sha256, command, protocol, submitted, report"},
            {"archives", "sha256, bytes"},
            {"seasons",
             "id, name, starts, closes, rules, state, added, board, finalists, standings, ended"},
            {"finals_matches", "match_id, season_id, stage, round"}};
}

stats::WengLin model_from(const nlohmann::json& j) {
    stats::WengLin m;
    m.mu = j.at("mu").get<double>();
    m.sigma = j.at("sigma").get<double>();
    m.beta = j.at("beta").get<double>();
    m.kappa = j.at("kappa").get<double>();
    m.tau = j.at("tau").get<double>();
    return m;
}

// Brings a database of schema `from` to this version (in the transaction sqlite::open runs it
// in): 1 to 2, the check's columns (an entry that has played was let play unchecked, and stays
// let); 2 to 3, people's accounts (every account there is a bot's); 3 to 4, when a bot was
// paused (unknown for one paused before) and the referee's peel counts of each game (none for a
// game stored before); 4 to 5, a bot's public description (none); 5 to 6, hosted bots' versions
// (none); 6 to 7, the games' logs kept in the store (none of a game rated before: its log's
// file, where it is, is read as before); 7 to 8, workers' tables (no archive is kept of a
// version submitted before); 8 to 9, what the holder shows its front nodes (nothing yet); 9 to
// 10, front nodes that seat (none yet; every job before any worker's); 10 to 11, seasons (none
// yet).
void upgrade(SQLite::Database& db, int from) {
    if (from < 2) {
        db.exec("ALTER TABLE entries ADD COLUMN checked TEXT");
        db.exec("ALTER TABLE entries ADD COLUMN check_failed TEXT");
        db.exec("UPDATE entries SET checked = created WHERE matches > 0");
    }
    if (from < 3)
        db.exec("ALTER TABLE bots ADD COLUMN person INTEGER NOT NULL DEFAULT 0");
    if (from < 4) {
        db.exec("ALTER TABLE bots ADD COLUMN paused_at TEXT");
        db.exec("ALTER TABLE games ADD COLUMN counts TEXT");
    }
    if (from < 5)
        db.exec("ALTER TABLE bots ADD COLUMN about TEXT");
    if (from < 6)
        db.exec(hosted_table);
    if (from < 7)
        db.exec("ALTER TABLE games ADD COLUMN log_gz BLOB");
    if (from < 8)
        db.exec(workers_tables(sql::Backend::sqlite));
    if (from < 9)
        db.exec(published_tables);
    if (from < 10)
        db.exec(fronts_tables(sql::Backend::sqlite));
    if (from < 11)
        db.exec(seasons_schema(sql::Backend::sqlite));
}

// The same on PostgreSQL, whose first arenas were of version 6, in one transaction.
void upgrade_postgresql(sql::Connection& db, int from) {
    sql::Transaction transaction(db);
    if (from < 7)
        db.execute("ALTER TABLE games ADD COLUMN log_gz BYTEA");
    if (from < 8)
        db.script(workers_tables(sql::Backend::postgresql));
    if (from < 9)
        db.script(published_tables);
    if (from < 10)
        db.script(fronts_tables(sql::Backend::postgresql));
    if (from < 11)
        db.script(seasons_schema(sql::Backend::postgresql));
    db.execute("UPDATE arena_schema SET version = ?", {std::int64_t{schema_version}});
    transaction.commit();
}

// The file an arena is kept in (sqlite/schema_file.hpp).
sqlite::Kind file_kind() {
    sqlite::Kind kind;
    kind.name = "arena database";
    kind.a_kind = "an arena's database";
    kind.owners = "an arena's";
    kind.holds = "an arena";
    kind.how_to_make = " (add a bot to make it: arena bot add)";
    kind.application_id = application_id;
    kind.oldest_version = 1;
    kind.version = schema_version;
    kind.schema = schema(sql::Backend::sqlite);
    kind.upgrade = upgrade;
    return kind;
}

}  // namespace

std::variant<std::unique_ptr<Store>, std::string> SqlStore::open_sqlite(
    const std::string& path, bool create, const stats::WengLin& model) {
    sqlite::Opened opened = std::string();
    if (struct stat status{}; create && ::stat(path.c_str(), &status) != 0 && errno == ENOENT)
        opened = sqlite::create(path, file_kind(), 0600, [&](SQLite::Database& db) {
            SQLite::Statement insert(db,
                                     "INSERT INTO arena (id, created, rating, matchmaker) "
                                     "VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?)");
            insert.bind(1, to_json(model).dump());
            insert.bind(2, to_json(MatchmakerConfig{}).dump());
            insert.exec();
        });
    else
        opened = sqlite::open(path, file_kind(), sqlite::Access::write);
    if (auto* error = std::get_if<std::string>(&opened))
        return *error;
    auto& db = std::get<std::unique_ptr<SQLite::Database>>(opened);
    try {
        db->exec("PRAGMA synchronous = FULL");
        auto connection = std::make_unique<sql::SqliteConnection>(std::move(db));
        const auto rating = nlohmann::json::parse(
            connection->query("SELECT rating FROM arena WHERE id = 1").at(0).text(0));
        return std::unique_ptr<Store>(new SqlStore(std::move(connection), model_from(rating)));
    } catch (const std::exception& e) {
        return fmt::format("{} is not an arena's database: {}", escape_for_terminal(path),
                           e.what());
    }
}

std::variant<std::unique_ptr<Store>, std::string> SqlStore::open_postgresql(
    const std::string& where, bool create, const stats::WengLin& model) {
    auto connected = sql::PostgresConnection::connect(where);
    if (auto* error = std::get_if<std::string>(&connected))
        return *error;
    auto db = std::move(std::get<std::unique_ptr<sql::PostgresConnection>>(connected));
    const std::string shown = escape_for_terminal(sql::shown(where));
    try {
        if (db->query("SELECT to_regclass('arena_schema')").at(0).null(0)) {
            if (!create)
                return fmt::format("{} holds no arena (add a bot to make it: arena bot add)",
                                   shown);
            sql::Transaction transaction(*db);
            db->script(schema(sql::Backend::postgresql));
            db->execute("INSERT INTO arena_schema (version) VALUES (?)",
                        {std::int64_t{schema_version}});
            db->execute(fmt::format("INSERT INTO arena (id, created, rating, matchmaker) VALUES "
                                    "(1, {}, ?, ?)",
                                    db->now()),
                        {to_json(model).dump(), to_json(MatchmakerConfig{}).dump()});
            transaction.commit();
        }
        const int version = db->query("SELECT version FROM arena_schema").at(0).number(0);
        if (version >= 6 && version < schema_version)
            upgrade_postgresql(*db, version);
        else if (version != schema_version)
            return fmt::format("{} holds an arena of schema version {}; this arena reads {}{}",
                               shown, version, schema_version,
                               version > schema_version ? ": it was made by a later arena" : "");
        const auto rating =
            nlohmann::json::parse(db->query("SELECT rating FROM arena WHERE id = 1").at(0).text(0));
        return std::unique_ptr<Store>(new SqlStore(std::move(db), model_from(rating)));
    } catch (const std::exception& e) {
        return fmt::format("{} does not hold an arena that can be read: {}", shown, e.what());
    }
}

SqlStore::SqlStore(std::unique_ptr<sql::Connection> db, const stats::WengLin& model)
    : db_(std::move(db)),
      model_(model),
      accounts_(*db_, model_),
      archive_(*db_),
      hosted_(*db_),
      jobs_(*db_),
      published_(*db_),
      fronts_(*db_),
      seasons_(*db_) {}
SqlStore::~SqlStore() = default;

Store::Begun SqlStore::begin_finals_match(const FinalsOf& finals) {
    sql::Transaction transaction(*db_);
    const Begun begun = archive_.begin_match(finals.seed);
    seasons_.mark_finals(begun.id, finals);
    transaction.commit();
    return begun;
}

MatchmakerConfig SqlStore::matchmaker() const {
    const auto j = nlohmann::json::parse(
        db_->query("SELECT matchmaker FROM arena WHERE id = 1").at(0).text(0));
    MatchmakerConfig c;
    c.max_players = j.at("max_players").get<int>();
    c.max_wait_ms = j.at("max_wait_ms").get<std::uint64_t>();
    c.randomness = j.at("randomness").get<double>();
    c.repeat_penalty = j.at("repeat_penalty").get<double>();
    c.window = j.at("window").get<int>();
    return c;
}

void SqlStore::set_matchmaker(const MatchmakerConfig& config) {
    db_->execute("UPDATE arena SET matchmaker = ? WHERE id = 1", {to_json(config).dump()});
}

std::variant<Copied, std::string> copy_arena(const std::string& from, const std::string& to) {
    auto source = Store::open(from, false);
    if (auto* error = std::get_if<std::string>(&source))
        return *error;
    auto& in = dynamic_cast<SqlStore&>(*std::get<std::unique_ptr<Store>>(source));
    auto target = Store::open(to, true, in.model());
    if (auto* error = std::get_if<std::string>(&target))
        return *error;
    auto& out = dynamic_cast<SqlStore&>(*std::get<std::unique_ptr<Store>>(target));
    sql::Connection& reader = in.connection();
    sql::Connection& writer = out.connection();
    if (!writer.query("SELECT 1 FROM bots LIMIT 1").empty() ||
        !writer.query("SELECT 1 FROM matches LIMIT 1").empty())
        return fmt::format("{} holds an arena already: copy into a new one",
                           escape_for_terminal(sql::shown(to)));
    Copied copied;
    try {
        // Read in one transaction (one snapshot of an arena that may be serving), written in one.
        sql::Transaction reading(reader, sql::Transaction::Kind::snapshot);
        sql::Transaction writing(writer);
        const sql::Row arena =
            reader.query("SELECT created, rating, matchmaker FROM arena WHERE id = 1").at(0);
        writer.execute("UPDATE arena SET created = ?, rating = ?, matchmaker = ? WHERE id = 1",
                       {arena.at(0), arena.at(1), arena.at(2)});
        for (const Table& t : tables()) {
            const std::size_t n =
                static_cast<std::size_t>(std::count(t.columns.begin(), t.columns.end(), ',')) + 1;
            std::string marks = "?";
            for (std::size_t i = 1; i < n; ++i)
                marks += ", ?";
            const std::string insert =
                fmt::format("INSERT INTO {} ({}) VALUES ({})", t.name, t.columns, marks);
            const sql::Rows rows =
                reader.query(fmt::format("SELECT {} FROM {}", t.columns, t.name));
            for (const sql::Row& r : rows) {
                std::vector<sql::Value> values;
                for (std::size_t c = 0; c < r.size(); ++c)
                    values.push_back(r.at(c));
                writer.execute(insert, values);
            }
            copied.emplace_back(t.name, rows.size());
        }
        if (writer.backend() == sql::Backend::postgresql)
            for (const char* drawn : {"bots", "entries", "matches", "games", "seasons"})
                writer.query(
                    fmt::format("SELECT setval(pg_get_serial_sequence('{0}', 'id'), "
                                "(SELECT COALESCE(MAX(id), 0) + 1 FROM {0}), false)",
                                drawn));
        writing.commit();
        reading.commit();
    } catch (const std::exception& e) {
        return fmt::format("the copy stopped, and nothing of it is kept in {}: {}",
                           escape_for_terminal(sql::shown(to)), e.what());
    }
    return copied;
}

}  // namespace bg::arena
