// A tournament's only state: one SQLite database (WAL, foreign keys, a versioned schema). It
// holds the options, the bots, the whole schedule (written before the first game starts), and
// every finished game's result, committed in one transaction together with its state (the games
// that end in the same turn of the runner's loop share one), so that a game is done exactly when
// its result is stored. `standings` and `games` read it while
// a run writes it.
//
// Schema version 2 (PRAGMA user_version; PRAGMA application_id marks the file as ours):
//   tournament(id = 1, options JSON, created, stopped): stopped says why a run ended early
//     (the SPRT's decision), or is NULL.
//   bots(id from 0, name unique, command)
//   games(id from 1 in schedule order, deal, seed (decimal text: a 64-bit unsigned number),
//     table_no, rotation, state pending|running|done, attempts (starts), and once done: end,
//     winner_seat (from 0, or NULL), peels, bunch, duration_ms, log, finished)
//   seats(game_id, seat from 0, bot_id, and once done: outcome won|lost|disqualified, standing
//     (1 best, 0 disqualified), tiles, peels, dumps, stale_peels, timed_peels, think_ms (their
//     total), reason, protocol, cpu_ms (its processes' CPU time in the game) and
//     memory_peak_bytes (their peak memory together), both NULL where not counted)
// Version 1 lacked seats.cpu_ms and seats.memory_peak_bytes: it is read as it is (NULL for
// both), and upgraded in place (the two columns added) when opened for writing. Version 3 added
// seats.process_game and seats.restarted (protocol v004). Version 4 (fair races, docs/host.md):
//   games.race_ms (from the deal to the end), games.contended (1, 0, or NULL: not known), and
//   games.replay_of: the game this one plays again (resume --replay-contended: the same deal,
//   seed, table, rotation and seats), NULL for a game of the schedule; once a replay is done,
//   its game no longer counts in the standings but is kept, and shown.
//   seats.cpu_wait_ms (how long its processes waited for a CPU in the race; NULL: not had) and
//   seats.cpu_wait_note (why it is missing or only a lower bound; NULL: a whole figure).
// An older database is read as it is (NULL for what it lacks), and upgraded in place when opened
// for writing.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tournament/schedule.hpp"
#include "tournament/spec.hpp"

namespace SQLite {
class Database;
}

namespace bg::tournament {

inline constexpr int schema_version = 4;
inline constexpr int oldest_schema_version = 1;

struct SeatResult {
    std::string outcome;  // won, lost or disqualified
    int standing = 0;     // 1 best, equal for a tie; 0 disqualified
    int tiles = 0;        // held at the end
    int peels = 0;
    int dumps = 0;
    int stale_peels = 0;
    int timed_peels = 0;
    double think_ms = 0;  // over the timed peels, in all
    std::string reason;   // why it was put out, or ""
    std::string protocol;
    // What its processes used, as its cgroup counted it (nullopt: not counted).
    std::optional<double> cpu_ms;
    std::optional<std::uint64_t> memory_peak_bytes;
    // Which game of its process this was (1: a process started for it; protocol v004 keeps
    // processes), and whether its process was started afresh because the one before could not
    // go on (a restart); nullopt for a game played before schema version 3.
    std::optional<int> process_game = std::nullopt;
    std::optional<bool> restarted = std::nullopt;
    // How long its processes waited for a CPU in the race (nullopt: not had), and why that is
    // missing or only a lower bound ("": a whole figure); nullopt and "" before schema 4.
    std::optional<double> cpu_wait_ms = std::nullopt;
    std::string cpu_wait_note = "";
    friend bool operator==(const SeatResult&, const SeatResult&) = default;
};

struct GameResult {
    std::string end;  // bananas, last_player_standing, everyone_out, game_timeout
    std::optional<int> winner_seat;
    int peels = 0;
    int bunch = 0;
    std::uint64_t duration_ms = 0;
    std::string log;  // its event log's path, or ""
    // The version of the host that played it (record/version.hpp); "" for a game that a host
    // before schema version 2 played.
    std::string host_version;
    std::vector<SeatResult> seats;
    // The race, from the deal to the end, and whether a player waited too long for a CPU in it
    // (record/result.hpp); nullopt where not known (and before schema 4).
    std::optional<double> race_ms = std::nullopt;
    std::optional<bool> contended = std::nullopt;
    friend bool operator==(const GameResult&, const GameResult&) = default;
};

enum class State { pending, running, done };
std::string_view to_string(State state);

struct FixtureRecord {
    int id = 0;  // from 1, in schedule order
    Fixture game;
    State state = State::pending;
    int attempts = 0;
    std::optional<GameResult> result;  // when done
    // The game it plays again (resume --replay-contended), or none: a game of the schedule.
    std::optional<int> replay_of = std::nullopt;
    // Its replay, once that is done: then this game is kept and shown, but no longer counts.
    std::optional<int> replayed_by = std::nullopt;
    // Whether the standings count it: done, and not replayed.
    bool counts() const { return result && !replayed_by; }
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
    void record(const std::vector<std::pair<int, const GameResult*>>& results);
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
    void write_results(const std::vector<std::pair<int, const GameResult*>>& results,
                       bool from_running);

    std::unique_ptr<SQLite::Database> db_;
    std::string path_;
    int version_ = schema_version;  // a version 1 file opened for reading stays one
    TournamentSpec spec_;
    int lock_fd_ = -1;
};

}  // namespace bg::tournament
