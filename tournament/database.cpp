#include "tournament/database.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::tournament {

namespace {

// "BgTn": the file is a tournament's, not any SQLite database.
constexpr int application_id = 0x4267546e;

const char* const schema = R"(
CREATE TABLE tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    options TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    stopped TEXT
);
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    command TEXT NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    deal INTEGER NOT NULL,
    seed TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done')),
    attempts INTEGER NOT NULL DEFAULT 0,
    end TEXT,
    winner_seat INTEGER,
    peels INTEGER,
    bunch INTEGER,
    duration_ms INTEGER,
    log TEXT,
    finished TEXT,
    host_version TEXT,
    race_ms REAL,
    contended INTEGER,
    replay_of INTEGER REFERENCES games (id),
    CHECK ((state = 'done') = (end IS NOT NULL))
);
CREATE INDEX games_state ON games (state);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots (id),
    outcome TEXT CHECK (outcome IN ('won', 'lost', 'disqualified')),
    standing INTEGER,
    tiles INTEGER,
    peels INTEGER,
    dumps INTEGER,
    stale_peels INTEGER,
    timed_peels INTEGER,
    think_ms REAL,
    reason TEXT,
    protocol TEXT,
    cpu_ms REAL,
    memory_peak_bytes INTEGER,
    process_game INTEGER,
    restarted INTEGER,
    cpu_wait_ms REAL,
    cpu_wait_note TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_bot ON seats (bot_id);
)";

void configure(SQLite::Database& db) {
    db.exec("PRAGMA foreign_keys = ON");
    // Readers (standings, games) wait for a moment rather than fail while a result is written.
    db.exec("PRAGMA busy_timeout = 10000");
}

std::string shown(const std::string& path) {
    return escape_for_terminal(path);
}

}  // namespace

std::string_view to_string(State state) {
    switch (state) {
        case State::pending:
            return "pending";
        case State::running:
            return "running";
        case State::done:
            return "done";
    }
    return "?";
}

Database::Database(std::unique_ptr<SQLite::Database> db, std::string path)
    : db_(std::move(db)), path_(std::move(path)) {}

Database::~Database() {
    // SQLite first: closing any descriptor of the file drops every POSIX lock this process holds
    // on it, SQLite's own included.
    db_.reset();
    if (lock_fd_ >= 0)
        ::close(lock_fd_);
}

namespace {

// The tournament's options, its bots and its schedule (this shard's games), each column by
// name.
void write_schedule(SQLite::Database& db, const TournamentSpec& spec) {
    SQLite::Statement tournament(db, "INSERT INTO tournament (id, options) VALUES (1, :options)");
    tournament.bind(":options", to_json(spec).dump());
    tournament.exec();
    SQLite::Statement bot(db, "INSERT INTO bots (id, name, command) VALUES (:id, :name, :command)");
    for (std::size_t i = 0; i < spec.bots.size(); ++i) {
        bot.bind(":id", static_cast<int>(i));
        bot.bind(":name", spec.bots[i].name);
        bot.bind(":command", spec.bots[i].command);
        bot.exec();
        bot.reset();
    }
    auto made = schedule(spec.schedule_options());
    if (auto* error = std::get_if<std::string>(&made))
        throw std::invalid_argument(*error);
    SQLite::Statement game(db,
                           "INSERT INTO games (id, deal, seed, table_no, rotation) VALUES (:id, "
                           ":deal, :seed, :table_no, :rotation)");
    SQLite::Statement seat(
        db, "INSERT INTO seats (game_id, seat, bot_id) VALUES (:game_id, :seat, :bot_id)");
    int id = 0;
    for (const auto& g : std::get<std::vector<Fixture>>(made)) {
        if (!spec.in_shard(++id))
            continue;
        game.bind(":id", id);
        game.bind(":deal", g.deal);
        game.bind(":seed", std::to_string(g.seed));
        game.bind(":table_no", g.table);
        game.bind(":rotation", g.rotation);
        game.exec();
        game.reset();
        for (std::size_t s = 0; s < g.seats.size(); ++s) {
            seat.bind(":game_id", id);
            seat.bind(":seat", static_cast<int>(s));
            seat.bind(":bot_id", g.seats[s]);
            seat.exec();
            seat.reset();
        }
    }
}

}  // namespace

