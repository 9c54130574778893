// Plays a tournament's pending games, many at once on one libuv loop. Each of --concurrency
// lanes plays the games of one table of bots in a row (the deals' first rotations, a few deals
// ahead, then their next rotations by players started afresh, for no process plays a deal twice;
// a bot that plays one game at a time, a remote one, is never at two lanes' tables at once)
// at a Table (match/table.hpp: the table's cgroup, with its cores, and its lineup, in which its
// v004 bots stay from game to game), every seat from the run's seat source, the word list shared
// by all; other bots, and all with --fresh-bots, are started for each game. A game is marked
// running when it starts and recorded (result and state in one transaction) when it ends; a
// game that did not end by itself (the run was stopped) goes back to pending, to be played
// again from the start by `resume`.
#pragma once

#include <uv.h>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "match/seat_source.hpp"
#include "match/table.hpp"
#include "match/venue.hpp"
#include "remote/desk.hpp"
#include "tournament/database.hpp"
#include "transport/handles.hpp"

namespace bg::tournament {

// The replay page of a done game, from its log and its players' stderr beside it
// (record/game_files.hpp); nullopt without a log, or with one that cannot be read.
std::optional<std::string> replay_page(const FixtureRecord& row);

class Runner {
  public:
    struct Options {
        int concurrency = 1;
        options::Reuse reuse;  // whether v004 bots stay from game to game
        // Where every game is played: the word list, the machine's cgroups; and where each bot's
        // seat comes from (by bot id: the venue's commands'). Both outlive the runner.
        const Venue* venue = nullptr;
        const SeatSource* seats = nullptr;
        // When a game waits for cores of its own that other hosts hold: what it waits for.
        std::function<void(const std::string&)> on_waiting;
        // When a game starts (before its first record), each record of its event log as it is
        // appended (with or without --logs), and after its result is committed.
        std::function<void(const FixtureRecord&)> on_started;
        std::function<void(int game, const nlohmann::json& record)> on_record;
        std::function<void(const FixtureRecord&)> on_recorded;
        // Once every game is over and every handle of the runner is closed.
        std::function<void()> on_finished;
        // Where remote bots take their seats (docs/remote.md): told when no more seats are made.
        remote::Desk* desk = nullptr;
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
    struct Lane;

    void start_next(Lane& lane);
    // The table the lane plays next: its own while one of its games is pending, else the first
    // pending game's; false when the game cannot start now (it waits for cores, or the run
    // failed).
    bool take_table(Lane& lane, std::deque<FixtureRecord>::iterator& next);
    // The lane's next game of its own table: the first pending, unless its kept players have
    // played that deal (another of its rotations: no process plays a deal twice), when a game of
    // a deal they have not, a few deals ahead, comes first; end() when none is pending.
    std::deque<FixtureRecord>::iterator own_next(const Lane& lane);
    // Whether any of `bots` that plays one game at a time is at a table of another lane, or at
    // one let go whose players are not all gone yet.
    bool held_elsewhere(const std::vector<int>& bots) const;
    // Its table's players let go (told B.), to be swept once gone.
    void retire(Lane& lane);
    void start_game(Lane& lane);
    // A finished game's files closed, and its result for the database; false when it is not
    // to be recorded (stopped, or its files could not be kept: then the run fails).
    bool finish_game(Lane& lane);
    void reap();
    void fail(std::string error);
    void finish_if_idle();

    uv_loop_t* loop_;
    Database& database_;
    std::deque<FixtureRecord> pending_;
    Options options_;
    std::vector<std::unique_ptr<Lane>> lanes_;
    struct Retired {
        std::vector<int> bots;
        std::unique_ptr<Table> table;
    };
    std::vector<Retired> retired_;  // let go, until their players are gone
    std::vector<Lane*> done_;
    Timer reaper_;
    Timer retry_;  // a game that found no free cores tries again
    bool stopping_ = false;
    bool finished_ = false;
    std::string error_;
};

}  // namespace bg::tournament
