// Plays a tournament's pending games, many at once on one libuv loop: each game is the host's
// own Match (one referee, one sandbox a player), the word list shared by all. A game is marked
// running when it starts and recorded (result and state in one transaction) when it ends; a
// game that did not end by itself (the run was stopped) goes back to pending, to be played
// again from the start by `resume`.
#pragma once

#include <uv.h>

#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/dictionary.hpp"
#include "host/match.hpp"
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
std::optional<std::string> replay_page(const GameRow& row);

// A finished game's result as the database stores it.
GameResult game_result(const Referee& referee, std::uint64_t duration_ms, std::string log);

class Runner {
  public:
    struct Options {
        int concurrency = 1;
        // How each bot's player is started (by bot id), and the sandbox for the logs' record.
        std::vector<Launch> launches;
        nlohmann::json sandbox = nullptr;
        // The machine's cgroups each game's are made in (its players' with `limits`, its cores
        // `cpus_per_game` of its own), or none for per-process limits only; it outlives the
        // runner.
        cgroups::Machine* cgroups = nullptr;
        int cpus_per_game = 0;
        cgroups::PlayerLimits limits;
        // When a game waits for cores of its own that other hosts hold: what it waits for.
        std::function<void(const std::string&)> on_waiting;
        // When a game starts (before its first record), each record of its event log as it is
        // appended (with or without --logs), and after its result is committed.
        std::function<void(const GameRow&)> on_started;
        std::function<void(int game, const nlohmann::json& record)> on_record;
        std::function<void(const GameRow&)> on_recorded;
        // Once every game is over and every handle of the runner is closed.
        std::function<void()> on_finished;
    };

    Runner(uv_loop_t* loop, Database& database, const Dictionary& dictionary,
           std::vector<GameRow> pending, Options options);
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;
    ~Runner();

    void start();
    // No more games start; those running are aborted and go back to pending.
    void stop();
    // Why the run failed (the database or a game's log could not be written), or "".
    const std::string& error() const { return error_; }
    int running() const;

  private:
    struct Slot;

    void start_next(Slot& slot);
    void reap();
    void fail(std::string error);
    void finish_if_idle();

    uv_loop_t* loop_;
    Database& database_;
    const Dictionary& dictionary_;
    std::deque<GameRow> pending_;
    Options options_;
    std::vector<std::unique_ptr<Slot>> slots_;
    std::vector<Slot*> done_;
    Timer reaper_;
    Timer retry_;  // a game that found no free cores tries again
    bool stopping_ = false;
    bool finished_ = false;
    std::string error_;
};

}  // namespace bg::tournament
