#include "arena/store.hpp"

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

const char* const now_sql = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

}  // namespace

nlohmann::json to_json(const stats::WengLin& m) {
    return {{"model", "weng-lin-plackett-luce"},
            {"mu", m.mu},
            {"sigma", m.sigma},
            {"beta", m.beta},
            {"kappa", m.kappa},
            {"tau", m.tau}};
}

nlohmann::json to_json(const MatchmakerConfig& c) {
    return {{"max_players", c.max_players},
            {"max_wait_ms", c.max_wait_ms},
            {"randomness", c.randomness},
            {"repeat_penalty", c.repeat_penalty},
            {"window", c.window}};
}

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

Bot bot_from(SQLite::Statement& q) {
    Bot b;
    b.id = q.getColumn("id").getInt();
    b.name = q.getColumn("name").getString();
    b.owner = q.getColumn("owner").getString();
    if (!q.getColumn("command").isNull())
        b.command = q.getColumn("command").getString();
    if (!q.getColumn("anchor").isNull())
        b.anchor = q.getColumn("anchor").getDouble();
    b.state = q.getColumn("state").getString();
    b.paused = q.getColumn("paused").isNull() ? "" : q.getColumn("paused").getString();
    b.created = q.getColumn("created").getString();
    b.person = q.getColumn("person").getInt() != 0;
    b.paused_at = q.getColumn("paused_at").isNull() ? "" : q.getColumn("paused_at").getString();
    return b;
}

Entry entry_from(SQLite::Statement& q) {
    return {q.getColumn("id").getInt(),
            q.getColumn("bot_id").getInt(),
            q.getColumn("label").getString(),
            {q.getColumn("mu").getDouble(), q.getColumn("sigma").getDouble()},
            q.getColumn("matches").getInt(),
            q.getColumn("created").getString(),
            q.getColumn("checked").isNull() ? "" : q.getColumn("checked").getString(),
            q.getColumn("check_failed").isNull() ? "" : q.getColumn("check_failed").getString()};
}

const char* const bot_columns =
    "id, name, owner, command, anchor, state, paused, created, person, paused_at";
const char* const entry_columns =
    "id, bot_id, label, mu, sigma, matches, created, checked, check_failed";

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

// A game's referee counts as the games table holds them: one object a seat, or null where the
// seat has none.
std::string counts_text(const GameResult& result) {
    nlohmann::json seats = nlohmann::json::array();
    for (const PlayerResult& p : result.players)
        seats.push_back(p.counts ? nlohmann::json{{"stale", p.counts->stale},
                                                  {"timed", p.counts->timed},
                                                  {"think_ms", p.counts->think_ms}}
                                 : nlohmann::json(nullptr));
    return seats.dump();
}

StoredGame game_from(SQLite::Statement& q) {
    StoredGame g;
    g.rotation = q.getColumn("rotation").getInt();
    g.log = q.getColumn("log").isNull() ? "" : q.getColumn("log").getString();
    auto read = result_from_json(nlohmann::json::parse(q.getColumn("result").getString()));
    if (auto* result = std::get_if<GameResult>(&read))
        g.result = std::move(*result);
    if (q.getColumn("counts").isNull())
        return g;
    const auto seats = nlohmann::json::parse(q.getColumn("counts").getString());
    for (std::size_t i = 0; i < seats.size() && i < g.result.players.size(); ++i)
        if (seats[i].is_object())
            g.result.players[i].counts =
                PeelCounts{seats[i].at("stale").get<int>(), seats[i].at("timed").get<int>(),
                           seats[i].at("think_ms").get<double>()};
    return g;
}

}  // namespace

bool valid_name(const std::string& name) {
    return !name.empty() && name.size() <= 40 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.' || c == '-';
    });
}

std::string token_hash(const std::string& token) {
    return remote::token_digest(token);
}

std::variant<std::unique_ptr<Store>, std::string> Store::open(const std::string& path, bool create,
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
        std::unique_ptr<Store> store(new Store(std::move(db)));
        store->model_ = model_from(nlohmann::json::parse(
            store->db_->execAndGet("SELECT rating FROM arena WHERE id = 1").getString()));
        return store;
    } catch (const std::exception& e) {
        return fmt::format("{} is not an arena's database: {}", escape_for_terminal(path),
                           e.what());
    }
}

Store::Store(std::unique_ptr<SQLite::Database> db) : db_(std::move(db)) {}
Store::~Store() = default;

