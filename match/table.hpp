// A table: the players of a run of games (the host's games, a tournament's table of bots), set up
// once and playing one game at a time. It holds their cgroup on the machine (with its cores),
// their lineup (a v004 player stays from game to game) and takes every seat from one seat source
// (match/seat_source.hpp), whatever kind of player sits in it. Its owner (the host, the
// tournament's runner) only decides what to play next and where the records go: play() runs a
// game's match on the loop and calls back with its result once its players are back in the
// lineup.
#pragma once

#include <uv.h>

#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "cgroups/cgroups.hpp"
#include "match/lineup.hpp"
#include "match/match.hpp"
#include "match/seat_source.hpp"
#include "match/venue.hpp"
#include "record/result.hpp"

namespace bg {

class Table {
  public:
    // A table of `commands` (each a slot: which of the venue's commands it plays), seated from
    // `seats`, in a cgroup of its own (on cores of its own where the venue pins games); or why
    // the cgroup cannot be had (no free cores now, among others). The venue and the source
    // outlive it.
    static std::variant<std::unique_ptr<Table>, cgroups::Machine::GameError> open(
        uv_loop_t* loop, const Venue& venue, const SeatSource& seats, std::vector<int> commands,
        Lineup::Options options);
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;
    // Its owner lets its players go first (dismiss(), then the loop until finished()).
    ~Table();

    struct Game {
        // Its seed, rules and clocks and each seat's command as the log shows it; the table adds
        // which players continue from a game before and where it is played.
        GameSetup setup;
        std::vector<int> slots;  // the slot of each seat
        LogSink* log = nullptr;  // where its records go; outlives the game
        Match::Options options;  // how it reports (on_done and keep are the table's)
    };
    // What a game came to.
    struct Ended {
        GameResult result;     // each player's restart included
        int abort_signal = 0;  // the signal that aborted it, or 0
        bool any_failed_to_start = false;
    };
    // Plays `game` on the loop: `done` is called from it once the game is over and its players
    // are back in the lineup (never from inside play()). One game at a time, and the next not
    // from inside `done` (the match would go inside its own callback). Throws
    // std::invalid_argument for a setup no game can be made of.
    void play(Game game, std::function<void(Ended)> done);
    // The game under way, if any, ends as aborted (the host was told to stop); or is given a
    // note for its log (a connection refused).
    void abort(int signal);
    void note(std::string what);
    bool playing() const { return match_ && !over_; }

    // No game follows: the players that stay are told so (B.) and let go. The loop then runs
    // until finished().
    void dismiss() { lineup_->dismiss(); }
    bool finished() { return !playing() && lineup_->finished(); }
    cgroups::GameCgroup* cgroup() const { return cgroup_.get(); }
    // Whether a player kept at the table has played the deal of `seed`: no process plays a deal
    // twice, so a game of it would start that player afresh.
    bool seen(std::uint64_t seed) const { return lineup_->seen(seed); }

  private:
    Table(uv_loop_t* loop, const Venue& venue, std::unique_ptr<cgroups::GameCgroup> cgroup)
        : loop_(loop), venue_(venue), cgroup_(std::move(cgroup)) {}

    uv_loop_t* loop_;
    const Venue& venue_;
    // Declared in the order they go: the players' processes before their cgroup.
    std::unique_ptr<cgroups::GameCgroup> cgroup_;
    std::unique_ptr<Lineup> lineup_;
    std::unique_ptr<Match> match_;  // the last game's, kept until the next (never destroyed
                                    // inside its own callback)
    bool over_ = false;
};

}  // namespace bg
