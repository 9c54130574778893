// What a worker (arena/worker.hpp) and a front node (arena/front_seating.hpp) share to play a
// job (arena/jobs.hpp): its games' setup on this machine, its house and hosted bots' commands
// (a hosted version's files fetched from the store by their SHA-256, checked, and unpacked once
// into a cache), and what a match played comes to as the store keeps it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "arena/jobs.hpp"
#include "arena/match_play.hpp"
#include "cli/log.hpp"
#include "match/venue.hpp"

namespace bg::arena {

// The job's games' setup, on the word list at `dictionary` (of the venue's fingerprint); or why
// it cannot be read.
std::variant<GameSetup, std::string> job_setup(const JobPlan& plan, const Venue& venue,
                                               const std::string& dictionary);

// The venue's commands for a job's house and hosted bots, each added once.
class JobCommands {
  public:
    JobCommands(Venue& venue, Jobs& jobs, std::string cache)
        : venue_(venue), jobs_(jobs), cache_(std::move(cache)) {}
    // The entrant's command among the venue's: a house bot's as it is, a hosted version's run
    // from its files; or why it cannot be had.
    std::variant<int, std::string> command_of(const JobEntrant& e);

  private:
    Venue& venue_;
    Jobs& jobs_;
    std::string cache_;
    std::map<std::string, int> commands_;
};

// A match played as the store keeps it: its result, and its games' logs and what their players
// wrote to stderr (for their authors, arena/owned.hpp), gzipped; its games' logs named as on
// `player` (the worker or front node), WORKER:PATH.
struct JobDone {
    int match = 0;
    JobResult result;
    std::vector<std::pair<int, std::string>> logs_gz;
    std::vector<SeatStderr> stderr_gz;
};
JobDone job_done(int match, const MatchPlay& play, const std::string& player);

// A call to the store, which may fail while it cannot be reached: said once as calls start
// failing, once as they work again. Whether it was made.
class StoreCalls {
  public:
    template <class F>
    bool operator()(const char* doing, F&& f) {
        try {
            f();
            if (lost_)
                log::info("the store answers again");
            lost_ = false;
            return true;
        } catch (const std::exception& e) {
            if (!lost_)
                log::warning("the store could not be reached ({}): {}; tried again", doing,
                             e.what());
            lost_ = true;
            return false;
        }
    }

  private:
    bool lost_ = false;
};

// The matches `player` played, their results stored (each said) and let go; those the store
// cannot take now kept, to be tried again. `whose` names the player as its lines say it ("this
// worker's"), `played` what it did ("played", "played here").
void store_played(Jobs& jobs, StoreCalls& with_store, std::vector<JobDone>& pending,
                  const std::string& player, const char* whose, const char* played);

}  // namespace bg::arena
