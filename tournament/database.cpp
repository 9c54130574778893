#include "tournament/database.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "core/text.hpp"
#include "sqlite/schema_file.hpp"

namespace bg::tournament {

namespace {

// "BgTn": the file is a tournament's, not any SQLite database.
constexpr int application_id = 0x4267546e;

template <class T>
constexpr bool is_optional = false;
template <class T>
constexpr bool is_optional<std::optional<T>> = true;

// A value into its statement's parameter, and a column's value back: NULL is none.
template <class T>
void bind_value(SQLite::Statement& statement, const char* parameter, const T& value) {
    if constexpr (is_optional<T>) {
        if (value)
            bind_value(statement, parameter, *value);
        else
            statement.bind(parameter);
    } else if constexpr (std::is_same_v<T, bool>) {
        statement.bind(parameter, static_cast<int>(value));
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
        statement.bind(parameter, static_cast<std::int64_t>(value));
    } else {
        statement.bind(parameter, value);
    }
}

template <class T>
void read_value(const SQLite::Column& column, T& value) {
    if constexpr (is_optional<T>) {
        if (column.isNull())
            value.reset();
        else
            read_value(column, value.emplace());
    } else if constexpr (std::is_same_v<T, bool>) {
        value = column.getInt() != 0;
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
        value = static_cast<std::uint64_t>(column.getInt64());
    } else if constexpr (std::is_same_v<T, double>) {
        value = column.getDouble();
    } else if constexpr (std::is_same_v<T, int>) {
        value = column.getInt();
    } else {
        value = column.getString();
    }
}

// The member a path of member pointers leads to (&PlayedGame::result, &GameResult::peels).
template <auto First, auto... Rest, class T>
auto& member(T& object) {
    if constexpr (sizeof...(Rest) == 0)
        return object.*First;
    else
        return member<Rest...>(object.*First);
}

// A column of a result: its name and SQL type, the schema version that added it, and how it is
// written from the result (bound to the parameter named as the column, with a colon) and read
// back into it (a column a database of its version lacks is read as NULL). Each list below is
// the one place a column is named: the schema, its upgrades, the reads and the writes are made
// from it.
template <class Result>
struct Column {
    const char* name;
    const char* type;
    int since;
    void (*write)(SQLite::Statement&, const char* parameter, const Result&);
    void (*read)(const SQLite::Column&, Result&);
};

// A column that holds a member as it is (an optional one NULL when none).
template <class Result, auto... Path>
constexpr Column<Result> plain(const char* name, const char* type, int since) {
    return {name, type, since,
            [](SQLite::Statement& s, const char* p, const Result& r) {
                bind_value(s, p, member<Path...>(r));
            },
            [](const SQLite::Column& c, Result& r) { read_value(c, member<Path...>(r)); }};
}

// A column that holds a text member, NULL when it is empty.
template <class Result, auto... Path>
constexpr Column<Result> text_or_null(const char* name, int since) {
    return {name, "TEXT", since,
            [](SQLite::Statement& s, const char* p, const Result& r) {
                const std::string& text = member<Path...>(r);
                bind_value(s, p, text.empty() ? std::nullopt : std::optional(text));
            },
            [](const SQLite::Column& c, Result& r) { member<Path...>(r) = c.getString(); }};
}

// The value an optional holds, made where it holds none.
template <class T>
T& made(std::optional<T>& value) {
    if (!value)
        value.emplace();
    return *value;
}

// A column of a player's peel counts (PeelCounts), which a done game always has.
template <auto Count>
constexpr Column<PlayerResult> count(const char* name, const char* type) {
    return {name, type, 1,
            [](SQLite::Statement& s, const char* p, const PlayerResult& r) {
                bind_value(s, p, r.counts.value_or(PeelCounts{}).*Count);
            },
            [](const SQLite::Column& c, PlayerResult& r) { read_value(c, made(r.counts).*Count); }};
}

// A column of a remote player's connection: NULL for a process (link_connections says which).
template <auto Figure>
constexpr Column<PlayerResult> link(const char* name, const char* type) {
    return {name, type, 5,
            [](SQLite::Statement& s, const char* p, const PlayerResult& r) {
                if (r.remote)
                    bind_value(s, p, *r.remote.*Figure);
                else
                    s.bind(p);
            },
            [](const SQLite::Column& c, PlayerResult& r) {
                if (!c.isNull() || r.remote)
                    read_value(c, made(r.remote).*Figure);
            }};
}

using G = PlayedGame;
using P = PlayerResult;

// A done game's own columns, in the games table.
const Column<G> game_columns[] = {
    {"end", "TEXT", 1,
     [](SQLite::Statement& s, const char* p, const G& g) {
         bind_value(
             s, p,
             g.result.end ? std::optional(std::string(to_string(*g.result.end))) : std::nullopt);
     },
     [](const SQLite::Column& c, G& g) { g.result.end = end_from_string(c.getString()); }},
    {"winner_seat", "INTEGER", 1,
     [](SQLite::Statement& s, const char* p, const G& g) {
         bind_value(
             s, p,
             g.result.winner ? std::optional(static_cast<int>(*g.result.winner)) : std::nullopt);
     },
     [](const SQLite::Column& c, G& g) {
         if (!c.isNull())
             g.result.winner = static_cast<PlayerId>(c.getInt());
     }},
    plain<G, &G::result, &GameResult::peels>("peels", "INTEGER", 1),
    plain<G, &G::result, &GameResult::bunch>("bunch", "INTEGER", 1),
    plain<G, &G::duration_ms>("duration_ms", "INTEGER", 1),
    plain<G, &G::log>("log", "TEXT", 1),
    text_or_null<G, &G::result, &GameResult::host_version>("host_version", 2),
    plain<G, &G::result, &GameResult::race_ms>("race_ms", "REAL", 4),
    plain<G, &G::result, &GameResult::contended>("contended", "INTEGER", 4),
};

// A done game's player's columns, in the seats table. Its command is the bots table's; its grid
// is only in the game's log.
const Column<P> seat_columns[] = {
    {"outcome", "TEXT CHECK (outcome IN ('won', 'lost', 'disqualified'))", 1,
     [](SQLite::Statement& s, const char* p, const P& r) {
         s.bind(p, std::string(to_string(r.outcome)));
     },
     [](const SQLite::Column& c, P& r) {
         r.outcome = outcome_from_string(c.getString()).value_or(Outcome::lost);
     }},
    plain<P, &P::rank>("standing", "INTEGER", 1),
    plain<P, &P::tiles>("tiles", "INTEGER", 1),
    plain<P, &P::peels>("peels", "INTEGER", 1),
    plain<P, &P::dumps>("dumps", "INTEGER", 1),
    count<&PeelCounts::stale>("stale_peels", "INTEGER"),
    count<&PeelCounts::timed>("timed_peels", "INTEGER"),
    count<&PeelCounts::think_ms>("think_ms", "REAL"),
    plain<P, &P::reason>("reason", "TEXT", 1),
    plain<P, &P::protocol>("protocol", "TEXT", 1),
    plain<P, &P::cpu_ms>("cpu_ms", "REAL", 2),
    plain<P, &P::memory_peak_bytes>("memory_peak_bytes", "INTEGER", 2),
    // Before schema 3 no process was kept: every game was its process's first.
    {"process_game", "INTEGER", 3,
     [](SQLite::Statement& s, const char* p, const P& r) { s.bind(p, r.process_game); },
     [](const SQLite::Column& c, P& r) { r.process_game = c.isNull() ? 1 : c.getInt(); }},
    plain<P, &P::restarted>("restarted", "INTEGER", 3),
    plain<P, &P::cpu_wait_ms>("cpu_wait_ms", "REAL", 4),
    text_or_null<P, &P::cpu_wait_note>("cpu_wait_note", 4),
    // Before schema 5 a player out has the code its sentence says (core/out_code.hpp): read
    // after its outcome and reason.
    {"out_code", "TEXT", 5,
     [](SQLite::Statement& s, const char* p, const P& r) {
         bind_value(s, p,
                    r.out_code ? std::optional(std::string(to_string(*r.out_code))) : std::nullopt);
     },
     [](const SQLite::Column& c, P& r) {
         if (!c.isNull())
             r.out_code = out_code_from_string(c.getString()).value_or(OutCode::other);
         else if (r.outcome == Outcome::disqualified)
             r.out_code = out_code_of(r.reason);
     }},
    plain<P, &P::hand>("hand", "TEXT", 5),
    link<&LinkUsage::connections>("link_connections", "INTEGER"),
    link<&LinkUsage::pings>("link_pings", "INTEGER"),
    link<&LinkUsage::rtt_ms>("link_rtt_ms", "REAL"),
    link<&LinkUsage::rtt_max_ms>("link_rtt_max_ms", "REAL"),
};

// The columns' definitions ("name TYPE, ..."), for CREATE TABLE.
template <class Result, std::size_t N>
std::string definitions(const Column<Result> (&columns)[N]) {
    std::string out;
    for (const auto& column : columns)
        out += fmt::format("    {} {},\n", column.name, column.type);
    return out;
}

// Their names for a SELECT from a database of schema `version` ("NULL AS name" for a column it
// lacks).
template <class Result, std::size_t N>
std::string selected(const Column<Result> (&columns)[N], int version) {
    std::string out;
    for (const auto& column : columns)
        out += fmt::format(", {}{}", column.since <= version ? "" : "NULL AS ", column.name);
    return out;
}

// Their assignments for an UPDATE ("name = :name, ...").
template <class Result, std::size_t N>
std::string assigned(const Column<Result> (&columns)[N]) {
    std::string out;
    for (const auto& column : columns)
        out += fmt::format("{}{} = :{}", out.empty() ? "" : ", ", column.name, column.name);
    return out;
}

template <class Result, std::size_t N>
void write_columns(SQLite::Statement& statement, const Column<Result> (&columns)[N],
                   const Result& result) {
    for (const auto& column : columns)
        column.write(statement, fmt::format(":{}", column.name).c_str(), result);
}

template <class Result, std::size_t N>
void read_columns(const SQLite::Statement& statement, const Column<Result> (&columns)[N],
                  Result& result) {
    for (const auto& column : columns)
        column.read(statement.getColumn(column.name), result);
}

// The schema of this version.
std::string schema() {
    return fmt::format(R"(
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
    replay_of INTEGER REFERENCES games (id),
    finished TEXT,
{}    CHECK ((state = 'done') = (end IS NOT NULL))
);
CREATE INDEX games_state ON games (state);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots (id),
{}    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_bot ON seats (bot_id);
)",
                       definitions(game_columns), definitions(seat_columns));
}