MatchmakerConfig Store::matchmaker() const {
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

void Store::set_matchmaker(const MatchmakerConfig& config) {
    SQLite::Statement update(*db_, "UPDATE arena SET matchmaker = ? WHERE id = 1");
    update.bind(1, to_json(config).dump());
    update.exec();
}

std::string Store::add_bot(const std::string& name, const std::string& owner,
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

std::string Store::add_person(const std::string& name, const std::string& code) {
    if (!code.empty() && !remote::token_problem(code).empty())
        throw std::invalid_argument("a code is 16 to 64 of A-Z a-z 0-9 _ -");
    Bot person;
    person.name = person.owner = name;
    person.person = true;
    return add_account(person, code.empty() ? remote::draw_token() : code);
}

std::string Store::add_account(const Bot& account, std::string token) {
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

std::vector<Bot> Store::bots(bool removed_too) const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM bots{} ORDER BY name", bot_columns,
                                          removed_too ? "" : " WHERE state != 'removed'"));
    std::vector<Bot> all;
    while (q.executeStep())
        all.push_back(bot_from(q));
    return all;
}

std::optional<Bot> Store::bot(const std::string& name) const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM bots WHERE name = ?", bot_columns));
    q.bind(1, name);
    if (!q.executeStep())
        return std::nullopt;
    return bot_from(q);
}

std::optional<Bot> Store::bot_by_token(const std::string& token) const {
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

void Store::set_state(int bot, const std::string& state) {
    SQLite::Statement update(*db_, "UPDATE bots SET state = ? WHERE id = ?");
    update.bind(1, state);
    update.bind(2, bot);
    update.exec();
}

void Store::set_paused(int bot, const std::string& why) {
    SQLite::Statement update(*db_,
                             fmt::format("UPDATE bots SET paused = ?, paused_at = {} WHERE id = ?",
                                         why.empty() ? "NULL" : now_sql));
    if (!why.empty())
        update.bind(1, why);
    update.bind(2, bot);
    update.exec();
}

std::string why_not_queued(const Bot& bot, const std::vector<Entry>& entries) {
    if (bot.state != "active")
        return bot.state;
    if (!bot.paused.empty())
        return "paused: " + bot.paused;
    if (bot.command || bot.person)
        return "";  // no conformance check: the organiser's bot, or a person
    const auto newest = std::max_element(
        entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.id < b.id; });
    if (newest == entries.end())
        return "";  // never connected: checked as it first does
    const std::string version = newest->label.empty() ? "" : " " + newest->label;
    if (!newest->check_failed.empty())
        return fmt::format("its version{} failed the conformance check: {}", version,
                           newest->check_failed);
    if (newest->checked.empty())
        return fmt::format("its version{} has not passed the conformance check yet", version);
    return "";
}

void Store::record_check(const Entry& entry, bool passed, const std::string& why) {
    SQLite::Transaction transaction(*db_);
    SQLite::Statement update(
        *db_, passed
                  ? fmt::format("UPDATE entries SET checked = {}, check_failed = NULL WHERE id = ?",
                                now_sql)
                  : std::string("UPDATE entries SET check_failed = ? WHERE id = ?"));
    if (!passed)
        update.bind(1, why);
    update.bind(passed ? 1 : 2, entry.id);
    update.exec();
    if (passed)
        set_paused(entry.bot, "");
    transaction.commit();
}

std::string Store::rotate_token(int bot) {
    const std::string token = remote::draw_token();
    SQLite::Statement update(*db_, "UPDATE bots SET token_hash = ? WHERE id = ?");
    update.bind(1, token_hash(token));
    update.bind(2, bot);
    update.exec();
    return token;
}

Entry Store::entry(const Bot& bot, const std::string& label) {
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

std::vector<Entry> Store::entries() const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM entries ORDER BY id", entry_columns));
    std::vector<Entry> all;
    while (q.executeStep())
        all.push_back(entry_from(q));
    return all;
}

std::vector<Entry> Store::entries_of(int bot) const {
    SQLite::Statement q(
        *db_, fmt::format("SELECT {} FROM entries WHERE bot_id = ? ORDER BY id", entry_columns));
    q.bind(1, bot);
    std::vector<Entry> all;
    while (q.executeStep())
        all.push_back(entry_from(q));
    return all;
}

int Store::begin_match(std::uint64_t seed) {
    SQLite::Statement insert(
        *db_, fmt::format("INSERT INTO matches (seed, state, started) VALUES (?, 'running', {})",
                          now_sql));
    insert.bind(1, std::to_string(seed));
    insert.exec();
    return static_cast<int>(db_->getLastInsertRowid());
}

