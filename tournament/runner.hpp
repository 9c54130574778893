// Plays a tournament's pending games, many at once on one libuv loop: each game is a Match
// (match/), its seats from a lineup of its table's bots (match/lineup.hpp) in a cgroup from the
// run's venue, the word list shared by all. A slot plays the games of one table in a row (a
// deal's rotations, then the next deal's), so that its v004 bots stay from game to game, each in
// one sandbox and cgroup for its life; other bots, and all with --fresh-bots, are started for
// each game. A game is marked running when it starts and recorded (result and state in one
// transaction) when it ends; a game that did not end by itself (the run was stopped) goes back
// to pending, to be played again from the start by `resume`.
#pragma once

#include <uv.h>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "match/lineup.hpp"
#include "match/match.hpp"
#include "match/venue.hpp"
#include "remote/desk.hpp"
#include "tournament/database.hpp"
#include "transport/handles.hpp"

namespace bg::tournament {

// Where the runner keeps what player `seat` (from 0) of a game wrote to stderr: beside the
// game's log DIR/game-NNNNNN.jsonl, as DIR/game-NNNNNN.player-K.stderr (K from 1), one line a
// line it wrote, capped and escaped as the host caps and escapes them; none if it wrote
// nothing.
std::string player_stderr_path(const std::string& log_path, int seat);

// The replay page of a done game, from its log and its players' stderr beside it; nullopt
// without a log, or with one that cannot be read.
std::optional<std::string> replay_page(const FixtureRecord& row);

// A finished game as the database stores it: its referee's result, whether each seat's process
// was started afresh because the one before could not go on, how long it took and its log.
PlayedGame played_game(const Referee& referee, const std::vector<bool>& restarted,
                       std::uint64_t duration_ms, std::string log);

class Runner {
  public:
    struct Options {
        int concurrency = 1;
        options::Reuse reuse;  // whether v004 bots stay from game to game
        // Where every game is played: the word list, each bot's command as a seat (by bot id),
        // the machine's cgroups. It outlives the runner.
        const Venue* venue = nullptr;
        // When a game waits for cores of its own that other hosts hold: what it waits for.
        std::function<void(const std::string&)> on_waiting;
        // When a game starts (before its first record), each record of its event log as it is
        // appended (with or without --logs), and after its result is committed.
        std::function<void(const FixtureRecord&)> on_started;
        std::function<void(int game, const nlohmann::json& record)> on_record;
        std::function<void(const FixtureRecord&)> on_recorded;
        // Once every game is over and every handle of the runner is closed.
        std::function<void()> on_finished;
        // Where remote bots (remote:TOKEN, docs/remote.md) take their seats: the live server's
        // desk, which outlives the runner; each seat of theirs waits for a connection.
        remote::Desk* desk = nullptr;
        std::uint64_t remote_grace_ms = 10'000;
    };

    Runner(uv_loop_t* loop, Database& database, std::vector<FixtureRecord> pending,
           Options options);
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;
    ~Runner();

    void start();
    // No more games start; those running are aborted and go back to pending.
    void stop();
    // Why the run failed (the database or a game's log could not be written), or "".
    const std::string& error() const { return error_; }
    int running() const;
    // Something for the logs of the games running (a connection refused at the server).
    void note(const std::string& what);

  private:
    struct Table;
    struct Slot;

    void start_next(Slot& slot);
    // The table the slot plays next: its own while one of its games is pending, else the first
    // pending game's; false when the game cannot start now (it waits for cores, or the run
    // failed).
    bool take_table(Slot& slot, std::deque<FixtureRecord>::iterator& next);
    // Its table's players let go (told B.), to be swept once gone.
    void retire(Slot& slot);
    // Its log and its players' stderr files beside it; false when the run failed.
    bool open_records(Slot& slot);
    void start_match(Slot& slot);
    // Whether a finished game's records were kept (else the run fails); then whether it counts.
    bool records_kept(Slot& slot);
    void reap();
    void fail(std::string error);
    void finish_if_idle();

    uv_loop_t* loop_;
    Database& database_;
    std::deque<FixtureRecord> pending_;
    Options options_;
    std::vector<std::unique_ptr<Slot>> slots_;
    std::vector<std::unique_ptr<Table>> retired_;  // let go, until their players are gone
    std::vector<Slot*> done_;
    Timer reaper_;
    Timer retry_;  // a game that found no free cores tries again
    bool stopping_ = false;
    bool finished_ = false;
    std::string error_;
};

}  // namespace bg::tournament