std::variant<std::unique_ptr<Database>, std::string> Database::create(const std::string& path,
                                                                      const TournamentSpec& spec) {
    // The file is made here, exclusively: an existing file (a tournament, or anything else) is
    // never written over.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == EEXIST)
            return fmt::format(
                "{} already exists: resume its tournament with 'tournament resume --db {}', or "
                "give a new file",
                shown(path), shown(path));
        return fmt::format("cannot create the database {}: {}", shown(path), std::strerror(errno));
    }
    ::close(fd);
    try {
        auto db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE);
        // First the wait for a reader that has the new file open (a script watching for the
        // tournament to appear): switching to WAL takes the file for a moment.
        configure(*db);
        // WAL: readers see the last committed game while the runner writes; FULL: the schedule
        // survives a power loss (and each result, below).
        db->exec("PRAGMA journal_mode = WAL");
        db->exec("PRAGMA synchronous = FULL");
        SQLite::Transaction transaction(*db);
        db->exec(fmt::format("PRAGMA application_id = {}", application_id));
        db->exec(fmt::format("PRAGMA user_version = {}", schema_version));
        db->exec(schema);
        write_schedule(*db, spec);
        transaction.commit();
        db->exec("PRAGMA synchronous = NORMAL");
        std::unique_ptr<Database> database(new Database(std::move(db), path));
        database->spec_ = spec;
        return database;
    } catch (const std::exception& e) {
        std::remove(path.c_str());
        return fmt::format("cannot create the database {}: {}", shown(path), e.what());
    }
}

std::variant<std::unique_ptr<Database>, std::string> Database::open(const std::string& path,
                                                                    Access access) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0)
        return fmt::format("cannot open the database {}: {}{}", shown(path), std::strerror(errno),
                           errno == ENOENT ? " (start a tournament with 'tournament run')" : "");
    if (!S_ISREG(status.st_mode))
        return fmt::format("{} is not a tournament database: not a file", shown(path));
    try {
        // A reader opens the file for writing too where it may, only to leave no WAL files
        // behind when it closes (a read-only connection cannot remove them), and writes nothing.
        std::unique_ptr<SQLite::Database> db;
        try {
            db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE);
        } catch (const SQLite::Exception&) {
            if (access == Access::write)
                throw;
            db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READONLY);
        }
        if (access == Access::read)
            db->exec("PRAGMA query_only = ON");
        configure(*db);
        const int id = db->execAndGet("PRAGMA application_id").getInt();
        const int version = db->execAndGet("PRAGMA user_version").getInt();
        if (id != application_id)
            return fmt::format("{} is an SQLite database, but not a tournament's", shown(path));
        if (version < oldest_schema_version || version > schema_version)
            return fmt::format(
                "{} holds a tournament of schema version {}; this program reads versions {} to {}",
                shown(path), version, oldest_schema_version, schema_version);
        if (access == Access::write && version < schema_version) {
            SQLite::Transaction upgrade(*db);
            // Version 1 to 2: what each player used, and the version of the host that played
            // each game: NULL for the games played before.
            if (version < 2) {
                db->exec("ALTER TABLE games ADD COLUMN host_version TEXT");
                db->exec("ALTER TABLE seats ADD COLUMN cpu_ms REAL");
                db->exec("ALTER TABLE seats ADD COLUMN memory_peak_bytes INTEGER");
            }
            // Version 2 to 3 (protocol v004): which game of its process each seat's was, and
            // whether its process was a restart: NULL for the games played before.
            if (version < 3) {
                db->exec("ALTER TABLE seats ADD COLUMN process_game INTEGER");
                db->exec("ALTER TABLE seats ADD COLUMN restarted INTEGER");
            }
            // Version 3 to 4 (fair races): the race, its contention and the players' waits for
            // a CPU (NULL, not known, for the games played before), and replays.
            db->exec("ALTER TABLE games ADD COLUMN race_ms REAL");
            db->exec("ALTER TABLE games ADD COLUMN contended INTEGER");
            db->exec("ALTER TABLE games ADD COLUMN replay_of INTEGER REFERENCES games (id)");
            db->exec("ALTER TABLE seats ADD COLUMN cpu_wait_ms REAL");
            db->exec("ALTER TABLE seats ADD COLUMN cpu_wait_note TEXT");
            db->exec(fmt::format("PRAGMA user_version = {}", schema_version));
            upgrade.commit();
        }
        if (access == Access::write)
            db->exec("PRAGMA synchronous = NORMAL");
        std::unique_ptr<Database> database(new Database(std::move(db), path));
        database->version_ = access == Access::write ? schema_version : version;
        if (auto error = database->load_spec())
            return fmt::format("{}: {}", shown(path), *error);
        return database;
    } catch (const SQLite::Exception& e) {
        return fmt::format("{} is not a tournament database: {}", shown(path), e.what());
    }
}

