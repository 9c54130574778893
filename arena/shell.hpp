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
#include "arena/checks.hpp"
#include "arena/core/arena_core.hpp"
#include "arena/fit_work.hpp"
#include "arena/handed_out.hpp"
#include "arena/lobby.hpp"
#include "arena/match_play.hpp"
#include "arena/nodes.hpp"
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

// The seats of the arena's matches: a house bot's process from the venue (its command is the
// venue's), a remote bot's at the desk, under the token of its connection's match (numbered
// from `remote_commands` up, above every house bot's, however many are added).
class ArenaSeats final : public SeatSource {
  public:
    static constexpr int remote_commands = 1 << 24;
    ArenaSeats(const Venue& venue, remote::Desk& desk, std::uint64_t grace_ms)
        : venue_(venue), desk_(desk), grace_ms_(grace_ms), next_(remote_commands) {}
    int add_remote(const std::string& seat_token) {
        remote_[next_] = seat_token;
        return next_++;
    }
    void remove(int command) { remote_.erase(command); }
    // An entrant of a match of `games` games: a house bot's command, or a connection's seats
    // under a token of this match, the connection taken to them by the lobby (one gone since it
    // was seated: its seats are left at once, not waited for).
    Entrant entrant(const MatchSeat& seat, Lobby& lobby,
                    const std::shared_ptr<const MatchContext>& match) {
        Entrant e{seat.bot, seat.entry, seat.command.value_or(0), ""};
        if (seat.command)
            return e;
        e.seat_token = remote::draw_token();
        e.command = add_remote(e.seat_token);
        if (!lobby.take(seat.connection, e.seat_token, match->rotations, match))
            desk_.abandon(e.seat_token);
        return e;
    }
    std::unique_ptr<Seat> seat(const Request& request) const override {
        const auto remote = remote_.find(request.command);
        if (remote == remote_.end())
            return venue_.seat(request);
        remote::RemoteSeat::Options options;
        options.grace_ms = grace_ms_;  // for the bot to come back, to /bot (Lobby::forget)
        return std::make_unique<remote::RemoteSeat>(request.loop, desk_, remote->second, options);
    }
    bool one_game_at_a_time(int command) const override { return remote_.count(command) > 0; }

  private:
    const Venue& venue_;
    remote::Desk& desk_;
    std::uint64_t grace_ms_;  // a dropped connection's, for its bot to come back
    int next_;
    std::map<int, std::string> remote_;
};

// Every account as the store has it, and the house bots added since started (their commands
// added to the venue, their entries made): SIGHUP's input.
input::Reread reread(Store& store, Venue& venue, const std::vector<HouseSeats>& houses);

// The live state of `core` (arena/live_state.hpp), with how far its `matches` playing are.
LiveState live_of(const ArenaCore& core, const std::map<int, std::unique_ptr<MatchPlay>>& matches);

// A seed no one can foresee (a match's deal, the matchmaker's blur), from getrandom.
std::uint64_t seed_from_the_kernel();

class ArenaShell {
  public:
    ArenaShell(Store& store, Settings settings) : store_(store), settings_(std::move(settings)) {}
    int run();

  private:
    std::optional<int> start_server();
    void feed(Input input);
    void perform(const Effect& effect);
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
    std::unique_ptr<HandedOut> handed_;  // the matches workers play (--workers)
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