// A database of schema `version` made this version's: the columns it lacks added (NULL for the
// games played before). Version 4 added replay_of too.
void upgrade(SQLite::Database& db, int version) {
    for (const auto& column : game_columns)
        if (column.since > version)
            db.exec(fmt::format("ALTER TABLE games ADD COLUMN {} {}", column.name, column.type));
    if (version < 4)
        db.exec("ALTER TABLE games ADD COLUMN replay_of INTEGER REFERENCES games (id)");
    for (const auto& column : seat_columns)
        if (column.since > version)
            db.exec(fmt::format("ALTER TABLE seats ADD COLUMN {} {}", column.name, column.type));
}

// The file a tournament is kept in (sqlite/schema_file.hpp).
sqlite::Kind file_kind(const std::string& path) {
    sqlite::Kind kind;
    kind.name = "database";
    kind.a_kind = "a tournament database";
    kind.owners = "a tournament's";
    kind.holds = "a tournament";
    kind.how_to_make = " (start a tournament with 'tournament run')";
    const std::string shown = escape_for_terminal(path);
    kind.exists_hint = fmt::format(
        "resume its tournament with 'tournament resume --db {}', or give a new file", shown);
    kind.application_id = application_id;
    kind.oldest_version = oldest_schema_version;
    kind.version = schema_version;
    kind.schema = schema();
    kind.upgrade = upgrade;
    return kind;
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
    // FULL as it is made: the schedule survives a power loss (and each result: record_done).
    auto made = sqlite::create(path, file_kind(path), 0644,
                               [&](SQLite::Database& db) { write_schedule(db, spec); });
    if (auto* error = std::get_if<std::string>(&made))
        return *error;
    auto& db = std::get<std::unique_ptr<SQLite::Database>>(made);
    db->exec("PRAGMA synchronous = NORMAL");
    std::unique_ptr<Database> database(new Database(std::move(db), path));
    database->spec_ = spec;
    return database;
}

