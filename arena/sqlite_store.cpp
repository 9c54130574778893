#include "arena/sqlite_store.hpp"

#include "arena/sqlite_rows.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "remote/token.hpp"
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

std::string schema() {
    return std::string(R"(
CREATE TABLE arena (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    created TEXT NOT NULL,
    rating TEXT NOT NULL,
    matchmaker TEXT NOT NULL
);
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    command TEXT,
    anchor REAL,
    token_hash TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('active', 'disabled', 'removed')),
    paused TEXT,
    created TEXT NOT NULL,
    person INTEGER NOT NULL DEFAULT 0,
    paused_at TEXT,
    about TEXT
);
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    bot_id INTEGER NOT NULL REFERENCES bots (id),
    label TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    checked TEXT,
    check_failed TEXT,
    UNIQUE (bot_id, label)
);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
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
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after REAL NOT NULL,
    sigma_after REAL NOT NULL,
    PRIMARY KEY (match_id, entry_id)
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    rotation INTEGER NOT NULL,
    log TEXT,
    result TEXT NOT NULL,
    counts TEXT
);
CREATE INDEX games_by_match ON games (match_id);
CREATE INDEX match_entries_by_entry ON match_entries (entry_id);
)") + hosted_table;
}

}  // namespace

namespace {

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
// (none).
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
    kind.schema = schema();
    kind.upgrade = upgrade;
    return kind;
}

}  // namespace

std::variant<std::unique_ptr<Store>, std::string> SqliteStore::open(const std::string& path,
                                                                    bool create,
                                                                    const stats::WengLin& model) {
    sqlite::Opened opened = std::string();
    if (struct stat status{}; create && ::stat(path.c_str(), &status) != 0 && errno == ENOENT)
        opened = sqlite::create(path, file_kind(), 0600, [&](SQLite::Database& db) {
            SQLite::Statement insert(db, fmt::format("INSERT INTO arena (id, created, rating, "
                                                     "matchmaker) VALUES (1, {}, ?, ?)",
                                                     now_sql));
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
        std::unique_ptr<SqliteStore> store(new SqliteStore(std::move(db)));
        store->model_ = model_from(nlohmann::json::parse(
            store->db_->execAndGet("SELECT rating FROM arena WHERE id = 1").getString()));
        return store;
    } catch (const std::exception& e) {
        return fmt::format("{} is not an arena's database: {}", escape_for_terminal(path),
                           e.what());
    }
}

SqliteStore::SqliteStore(std::unique_ptr<SQLite::Database> db)
    : db_(std::move(db)), accounts_(*db_, model_), archive_(*db_), hosted_(*db_) {}
SqliteStore::~SqliteStore() = default;

MatchmakerConfig SqliteStore::matchmaker() const {
    const auto j = nlohmann::json::parse(
        db_->execAndGet("SELECT matchmaker FROM arena WHERE id = 1").getString());
    MatchmakerConfig c;
    c.max_players = j.at("max_players").get<int>();
    c.max_wait_ms = j.at("max_wait_ms").get<std::uint64_t>();
    c.randomness = j.at("randomness").get<double>();
    c.repeat_penalty = j.at("repeat_penalty").get<double>();
    c.window = j.at("window").get<int>();
    return c;
}

void SqliteStore::set_matchmaker(const MatchmakerConfig& config) {
    SQLite::Statement update(*db_, "UPDATE arena SET matchmaker = ? WHERE id = 1");
    update.bind(1, to_json(config).dump());
    update.exec();
}

}  // namespace bg::arena