std::optional<std::string> Database::load_spec() {
    SQLite::Statement query(*db_, "SELECT options FROM tournament WHERE id = 1");
    if (!query.executeStep())
        return std::string("it holds no tournament");
    const auto parsed =
        nlohmann::json::parse(query.getColumn("options").getString(), nullptr, false);
    auto spec = spec_from_json(parsed);
    if (auto* error = std::get_if<std::string>(&spec))
        return *error;
    spec_ = std::move(std::get<TournamentSpec>(spec));
    return std::nullopt;
}

std::optional<std::string> Database::lock_for_running() {
    if (lock_fd_ >= 0)
        return std::nullopt;
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fmt::format("cannot open {}: {}", shown(path_), std::strerror(errno));
    // flock, not SQLite's own fcntl locks (which it takes and drops by itself): the lock lasts as
    // long as the runner, and goes with it however it ends.
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        ::close(fd);
        return error == EWOULDBLOCK
                   ? fmt::format("another tournament runner is playing {} now", shown(path_))
                   : fmt::format("cannot lock {}: {}", shown(path_), std::strerror(error));
    }
    lock_fd_ = fd;
    return std::nullopt;
}

int Database::requeue_running() {
    return db_->exec("UPDATE games SET state = 'pending' WHERE state = 'running'");
}