std::variant<std::unique_ptr<Database>, std::string> Database::open(const std::string& path,
                                                                    Access access) {
    sqlite::Schema schema;
    auto opened = sqlite::open(
        path, file_kind(path),
        access == Access::write ? sqlite::Access::write : sqlite::Access::read, &schema);
    if (auto* error = std::get_if<std::string>(&opened))
        return *error;
    auto& db = std::get<std::unique_ptr<SQLite::Database>>(opened);
    try {
        if (access == Access::write)
            db->exec("PRAGMA synchronous = NORMAL");
        std::unique_ptr<Database> database(new Database(std::move(db), path));
        database->version_ = schema.version;
        if (auto error = database->load_spec())
            return fmt::format("{}: {}", escape_for_terminal(path), *error);
        return database;
    } catch (const SQLite::Exception& e) {
        return fmt::format("{} is not a tournament database: {}", escape_for_terminal(path),
                           e.what());
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
        return fmt::format("cannot open {}: {}", escape_for_terminal(path_), std::strerror(errno));
    // flock, not SQLite's own fcntl locks (which it takes and drops by itself): the lock lasts as
    // long as the runner, and goes with it however it ends.
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        ::close(fd);
        return error == EWOULDBLOCK ? fmt::format("another tournament runner is playing {} now",
                                                  escape_for_terminal(path_))
                                    : fmt::format("cannot lock {}: {}", escape_for_terminal(path_),
                                                  std::strerror(error));
    }
    lock_fd_ = fd;
    return std::nullopt;
}

