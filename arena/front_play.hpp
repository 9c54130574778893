// The matches the holder placed at a front node (arena/front_seating.hpp): each a job addressed
// to this front (arena/jobs.hpp), claimed, played as the holder plays its own (its connections'
// seats at this node's desk, taken from its lobby; the house and hosted bots at its table in
// its sandbox and cgroups), its lease renewed, and its result stored as a worker stores one, for
// the holder to rate. A match it cannot play (a hosted version's files, another word list) is
// stored as incomplete before any connection is taken; its connections wait again.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "arena/arena_seats.hpp"
#include "arena/job_play.hpp"
#include "arena/lobby.hpp"
#include "arena/match_play.hpp"
#include "arena/settings.hpp"
#include "arena/store.hpp"
#include "match/venue.hpp"
#include "remote/desk.hpp"
#include "transport/handles.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

class FrontPlay {
  public:
    // What the seating is told: a connection taken to a match's seat; the connections of a
    // match that could not be played, waiting again after it.
    struct Told {
        std::function<void(Connection, int match)> taken;
        std::function<void(const std::vector<Connection>&, int match)> not_played;
    };
    // `cache`: where hosted versions' files are unpacked.
    FrontPlay(uv_loop_t* loop, Store& store, Venue& venue, Lobby& lobby, remote::Desk& desk,
              const Settings& settings, LoopLag* lag, const std::string& cache, Told told);
    ~FrontPlay();
    FrontPlay(const FrontPlay&) = delete;
    FrontPlay& operator=(const FrontPlay&) = delete;

    // Each turn of the front, as node `name`: leases renewed, matches claimed, results stored.
    void turn(const std::string& name);
    // Every match playing ended (void) and its result stored where the store lets; then `done`.
    void stop(std::function<void()> done);
    // Whether it takes no match for now: one could not be played here (a hosted version's
    // files, another word list), and the holder would place the next as soon.
    bool backing_off() const { return uv_now(loop_) < backoff_until_; }
    static constexpr std::uint64_t backoff_ms = 60'000;

    // How long a claim is held without a renewal (a front cut off longer: its match void).
    static constexpr std::uint64_t lease_ms = 15'000;

  private:
    struct Playing {
        std::unique_ptr<MatchPlay> play;
        std::uint64_t renewed_ms = 0;
    };
    void claim();
    void begin(const JobPlan& plan);
    // The commands of its house and hosted bots, or why one cannot be had.
    std::variant<std::vector<int>, std::string> commands(const JobPlan& job);
    // Its entrants, its connections taken to their seats.
    void entrants(const JobPlan& job, const std::vector<int>& commands, MatchPlay::Plan& plan);
    // A match's connections back to the lobby, each waiting to play again after it.
    void release(const std::vector<Entrant>& entrants);
    void renew();
    void sweep();
    void finish_pending();
    void stopped_if_done();

    uv_loop_t* loop_;
    Store& store_;
    Venue& venue_;
    Lobby& lobby_;
    const Settings& settings_;
    LoopLag* lag_;
    Told told_;
    std::string name_, words_;
    ArenaSeats seats_;
    JobCommands commands_;
    Timer sweep_;
    std::map<int, Playing> playing_;
    std::vector<std::unique_ptr<MatchPlay>> leaving_;
    std::vector<JobDone> pending_;
    std::function<void()> on_stopped_;
    bool stopping_ = false;
    std::uint64_t backoff_until_ = 0;
    StoreCalls with_store_;
};

}  // namespace bg::arena