namespace {

// A seat's result into the update's columns, by name.
void write_seat(SQLite::Statement& seat, const SeatResult& s) {
    seat.bind(":outcome", s.outcome);
    seat.bind(":standing", s.standing);
    seat.bind(":tiles", s.tiles);
    seat.bind(":peels", s.peels);
    seat.bind(":dumps", s.dumps);
    seat.bind(":stale_peels", s.stale_peels);
    seat.bind(":timed_peels", s.timed_peels);
    seat.bind(":think_ms", s.think_ms);
    seat.bind(":reason", s.reason);
    seat.bind(":protocol", s.protocol);
    if (s.cpu_ms)
        seat.bind(":cpu_ms", *s.cpu_ms);
    else
        seat.bind(":cpu_ms");
    if (s.memory_peak_bytes)
        seat.bind(":memory_peak_bytes", static_cast<std::int64_t>(*s.memory_peak_bytes));
    else
        seat.bind(":memory_peak_bytes");
    if (s.process_game)
        seat.bind(":process_game", *s.process_game);
    else
        seat.bind(":process_game");
    if (s.restarted)
        seat.bind(":restarted", static_cast<int>(*s.restarted));
    else
        seat.bind(":restarted");
    if (s.cpu_wait_ms)
        seat.bind(":cpu_wait_ms", *s.cpu_wait_ms);
    else
        seat.bind(":cpu_wait_ms");
    if (s.cpu_wait_note.empty())
        seat.bind(":cpu_wait_note");
    else
        seat.bind(":cpu_wait_note", s.cpu_wait_note);
}

// A game row's columns, by name (a schema 1 database has no host_version, one before schema 4
// no race_ms, contended nor replay_of: NULL).
FixtureRecord game_row(const SQLite::Statement& game) {
    FixtureRecord row;
    row.id = game.getColumn("id").getInt();
    row.game.deal = game.getColumn("deal").getInt();
    row.game.seed = std::stoull(game.getColumn("seed").getString());
    row.game.table = game.getColumn("table_no").getInt();
    row.game.rotation = game.getColumn("rotation").getInt();
    const std::string state = game.getColumn("state").getString();
    row.state = state == "done"      ? State::done
                : state == "running" ? State::running
                                     : State::pending;
    row.attempts = game.getColumn("attempts").getInt();
    if (!game.getColumn("replay_of").isNull())
        row.replay_of = game.getColumn("replay_of").getInt();
    if (row.state != State::done)
        return row;
    GameResult result;
    result.end = game.getColumn("end").getString();
    if (!game.getColumn("winner_seat").isNull())
        result.winner_seat = game.getColumn("winner_seat").getInt();
    result.peels = game.getColumn("peels").getInt();
    result.bunch = game.getColumn("bunch").getInt();
    result.duration_ms = static_cast<std::uint64_t>(game.getColumn("duration_ms").getInt64());
    result.log = game.getColumn("log").getString();
    result.host_version = game.getColumn("host_version").getString();  // "" when NULL
    if (!game.getColumn("race_ms").isNull())
        result.race_ms = game.getColumn("race_ms").getDouble();
    if (!game.getColumn("contended").isNull())
        result.contended = game.getColumn("contended").getInt() != 0;
    row.result = std::move(result);
    return row;
}

// A seat's result columns, by name (a schema 1 database has no cpu_ms nor memory_peak_bytes, a
// schema 2 one no process_game nor restarted, a schema 3 one no cpu_wait_ms nor cpu_wait_note).
SeatResult seat_result(const SQLite::Statement& seat) {
    SeatResult s;
    s.outcome = seat.getColumn("outcome").getString();
    s.standing = seat.getColumn("standing").getInt();
    s.tiles = seat.getColumn("tiles").getInt();
    s.peels = seat.getColumn("peels").getInt();
    s.dumps = seat.getColumn("dumps").getInt();
    s.stale_peels = seat.getColumn("stale_peels").getInt();
    s.timed_peels = seat.getColumn("timed_peels").getInt();
    s.think_ms = seat.getColumn("think_ms").getDouble();
    s.reason = seat.getColumn("reason").getString();
    s.protocol = seat.getColumn("protocol").getString();
    if (!seat.getColumn("cpu_ms").isNull())
        s.cpu_ms = seat.getColumn("cpu_ms").getDouble();
    if (!seat.getColumn("memory_peak_bytes").isNull())
        s.memory_peak_bytes =
            static_cast<std::uint64_t>(seat.getColumn("memory_peak_bytes").getInt64());
    if (!seat.getColumn("process_game").isNull())
        s.process_game = seat.getColumn("process_game").getInt();
    if (!seat.getColumn("restarted").isNull())
        s.restarted = seat.getColumn("restarted").getInt() != 0;
    if (!seat.getColumn("cpu_wait_ms").isNull())
        s.cpu_wait_ms = seat.getColumn("cpu_wait_ms").getDouble();
    s.cpu_wait_note = seat.getColumn("cpu_wait_note").getString();  // "" when NULL
    return s;
}

}  // namespace

std::vector<FixtureRecord> Database::games() const {
    std::vector<FixtureRecord> rows;
    std::unordered_map<int, std::size_t> index;  // game id -> its row
    SQLite::Transaction snapshot(*db_);          // one consistent view, however the runner writes
    SQLite::Statement game(
        *db_, std::string("SELECT id, deal, seed, table_no, rotation, state, attempts, end, "
                          "winner_seat, peels, bunch, duration_ms, log, ") +
                  (version_ >= 2 ? "host_version, " : "NULL AS host_version, ") +
                  (version_ >= 4 ? "race_ms, contended, replay_of"
                                 : "NULL AS race_ms, NULL AS contended, NULL AS replay_of") +
                  " FROM games ORDER BY id");
    while (game.executeStep()) {
        FixtureRecord row = game_row(game);
        if (!rows.empty() && row.id <= rows.back().id)
            throw std::runtime_error("the games' ids do not increase");
        index[row.id] = rows.size();
        rows.push_back(std::move(row));
    }
    SQLite::Statement seat(
        *db_, std::string("SELECT game_id, seat, bot_id, outcome, standing, tiles, peels, dumps, "
                          "stale_peels, timed_peels, think_ms, reason, protocol, ") +
                  (version_ >= 2 ? "cpu_ms, memory_peak_bytes, "
                                 : "NULL AS cpu_ms, NULL AS memory_peak_bytes, ") +
                  (version_ >= 3 ? "process_game, restarted, "
                                 : "NULL AS process_game, NULL AS restarted, ") +
                  (version_ >= 4 ? "cpu_wait_ms, cpu_wait_note"
                                 : "NULL AS cpu_wait_ms, NULL AS cpu_wait_note") +
                  " FROM seats ORDER BY game_id, seat");
    while (seat.executeStep()) {
        const int id = seat.getColumn("game_id").getInt();
        const auto found = index.find(id);
        if (found == index.end() || seat.getColumn("seat").getInt() !=
                                        static_cast<int>(rows[found->second].game.seats.size()))
            throw std::runtime_error(fmt::format("game {}'s seats are not 0, 1, 2...", id));
        FixtureRecord& row = rows[found->second];
        row.game.seats.push_back(seat.getColumn("bot_id").getInt());
        if (row.result)
            row.result->seats.push_back(seat_result(seat));
    }
    snapshot.commit();
    // A done replay takes its game's place in the standings.
    for (const auto& row : rows)
        if (row.replay_of && row.result)
            if (const auto found = index.find(*row.replay_of); found != index.end())
                rows[found->second].replayed_by = row.id;
    return rows;
}