void Store::rate_match(int match, const std::vector<Rated>& entrants,
                       const std::vector<StoredGame>& games) {
    SQLite::Transaction transaction(*db_);
    SQLite::Statement state(*db_, fmt::format("UPDATE matches SET state = 'rated', finished = {}, "
                                              "rated_order = (SELECT COALESCE(MAX(rated_order), "
                                              "0) + 1 FROM matches) WHERE id = ? AND state = "
                                              "'running'",
                                              now_sql));
    state.bind(1, match);
    if (state.exec() != 1)
        throw std::logic_error(fmt::format("match {} is not running: it cannot be rated", match));
    for (const Rated& r : entrants) {
        SQLite::Statement insert(*db_, "INSERT INTO match_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        insert.bind(1, match);
        insert.bind(2, r.entry);
        insert.bind(3, r.seat);
        insert.bind(4, r.rank);
        insert.bind(5, r.before.mu);
        insert.bind(6, r.before.sigma);
        insert.bind(7, r.after.mu);
        insert.bind(8, r.after.sigma);
        insert.exec();
        SQLite::Statement update(
            *db_, "UPDATE entries SET mu = ?, sigma = ?, matches = matches + 1 WHERE id = ?");
        update.bind(1, r.after.mu);
        update.bind(2, r.after.sigma);
        update.bind(3, r.entry);
        update.exec();
    }
    for (const StoredGame& g : games) {
        SQLite::Statement insert(
            *db_,
            "INSERT INTO games (match_id, rotation, log, result, counts) VALUES (?, ?, ?, ?, ?)");
        insert.bind(1, match);
        insert.bind(2, g.rotation);
        if (!g.log.empty())
            insert.bind(3, g.log);
        insert.bind(4, to_json(g.result).dump());
        insert.bind(5, counts_text(g.result));
        insert.exec();
    }
    transaction.commit();
}

void Store::void_match(int match, const std::string& why) {
    SQLite::Statement update(*db_, fmt::format("UPDATE matches SET state = 'void', finished = {}, "
                                               "why = ? WHERE id = ? AND state = 'running'",
                                               now_sql));
    update.bind(1, why);
    update.bind(2, match);
    update.exec();
}

int Store::void_running(const std::string& why) {
    SQLite::Statement update(*db_, fmt::format("UPDATE matches SET state = 'void', finished = {}, "
                                               "why = ? WHERE state = 'running'",
                                               now_sql));
    update.bind(1, why);
    return update.exec();
}

namespace {

const char* const match_columns = "id, seed, state, started, finished, rated_order, why";

// An entrant's row of match_entries from column `at` on: entry_id, seat, rank, mu_before,
// sigma_before, mu_after, sigma_after.
Rated rated_from(SQLite::Statement& q, int at) {
    return {q.getColumn(at).getInt(),
            q.getColumn(at + 1).getInt(),
            q.getColumn(at + 2).getInt(),
            {q.getColumn(at + 3).getDouble(), q.getColumn(at + 4).getDouble()},
            {q.getColumn(at + 5).getDouble(), q.getColumn(at + 6).getDouble()}};
}

Match match_from(SQLite::Statement& q) {
    Match m;
    m.id = q.getColumn("id").getInt();
    m.seed = std::stoull(q.getColumn("seed").getString());
    m.state = q.getColumn("state").getString();
    m.started = q.getColumn("started").getString();
    m.finished = q.getColumn("finished").isNull() ? "" : q.getColumn("finished").getString();
    if (!q.getColumn("rated_order").isNull())
        m.rated_order = q.getColumn("rated_order").getInt();
    m.why = q.getColumn("why").isNull() ? "" : q.getColumn("why").getString();
    return m;
}

}  // namespace

std::vector<Rated> Store::entrants_of(int match) const {
    SQLite::Statement q(*db_,
                        "SELECT entry_id, seat, rank, mu_before, sigma_before, mu_after, "
                        "sigma_after FROM match_entries WHERE match_id = ? ORDER BY seat");
    q.bind(1, match);
    std::vector<Rated> all;
    while (q.executeStep())
        all.push_back(rated_from(q, 0));
    return all;
}

std::vector<Match> Store::matches() const {
    SQLite::Statement q(*db_,
                        fmt::format("SELECT {} FROM matches ORDER BY id DESC", match_columns));
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    for (Match& m : all)
        if (m.state == "rated")
            m.entrants = entrants_of(m.id);
    return all;
}

std::vector<Match> Store::last_over(int n) const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM matches WHERE state != 'running' "
                                          "ORDER BY finished DESC, id DESC LIMIT ?",
                                          match_columns));
    q.bind(1, n);
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    return all;
}

