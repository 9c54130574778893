// The seats of an arena's matches (arena/match_play.hpp's SeatSource): a house or hosted bot's
// process from the venue, a remote bot's or a person's at the desk, over its connection in the
// lobby. The holder's matches and a front node's (arena/front_seating.hpp) are seated so.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "arena/lobby.hpp"
#include "arena/match_play.hpp"
#include "match/seat_source.hpp"
#include "match/venue.hpp"
#include "remote/desk.hpp"
#include "remote/remote_seat.hpp"
#include "remote/token.hpp"

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

}  // namespace bg::arena
