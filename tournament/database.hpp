// A tournament's only state: one SQLite database (WAL, foreign keys, a versioned schema). It
// holds the options, the bots, the whole schedule (written before the first game starts), and
// every finished game's result, committed in one transaction together with its state (the games
// that end in the same turn of the runner's loop share one), so that a game is done exactly when
// its result is stored. `standings` and `games` read it while
// a run writes it.
//
// Schema version 5 (PRAGMA user_version; PRAGMA application_id marks the file as ours):
//   tournament(id = 1, options JSON, created, stopped): stopped says why a run ended early
//     (the SPRT's decision), or is NULL.
//   bots(id from 0, name unique, command)
//   games(id from 1 in schedule order, deal, seed (decimal text: a 64-bit unsigned number),
//     table_no, rotation, state pending|running|done, attempts (starts), replay_of (the game
//     this one plays again, resume --replay-contended: the same deal, seed, table, rotation and
//     seats; NULL for a game of the schedule), and once done its result's columns and finished)
//   seats(game_id, seat from 0, bot_id, and once done its player's result's columns)
// A done game's result is one PlayedGame: a game's typed result (record/result.hpp) and what
// the runner adds. Its columns, each with the schema version that added it, are listed once, in
// database.cpp, with how each is written from the result and read back into it; docs/
// tournament.md says what each holds. An older database is read as it is (what it lacks is NULL,
// read as the result of its time would have it: no out code but its sentence's, process game 1),
// and upgraded in place (the columns added) when opened for writing.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "record/result.hpp"
#include "tournament/schedule.hpp"
#include "tournament/spec.hpp"

namespace SQLite {
class Database;
}

namespace bg::tournament {

inline constexpr int schema_version = 5;
inline constexpr int oldest_schema_version = 1;

// A done game: its result, every seat's player in `result.players` (their referee's counts
// and restarts included, not their commands or grids: the bots table and the log have those),
// and what the runner adds.
struct PlayedGame {
    GameResult result;
    std::uint64_t duration_ms = 0;
    std::string log;  // its event log's path, or ""
    friend bool operator==(const PlayedGame&, const PlayedGame&) = default;
};

enum class State { pending, running, done };
std::string_view to_string(State state);

struct FixtureRecord {
    int id = 0;  // from 1, in schedule order
    Fixture game;
    State state = State::pending;
    int attempts = 0;
    std::optional<PlayedGame> played;  // when done
    // The game it plays again (resume --replay-contended), or none: a game of the schedule.
    std::optional<int> replay_of = std::nullopt;
    // Its replay, once that is done: then this game is kept and shown, but no longer counts.
    std::optional<int> replayed_by = std::nullopt;
    // Whether the standings count it: done, and not replayed.
    bool counts() const { return played && !replayed_by; }
};

class Database {
  public:
    enum class Access { read, write };

    // A new database at `path` holding the tournament and its whole schedule, or why not (the
    // file exists, the directory is not writable...).
    static std::variant<std::unique_ptr<Database>, std::string> create(const std::string& path,
                                                                       const TournamentSpec& spec);
    // An existing tournament database, or why it is not one.
    static std::variant<std::unique_ptr<Database>, std::string> open(const std::string& path,
                                                                     Access access);
    ~Database();

    const TournamentSpec& spec() const { return spec_; }
    const std::string& path() const { return path_; }

    // Only one runner plays a tournament at a time: an error when another holds it. Held until
    // this object is destroyed (or the process ends, SIGKILL included).
    std::optional<std::string> lock_for_running();
    // Games left running by a runner that was stopped go back to pending; how many did.
    int requeue_running();

    // Every game of the schedule, with the results of those done. The methods below throw
    // SQLite::Exception when the database cannot be read or written.
    std::vector<FixtureRecord> games() const;
    void mark_running(int id);
    void mark_pending(int id);
    // Games' results and their state `done`, in one transaction (a game is never split over
    // two), synced to disk before it returns; each must be running.
    void record(const std::vector<std::pair<int, const PlayedGame*>>& results);
    // A new pending game for every done game that was contended and has no replay yet: the same
    // deal, seed, table, rotation and seats (a replay that was contended too gets one of its
    // own). The new games' ids, in order.
    std::vector<int> add_replays();
    // Merging shards: the done games among `rows` (each another database's) stored here as they
    // are, in one transaction. A game done here, or twice among `rows`, with another result is a
    // conflict: then nothing is written, and the conflicting ids are returned.
    // A shard's replays are not merged (its first plays are, contended): resume
    // --replay-contended replays them here.
    struct Merged {
        int added = 0;    // games done now that were not
        int already = 0;  // games done here already, with the same result
        int replays = 0;  // replays in the shards, left out
        std::vector<int> conflicts;
    };
    Merged merge(const std::vector<FixtureRecord>& rows);
    // Why the tournament ended before its schedule did (an SPRT's decision), or nullopt.
    std::optional<std::string> stopped() const;
    void set_stopped(const std::string& why);

  private:
    Database(std::unique_ptr<SQLite::Database> db, std::string path);
    std::optional<std::string> load_spec();
    void durably(const std::function<void()>& change);
    // Results into the games table, each game's UPDATE required to change one row.
    void write_results(const std::vector<std::pair<int, const PlayedGame*>>& results,
                       bool from_running);

    std::unique_ptr<SQLite::Database> db_;
    std::string path_;
    int version_ = schema_version;  // a version 1 file opened for reading stays one
    TournamentSpec spec_;
    int lock_fd_ = -1;
};

}  // namespace bg::tournament