std::vector<Match> Store::rated_in_order() const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM matches WHERE state = 'rated' ORDER BY "
                                          "rated_order",
                                          match_columns));
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    for (Match& m : all)
        m.entrants = entrants_of(m.id);
    return all;
}

std::optional<Match> Store::match(int id) const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM matches WHERE id = ?", match_columns));
    q.bind(1, id);
    if (!q.executeStep())
        return std::nullopt;
    Match m = match_from(q);
    if (m.state == "rated")
        m.entrants = entrants_of(m.id);
    return m;
}

std::vector<Store::Played> Store::history(int entry) const {
    SQLite::Statement q(*db_,
                        "SELECT m.id, m.finished, e.entry_id, e.seat, e.rank, e.mu_before, "
                        "e.sigma_before, e.mu_after, e.sigma_after FROM match_entries e "
                        "JOIN matches m ON m.id = e.match_id WHERE e.entry_id = ? ORDER BY "
                        "m.rated_order");
    q.bind(1, entry);
    std::vector<Played> all;
    while (q.executeStep())
        all.push_back({q.getColumn(0).getInt(), q.getColumn(1).getString(), rated_from(q, 2)});
    return all;
}

std::pair<int, int> Store::matches_in_last_day(int bot) const {
    SQLite::Statement q(*db_,
                        "SELECT COUNT(*), COALESCE(CAST((julianday(MIN(m.finished)) + 1 - "
                        "julianday('now')) * 86400 AS INTEGER) + 1, 0) FROM match_entries e "
                        "JOIN entries n ON n.id = e.entry_id JOIN matches m ON m.id = "
                        "e.match_id WHERE n.bot_id = ? AND m.finished >= strftime("
                        "'%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')");
    q.bind(1, bot);
    q.executeStep();
    return {q.getColumn(0).getInt(), q.getColumn(1).getInt()};
}

std::vector<RecentMatch> Store::recent_groups(int n) const {
    SQLite::Statement q(*db_,
                        "SELECT e.match_id, e.entry_id FROM match_entries e JOIN matches m "
                        "ON m.id = e.match_id WHERE m.rated_order > (SELECT "
                        "COALESCE(MAX(rated_order), 0) FROM matches) - ? ORDER BY "
                        "m.rated_order, e.seat");
    q.bind(1, n);
    std::vector<RecentMatch> groups;
    int last = 0;
    while (q.executeStep()) {
        if (groups.empty() || q.getColumn(0).getInt() != last)
            groups.emplace_back();
        last = q.getColumn(0).getInt();
        groups.back().push_back(q.getColumn(1).getInt());
    }
    return groups;
}

std::vector<StoredGame> Store::games_of(int match) const {
    SQLite::Statement q(*db_,
                        "SELECT rotation, log, result, counts FROM games WHERE match_id = ? "
                        "ORDER BY rotation");
    q.bind(1, match);
    std::vector<StoredGame> all;
    while (q.executeStep())
        all.push_back(game_from(q));
    return all;
}

std::vector<Store::SeatGame> Store::games_of_entry(int entry) const {
    SQLite::Statement q(*db_,
                        "SELECT g.match_id, e.seat, (SELECT COUNT(*) FROM match_entries x WHERE "
                        "x.match_id = g.match_id) AS players, g.rotation, g.log, g.result, "
                        "g.counts FROM games g JOIN match_entries e ON e.match_id = g.match_id "
                        "WHERE e.entry_id = ? ORDER BY g.match_id, g.rotation");
    q.bind(1, entry);
    std::vector<SeatGame> all;
    while (q.executeStep())
        all.push_back({q.getColumn(0).getInt(), q.getColumn(1).getInt(), q.getColumn(2).getInt(),
                       game_from(q)});
    return all;
}

std::vector<std::pair<int, Rated>> Store::tables_of(int entry) const {
    SQLite::Statement q(*db_,
                        "SELECT match_id, entry_id, seat, rank, mu_before, sigma_before, "
                        "mu_after, sigma_after FROM match_entries WHERE match_id IN (SELECT "
                        "match_id FROM match_entries WHERE entry_id = ?) ORDER BY match_id, seat");
    q.bind(1, entry);
    std::vector<std::pair<int, Rated>> all;
    while (q.executeStep())
        all.push_back({q.getColumn(0).getInt(), rated_from(q, 1)});
    return all;
}

}  // namespace bg::arena
