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

const char* schema() {
    return R"(
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
    paused_at TEXT
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
)";
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
// game stored before).
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

SqliteStore::SqliteStore(std::unique_ptr<SQLite::Database> db) : db_(std::move(db)) {}
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

std::string SqliteStore::add_bot(const std::string& name, const std::string& owner,
                                 const std::optional<std::string>& command,
                                 const std::optional<double>& anchor) {
    if (!owner.empty() && !valid_name(owner))
        throw std::invalid_argument(
            fmt::format("'{}' cannot be an owner's name: 1 to 40 of a-z A-Z 0-9 _ . -",
                        escape_for_terminal(owner)));
    if (anchor && !command)
        throw std::invalid_argument("only a house bot (--command) can be the anchor");
    if (anchor)
        for (const Bot& b : bots())
            if (b.anchor)
                throw std::invalid_argument(
                    fmt::format("{} is the anchor already: an arena has one", b.name));
    Bot bot;
    bot.name = name;
    bot.owner = owner.empty() ? name : owner;
    bot.command = command;
    bot.anchor = anchor;
    return add_account(bot, remote::draw_token());
}

std::string SqliteStore::add_person(const std::string& name, const std::string& code) {
    if (!code.empty() && !remote::token_problem(code).empty())
        throw std::invalid_argument("a code is 16 to 64 of A-Z a-z 0-9 _ -");
    Bot person;
    person.name = person.owner = name;
    person.person = true;
    return add_account(person, code.empty() ? remote::draw_token() : code);
}

std::string SqliteStore::add_account(const Bot& account, std::string token) {
    const char* const kind = account.person ? "person" : "bot";
    if (!valid_name(account.name))
        throw std::invalid_argument(
            fmt::format("'{}' cannot be a {}'s name: 1 to 40 of a-z A-Z 0-9 _ . -",
                        escape_for_terminal(account.name), kind));
    // One name space for bots and people: a name on a page is one account's.
    for (const Bot& b : bots(true))
        if (b.name == account.name)
            throw std::invalid_argument(fmt::format("there is a {} named {} already{}",
                                                    b.person ? "person" : "bot", account.name,
                                                    b.state == "removed" ? " (removed)" : ""));
    SQLite::Statement insert(
        *db_, fmt::format("INSERT INTO bots (name, owner, command, anchor, token_hash, state, "
                          "created, person) VALUES (?, ?, ?, ?, ?, 'active', {}, ?)",
                          now_sql));
    insert.bind(1, account.name);
    insert.bind(2, account.owner);
    if (account.command)
        insert.bind(3, *account.command);
    if (account.anchor)
        insert.bind(4, *account.anchor);
    insert.bind(5, token_hash(token));
    insert.bind(6, account.person ? 1 : 0);
    insert.exec();
    return token;
}

std::vector<Bot> SqliteStore::bots(bool removed_too) const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM bots{} ORDER BY name", bot_columns,
                                          removed_too ? "" : " WHERE state != 'removed'"));
    std::vector<Bot> all;
    while (q.executeStep())
        all.push_back(bot_from(q));
    return all;
}

std::optional<Bot> SqliteStore::bot(const std::string& name) const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM bots WHERE name = ?", bot_columns));
    q.bind(1, name);
    if (!q.executeStep())
        return std::nullopt;
    return bot_from(q);
}

std::optional<Bot> SqliteStore::bot_by_token(const std::string& token) const {
    // Looked up by the token's hash: what is compared is not the token, and a wrong token's
    // hash says nothing of a right one.
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM bots WHERE token_hash = ? AND state = "
                                          "'active'",
                                          bot_columns));
    q.bind(1, token_hash(token));
    if (!q.executeStep())
        return std::nullopt;
    return bot_from(q);
}

void SqliteStore::set_state(int bot, const std::string& state) {
    SQLite::Statement update(*db_, "UPDATE bots SET state = ? WHERE id = ?");
    update.bind(1, state);
    update.bind(2, bot);
    update.exec();
}

std::string SqliteStore::set_paused(int bot, const std::string& why) {
    const std::string at = why.empty() ? "" : now_text(*db_);
    SQLite::Statement update(*db_, "UPDATE bots SET paused = ?, paused_at = ? WHERE id = ?");
    if (!why.empty()) {
        update.bind(1, why);
        update.bind(2, at);
    }
    update.bind(3, bot);
    update.exec();
    return at;
}

std::string SqliteStore::record_check(int entry, bool passed, const std::string& why) {
    SQLite::Transaction transaction(*db_);
    const std::string at = now_text(*db_);
    SQLite::Statement update(
        *db_, passed ? "UPDATE entries SET checked = ?, check_failed = NULL WHERE id = ?"
                     : "UPDATE entries SET check_failed = ? WHERE id = ?");
    update.bind(1, passed ? at : why);
    update.bind(2, entry);
    update.exec();
    if (passed) {
        SQLite::Statement unpause(*db_,
                                  "UPDATE bots SET paused = NULL, paused_at = NULL WHERE id = "
                                  "(SELECT bot_id FROM entries WHERE id = ?)");
        unpause.bind(1, entry);
        unpause.exec();
    }
    transaction.commit();
    return at;
}