std::vector<int> Database::add_replays() {
    const std::vector<FixtureRecord> rows = games();
    std::unordered_set<int> replayed;
    for (const auto& row : rows)
        if (row.replay_of)
            replayed.insert(*row.replay_of);
    std::vector<int> added;
    durably([&] {
        SQLite::Transaction transaction(*db_);
        SQLite::Statement game(*db_,
                               "INSERT INTO games (id, deal, seed, table_no, rotation, replay_of) "
                               "VALUES (:id, :deal, :seed, :table_no, :rotation, :replay_of)");
        SQLite::Statement seat(
            *db_, "INSERT INTO seats (game_id, seat, bot_id) VALUES (:game_id, :seat, :bot_id)");
        int id = rows.empty() ? 0 : rows.back().id;
        for (const auto& row : rows) {
            if (!row.result || row.result->contended != true || replayed.count(row.id))
                continue;
            game.bind(":id", ++id);
            game.bind(":deal", row.game.deal);
            game.bind(":seed", std::to_string(row.game.seed));
            game.bind(":table_no", row.game.table);
            game.bind(":rotation", row.game.rotation);
            game.bind(":replay_of", row.id);
            game.exec();
            game.reset();
            for (std::size_t s = 0; s < row.game.seats.size(); ++s) {
                seat.bind(":game_id", id);
                seat.bind(":seat", static_cast<int>(s));
                seat.bind(":bot_id", row.game.seats[s]);
                seat.exec();
                seat.reset();
            }
            added.push_back(id);
        }
        transaction.commit();
    });
    return added;
}

void Database::mark_running(int id) {
    SQLite::Statement update(*db_,
                             "UPDATE games SET state = 'running', attempts = attempts + 1 WHERE "
                             "id = :id AND state = 'pending'");
    update.bind(":id", id);
    if (update.exec() != 1)
        throw std::runtime_error(fmt::format("game {} was not pending", id));
}

void Database::mark_pending(int id) {
    SQLite::Statement update(*db_,
                             "UPDATE games SET state = 'pending' WHERE id = :id AND state = "
                             "'running'");
    update.bind(":id", id);
    update.exec();
}

// A game's state going to running or back to pending needs no sync of its own (synchronous
// NORMAL): after a power loss it is pending either way, which resume treats alike. A result is
// committed with FULL, which syncs the log with every change before it.
void Database::durably(const std::function<void()>& change) {
    db_->exec("PRAGMA synchronous = FULL");
    try {
        change();
    } catch (...) {
        db_->exec("PRAGMA synchronous = NORMAL");
        throw;
    }
    db_->exec("PRAGMA synchronous = NORMAL");
}

void Database::record(const std::vector<std::pair<int, const GameResult*>>& results) {
    durably([&] {
        SQLite::Transaction transaction(*db_);
        write_results(results, true);
        transaction.commit();
    });
}

