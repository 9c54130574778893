// The arena lobby's connections within their matches (arena/lobby.hpp): what a session is told
// of its match (the context of each game's start, the games after it, the match's outcome), and
// the connections that drop within a match, held for their accounts' next connections
// (docs/arena.md, "Nothing lost"). A bot's or person's connection that goes without its player
// closing it keeps its seat for the grace (--remote-grace), as a host's remote seat does. The
// account's next connection takes it up: back into the game under way (the seat sends it what
// the other had not received) or, between two games of the match, to wait for the next. One
// not back within the grace, and whose seat's game has let it go, is gone: the lobby leaves its
// later seats at once.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/opens.hpp"
#include "remote/desk.hpp"
#include "remote/remote_seat.hpp"

namespace bg::arena {

class Seated {
  public:
    using Open = Opens::Open;
    using Sitter = Opens::Sitter;
    // `note`: where a line for the arena's log goes (the lobby's, set later: kept by reference).
    Seated(Opens& opens, remote::Desk& desk, std::uint64_t grace_ms,
           std::function<std::uint64_t()> now_ms,
           const std::function<void(const std::string&)>& note)
        : opens_(opens),
          desk_(desk),
          grace_ms_(grace_ms),
          now_ms_(std::move(now_ms)),
          note_(note) {}

    // A session's games after the game of `playing`: within a match, its games after this
    // one; between matches (none), 1 until the arena closes.
    int games_after(const remote::RemoteSeat* playing, bool closing) const;
    // Its client asked to leave once its match is over: marked, and said; none where the
    // connection is not the lobby's yet.
    Open* drain(Sitter& sitter);
    // A `start`'s "match" for the game of `playing` (match_start_json), where it is a match's.
    void context(const remote::RemoteSeat& playing, nlohmann::json& start) const;
    // The connection playing `match` as `entry` is told how it went once it is over (where it
    // is still open then, whatever it does by then).
    void expect_over(int match, Connection connection, int entry);
    // One that asked to leave after its match is let go once both its match is over for it
    // and it is told how it went (whichever comes last: leaving()).
    void tell_over(int match, const OverTold& told);
    // `open`, which asked to leave, is back from its match (or check).
    void leaving(Open& open);

    // `open`, whose connection dropped, held: where it was within a match with games left for
    // it (not at a check); false where it has gone for good.
    bool hold(Open& open);
    // The seat of the game under way that `knock` (its account's token or code) comes back to,
    // or none (it waits, or is a connection of its own).
    remote::RemoteSeat* seat_for(const remote::Gate::Knock& knock) const;
    // Why `knock`, which asks only to come back into its match (resume=1), is refused: nothing
    // of its account is held (410); none where it does not ask so, or something is.
    std::optional<remote::Gate::Refusal> nothing_held(const remote::Gate::Knock& knock) const;
    // `sitter`, let in with `token` into `seat` at once, takes up its account's held connection.
    void joined(std::string_view token, Sitter& sitter, const remote::RemoteSeat& seat);
    // `sitter`, let in with `token` to wait, takes up its account's held connection: between two
    // games of its match. None where there is none.
    Open* between_games(const std::string& token, Sitter& sitter);
    // The held connections past their grace, whose seat's game has let them go (each said).
    std::vector<Connection> expired();
    // Whether the connection was held (and so did not come back) when it goes.
    static bool was_held(const Open& open) { return open.held_until > 0; }

  private:
    Open* come_back(const std::string& token, Sitter& sitter, int games_left);

    Opens& opens_;
    remote::Desk& desk_;
    std::uint64_t grace_ms_;
    std::function<std::uint64_t()> now_ms_;
    const std::function<void(const std::string&)>& note_;
    // By match: its connections and their entries, to be told how it went.
    std::map<int, std::vector<std::pair<Connection, int>>> to_tell_;
};

}  // namespace bg::arena