std::string SqliteStore::rotate_token(int bot) {
    const std::string token = remote::draw_token();
    SQLite::Statement update(*db_, "UPDATE bots SET token_hash = ? WHERE id = ?");
    update.bind(1, token_hash(token));
    update.bind(2, bot);
    update.exec();
    return token;
}

Entry SqliteStore::entry(const Bot& bot, const std::string& label) {
    SQLite::Statement q(
        *db_, fmt::format("SELECT {} FROM entries WHERE bot_id = ? AND label = ?", entry_columns));
    q.bind(1, bot.id);
    q.bind(2, label);
    if (q.executeStep())
        return entry_from(q);
    const stats::Belief first = bot.anchor ? stats::Belief{*bot.anchor, 0} : model_.initial();
    SQLite::Statement insert(*db_, fmt::format("INSERT INTO entries (bot_id, label, mu, sigma, "
                                               "created) VALUES (?, ?, ?, ?, {})",
                                               now_sql));
    insert.bind(1, bot.id);
    insert.bind(2, label);
    insert.bind(3, first.mu);
    insert.bind(4, first.sigma);
    insert.exec();
    return entry(bot, label);
}

std::vector<Entry> SqliteStore::entries() const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM entries ORDER BY id", entry_columns));
    std::vector<Entry> all;
    while (q.executeStep())
        all.push_back(entry_from(q));
    return all;
}

std::vector<Entry> SqliteStore::entries_of(int bot) const {
    SQLite::Statement q(
        *db_, fmt::format("SELECT {} FROM entries WHERE bot_id = ? ORDER BY id", entry_columns));
    q.bind(1, bot);
    std::vector<Entry> all;
    while (q.executeStep())
        all.push_back(entry_from(q));
    return all;
}

Store::Begun SqliteStore::begin_match(std::uint64_t seed) {
    const std::string at = now_text(*db_);
    SQLite::Statement insert(*db_,
                             "INSERT INTO matches (seed, state, started) VALUES (?, 'running', ?)");
    insert.bind(1, std::to_string(seed));
    insert.bind(2, at);
    insert.exec();
    return {static_cast<int>(db_->getLastInsertRowid()), at};
}

std::string SqliteStore::rate_match(int match, const std::vector<Rated>& entrants,
                                    const std::vector<StoredGame>& games) {
    SQLite::Transaction transaction(*db_);
    const std::string at = now_text(*db_);
    SQLite::Statement state(*db_,
                            "UPDATE matches SET state = 'rated', finished = ?, rated_order = "
                            "(SELECT COALESCE(MAX(rated_order), 0) + 1 FROM matches) WHERE id = ? "
                            "AND state = 'running'");
    state.bind(1, at);
    state.bind(2, match);
    if (state.exec() != 1)
        throw std::logic_error(fmt::format("match {} is not running: it cannot be rated", match));
    SQLite::Statement entrant(*db_, "INSERT INTO match_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    SQLite::Statement rating(
        *db_, "UPDATE entries SET mu = ?, sigma = ?, matches = matches + 1 WHERE id = ?");
    for (const Rated& r : entrants) {
        entrant.bind(1, match);
        entrant.bind(2, r.entry);
        entrant.bind(3, r.seat);
        entrant.bind(4, r.rank);
        entrant.bind(5, r.before.mu);
        entrant.bind(6, r.before.sigma);
        entrant.bind(7, r.after.mu);
        entrant.bind(8, r.after.sigma);
        entrant.exec();
        entrant.reset();
        rating.bind(1, r.after.mu);
        rating.bind(2, r.after.sigma);
        rating.bind(3, r.entry);
        rating.exec();
        rating.reset();
    }
    SQLite::Statement game(
        *db_, "INSERT INTO games (match_id, rotation, log, result, counts) VALUES (?, ?, ?, ?, ?)");
    for (const StoredGame& g : games) {
        game.bind(1, match);
        game.bind(2, g.rotation);
        if (g.log.empty())
            game.bind(3);
        else
            game.bind(3, g.log);
        game.bind(4, to_json(g.result).dump());
        game.bind(5, counts_text(g.result));
        game.exec();
        game.reset();
    }
    transaction.commit();
    return at;
}

std::string SqliteStore::void_match(int match, const std::string& why) {
    const std::string at = now_text(*db_);
    SQLite::Statement update(*db_,
                             "UPDATE matches SET state = 'void', finished = ?, why = ? WHERE id = "
                             "? AND state = 'running'");
    update.bind(1, at);
    update.bind(2, why);
    update.bind(3, match);
    update.exec();
    return at;
}

int SqliteStore::void_running(const std::string& why) {
    SQLite::Statement update(*db_, fmt::format("UPDATE matches SET state = 'void', finished = {}, "
                                               "why = ? WHERE state = 'running'",
                                               now_sql));
    update.bind(1, why);
    return update.exec();
}

}  // namespace bg::arena