void Database::write_results(const std::vector<std::pair<int, const GameResult*>>& results,
                             bool from_running) {
    SQLite::Statement game(
        *db_, std::string("UPDATE games SET state = 'done', end = :end, winner_seat = "
                          ":winner_seat, peels = :peels, bunch = :bunch, duration_ms = "
                          ":duration_ms, log = :log, host_version = :host_version, race_ms = "
                          ":race_ms, contended = :contended, finished = datetime('now') WHERE id "
                          "= :id AND ") +
                  (from_running ? "state = 'running'" : "state != 'done'"));
    SQLite::Statement seat(*db_,
                           "UPDATE seats SET outcome = :outcome, standing = :standing, tiles = "
                           ":tiles, peels = :peels, dumps = :dumps, stale_peels = :stale_peels, "
                           "timed_peels = :timed_peels, think_ms = :think_ms, reason = :reason, "
                           "protocol = :protocol, cpu_ms = :cpu_ms, memory_peak_bytes = "
                           ":memory_peak_bytes, process_game = :process_game, restarted = "
                           ":restarted, cpu_wait_ms = :cpu_wait_ms, cpu_wait_note = "
                           ":cpu_wait_note WHERE game_id = :game_id AND seat = :seat");
    for (const auto& [id, result] : results) {
        game.bind(":end", result->end);
        if (result->winner_seat)
            game.bind(":winner_seat", *result->winner_seat);
        else
            game.bind(":winner_seat");
        game.bind(":peels", result->peels);
        game.bind(":bunch", result->bunch);
        game.bind(":duration_ms", static_cast<std::int64_t>(result->duration_ms));
        game.bind(":log", result->log);
        if (result->host_version.empty())
            game.bind(":host_version");
        else
            game.bind(":host_version", result->host_version);
        if (result->race_ms)
            game.bind(":race_ms", *result->race_ms);
        else
            game.bind(":race_ms");
        if (result->contended)
            game.bind(":contended", static_cast<int>(*result->contended));
        else
            game.bind(":contended");
        game.bind(":id", id);
        if (game.exec() != 1)
            throw std::runtime_error(
                fmt::format("game {} was not {}", id, from_running ? "running" : "to be done"));
        game.reset();
        for (std::size_t i = 0; i < result->seats.size(); ++i) {
            write_seat(seat, result->seats[i]);
            seat.bind(":game_id", id);
            seat.bind(":seat", static_cast<int>(i));
            if (seat.exec() != 1)
                throw std::runtime_error(fmt::format("game {} has no seat {}", id, i));
            seat.reset();
        }
    }
}

Database::Merged Database::merge(const std::vector<FixtureRecord>& rows) {
    Merged merged;
    std::unordered_map<int, const GameResult*> here;
    std::unordered_map<int, const Fixture*> scheduled;
    const std::vector<FixtureRecord> mine = games();
    for (const auto& row : mine) {
        scheduled[row.id] = &row.game;
        if (row.result)
            here[row.id] = &*row.result;
    }
    std::unordered_map<int, const GameResult*> incoming;
    for (const auto& row : rows) {
        if (!row.result)
            continue;
        if (row.replay_of) {
            ++merged.replays;
            continue;
        }
        const auto slot = scheduled.find(row.id);
        if (slot == scheduled.end() || !(*slot->second == row.game))
            throw std::runtime_error(fmt::format("game {} is not this tournament's", row.id));
        const auto [it, first] = incoming.try_emplace(row.id, &*row.result);
        if (!first && !(*it->second == *row.result))
            merged.conflicts.push_back(row.id);
    }
    std::vector<std::pair<int, const GameResult*>> added;
    for (const auto& [id, result] : incoming) {
        const auto done = here.find(id);
        if (done == here.end())
            added.emplace_back(id, result);
        else if (*done->second == *result)
            ++merged.already;
        else
            merged.conflicts.push_back(id);
    }
    std::sort(merged.conflicts.begin(), merged.conflicts.end());
    merged.conflicts.erase(std::unique(merged.conflicts.begin(), merged.conflicts.end()),
                           merged.conflicts.end());
    if (!merged.conflicts.empty())
        return merged;
    std::sort(added.begin(), added.end());
    durably([&] {
        SQLite::Transaction transaction(*db_);
        write_results(added, false);
        transaction.commit();
    });
    merged.added = static_cast<int>(added.size());
    return merged;
}

std::optional<std::string> Database::stopped() const {
    SQLite::Statement query(*db_, "SELECT stopped FROM tournament WHERE id = 1");
    if (!query.executeStep() || query.getColumn("stopped").isNull())
        return std::nullopt;
    return query.getColumn("stopped").getString();
}

void Database::set_stopped(const std::string& why) {
    durably([&] {
        SQLite::Statement update(*db_, "UPDATE tournament SET stopped = :why WHERE id = 1");
        update.bind(":why", why);
        update.exec();
    });
}

}  // namespace bg::tournament