int Database::requeue_running() {
    return db_->exec("UPDATE games SET state = 'pending' WHERE state = 'running'");
}

namespace {

// A game row's schedule and state, and its result's columns once it is done.
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
    read_value(game.getColumn("replay_of"), row.replay_of);
    if (row.state != State::done)
        return row;
    PlayedGame played;
    played.result.seed = row.game.seed;
    read_columns(game, game_columns, played);
    row.played = std::move(played);
    return row;
}

}  // namespace

std::vector<FixtureRecord> Database::games() const {
    std::vector<FixtureRecord> rows;
    std::unordered_map<int, std::size_t> index;  // game id -> its row
    SQLite::Transaction snapshot(*db_);          // one consistent view, however the runner writes
    SQLite::Statement game(
        *db_, fmt::format("SELECT id, deal, seed, table_no, rotation, state, attempts, {}{} FROM "
                          "games ORDER BY id",
                          version_ >= 4 ? "replay_of" : "NULL AS replay_of",
                          selected(game_columns, version_)));
    while (game.executeStep()) {
        FixtureRecord row = game_row(game);
        if (!rows.empty() && row.id <= rows.back().id)
            throw std::runtime_error("the games' ids do not increase");
        index[row.id] = rows.size();
        rows.push_back(std::move(row));
    }
    SQLite::Statement seat(*db_, fmt::format("SELECT game_id, seat, bot_id{} FROM seats ORDER BY "
                                             "game_id, seat",
                                             selected(seat_columns, version_)));
    while (seat.executeStep()) {
        const int id = seat.getColumn("game_id").getInt();
        const auto found = index.find(id);
        if (found == index.end() || seat.getColumn("seat").getInt() !=
                                        static_cast<int>(rows[found->second].game.seats.size()))
            throw std::runtime_error(fmt::format("game {}'s seats are not 0, 1, 2...", id));
        FixtureRecord& row = rows[found->second];
        row.game.seats.push_back(seat.getColumn("bot_id").getInt());
        if (row.played) {
            PlayerResult player;
            read_columns(seat, seat_columns, player);
            row.played->result.players.push_back(std::move(player));
        }
    }
    snapshot.commit();
    // A done replay takes its game's place in the standings.
    for (const auto& row : rows)
        if (row.replay_of && row.played)
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
            if (!row.played || row.played->result.contended != true || replayed.count(row.id))
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

void Database::record(const std::vector<std::pair<int, const PlayedGame*>>& results) {
    durably([&] {
        SQLite::Transaction transaction(*db_);
        write_results(results, true);
        transaction.commit();
    });
}

void Database::write_results(const std::vector<std::pair<int, const PlayedGame*>>& results,
                             bool from_running) {
    SQLite::Statement game(
        *db_, fmt::format("UPDATE games SET state = 'done', {}, finished = datetime('now') WHERE "
                          "id = :id AND {}",
                          assigned(game_columns),
                          from_running ? "state = 'running'" : "state != 'done'"));
    SQLite::Statement seat(*db_,
                           fmt::format("UPDATE seats SET {} WHERE game_id = :game_id AND seat = "
                                       ":seat",
                                       assigned(seat_columns)));
    for (const auto& [id, played] : results) {
        write_columns(game, game_columns, *played);
        game.bind(":id", id);
        if (game.exec() != 1)
            throw std::runtime_error(
                fmt::format("game {} was not {}", id, from_running ? "running" : "to be done"));
        game.reset();
        const auto& players = played->result.players;
        for (std::size_t i = 0; i < players.size(); ++i) {
            write_columns(seat, seat_columns, players[i]);
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
    std::unordered_map<int, const PlayedGame*> here;
    std::unordered_map<int, const Fixture*> scheduled;
    const std::vector<FixtureRecord> mine = games();
    for (const auto& row : mine) {
        scheduled[row.id] = &row.game;
        if (row.played)
            here[row.id] = &*row.played;
    }
    std::unordered_map<int, const PlayedGame*> incoming;
    for (const auto& row : rows) {
        if (!row.played)
            continue;
        if (row.replay_of) {
            ++merged.replays;
            continue;
        }
        const auto slot = scheduled.find(row.id);
        if (slot == scheduled.end() || !(*slot->second == row.game))
            throw std::runtime_error(fmt::format("game {} is not this tournament's", row.id));
        const auto [it, first] = incoming.try_emplace(row.id, &*row.played);
        if (!first && !(*it->second == *row.played))
            merged.conflicts.push_back(row.id);
    }
    std::vector<std::pair<int, const PlayedGame*>> added;
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
