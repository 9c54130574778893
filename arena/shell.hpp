// The arena's shell (arena serve): its loop, its server, its venue and its store around its
// core (arena/core/arena_core.hpp). What happens (a connection, a match's end, the clock, a
// signal) goes to the core as an input; what the core decides comes back as effects, done here
// (shell.cpp); a write's outcome goes back as the next input. Nothing here decides. How it
// starts, listens and stops: serve.cpp.
#pragma once

#include <uv.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/api_routes.hpp"
#include "arena/arena_seats.hpp"
#include "arena/checks.hpp"
#include "arena/core/arena_core.hpp"
#include "arena/fit_work.hpp"
#include "arena/handed_out.hpp"
#include "arena/lobby.hpp"
#include "arena/match_play.hpp"
#include "arena/nodes.hpp"
#include "arena/season_keeper.hpp"
#include "arena/settings.hpp"
#include "arena/store.hpp"
#include "match/seat_source.hpp"
#include "match/venue.hpp"
#include "remote/desk.hpp"
#include "remote/remote_seat.hpp"
#include "remote/seat_sockets.hpp"
#include "remote/token.hpp"
#include "serve/server.hpp"
#include "transport/handles.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

// Every account as the store has it, and the house bots added since started (their commands
// added to the venue, their entries made): SIGHUP's input.
input::Reread reread(Store& store, Venue& venue, const std::vector<HouseSeats>& houses);

// The live state of `core` (arena/live_state.hpp), with how far its `matches` playing are.
LiveState live_of(const ArenaCore& core, const std::map<int, std::unique_ptr<MatchPlay>>& matches);

// A seed no one can foresee (a match's deal, the matchmaker's blur), from getrandom.
std::uint64_t seed_from_the_kernel();

class ArenaShell {
    friend struct ShellTeardown;

  public:
    ArenaShell(Store& store, Settings settings) : store_(store), settings_(std::move(settings)) {}
    int run();

  private:
    std::optional<int> start_server();
    void feed(Input input);
    void perform(Effect& effect);
    void play(const effect::Play& play);
    void release(int match);
    void matches_over();
    void finish_if_done();
    std::uint64_t now() const { return uv_now(loop_); }

    Store& store_;
    Settings settings_;
    uv_loop_t* loop_ = nullptr;
    remote::Desk desk_;
    std::unique_ptr<ArenaCore> core_;
    std::unique_ptr<Lobby> lobby_;
    std::unique_ptr<Venue> venue_;
    std::unique_ptr<ArenaSeats> seats_;
    std::unique_ptr<Checks> checks_;
    std::unique_ptr<Hosting> hosting_;
    std::unique_ptr<FitWork> fit_;
    std::unique_ptr<HandedOut> handed_;  // what workers (--workers) and front nodes play
    std::unique_ptr<SeasonKeeper> seasons_;
    std::unique_ptr<LoopLag> lag_;
    std::unique_ptr<ApiRoutes> routes_;
    std::unique_ptr<remote::SeatSockets> sockets_;
    std::unique_ptr<serve::Server> server_;
    std::unique_ptr<Shows> shows_;  // the stream's events, and the live state to front nodes
    std::map<int, std::unique_ptr<MatchPlay>> matches_;
    std::vector<std::unique_ptr<MatchPlay>> leaving_;  // over, their players going
    std::map<int, std::uint64_t> seeds_;               // a match begun, until it plays
    std::vector<int> over_;                            // matches over, not yet told to the core
    std::unique_ptr<Timer> tick_timer_, reaper_;
    std::vector<SignalWatch> signals_;
    std::deque<Input> inbox_;  // inputs that came while the core's effects were being done
    bool feeding_ = false, server_done_ = false;  // the latter: told to finish
    bool finishing_ = false;  // the core said so: closes once the players are gone
    int signal_ = 0;
    // Chart.js, for the bots' pages ("": not installed); when this arena began serving (UTC).
    std::string chart_js_, started_;
};

}  // namespace bg::arena
