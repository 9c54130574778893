// The arena's waiting room: the gate (remote/gate.hpp) for the connections of remote bots at
// /bot and of people at /person. Who is let in, and within which limits, is its door's
// (arena/door.hpp). A connection let in waits to play (on_arrive: the arena's core queues it,
// or checks it first) until it is seated at a match. Within a match it waits between the
// match's games at the desk, for the seats made for it (a token of the arena's own for each
// connection and match, never shown to anyone); once the match is over it waits to play again.
//
// A connection of a version that has not passed the conformance check, or of a paused bot, is
// checked over this connection before it is queued (the core decides so), and waits to play
// again once it passes; one that fails is sent away with why (closed with 1008). A person is
// never checked, plays one match at a time, and is let go after it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "arena/core/inputs.hpp"
#include "arena/door.hpp"
#include "arena/opens.hpp"
#include "arena/seated.hpp"
#include "arena/store.hpp"
#include "remote/desk.hpp"
#include "remote/gate.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

class Lobby final : public remote::Gate {
  public:
    using Options = Door::Options;
    using Arrival = arena::Arrival;
    // A line for the arena's log (a bot connecting, leaving, refused).
    std::function<void(const std::string&)> on_note;
    // A connection waits to play (it came, or is back from a match or a check).
    std::function<void(const Arrival&)> on_arrive;
    // A connection closed, wherever it was.
    std::function<void(Connection)> on_leave;
    // Where the time of each connection's admission is told (none: nowhere).
    LoopLag* lag = nullptr;

    Lobby(Store& store, remote::Desk& desk, std::function<std::uint64_t()> now_ms, Options options)
        : store_(store),
          desk_(desk),
          door_(store, now_ms, options, [this](int bot) { return connections(bot); }),
          seated_(opens_, desk, options.grace_ms, std::move(now_ms), on_note) {
        door_.on_note = [this](const std::string& line) { on_note ? on_note(line) : void(); };
    }

    // The gate's side.
    std::variant<remote::RemoteSeat*, Wait, Refusal> admit(const Knock& knock) const override;
    int games_after(std::string_view, const remote::RemoteSeat* playing) const override {
        return seated_.games_after(playing, closing_);
    }
    void context(const remote::RemoteSeat& playing, nlohmann::json& start) const override {
        seated_.context(playing, start);
    }
    void wait(std::string token, Sitter& sitter) override;
    void stop_waiting(Sitter& sitter) override;
    // Leaves now if it waits to play, or once its match (or check) is over.
    void drain(Sitter& sitter) override;
    void joined(std::string_view token, Sitter& sitter, const remote::RemoteSeat& seat) override {
        seated_.joined(token, sitter, seat);
    }
    // Gone within its match, dropped: held for its account's next connection (arena/seated.hpp);
    // gone otherwise, or past the grace, its later seats there are left.
    void forget(Sitter& sitter, bool dropped) override;
    void refused(const Refusal& refusal, const std::string& peer) const override {
        door_.refused(refusal, peer);
    }
    // A person's page's tickets (arena/tickets.hpp), the door's.
    std::optional<Ticketed> ticket(std::string_view t) const override { return door_.ticket(t); }
    void spend(std::string_view t) const override { door_.tickets().spend(t); }

    // The arena's side. A waiting connection taken to a match (or, none, a check) of `games`
    // games, whose seats the desk gives it under `seat_token`: false where it is gone.
    bool take(Connection connection, const std::string& seat_token, int games,
              std::shared_ptr<const MatchContext> match);
    // Its connections are told how the match went, and one that asked to leave is let go.
    void tell_over(int match, const OverTold& told) { seated_.tell_over(match, told); }
    // Its check is over: passed, the connection waits to play again (its bot and entry read
    // again); failed, it is sent away with `why`.
    void check_over(const std::string& seat_token, bool passed, const std::string& why);
    // A match (or a check cut short) is over: a connection of it waiting at the desk for a game
    // that will not come waits to play again; the desk forgets the tokens.
    void match_over(const std::vector<std::string>& seat_tokens);
    // Waiting connections told there are no more games.
    void turn_away(const std::vector<Connection>& connections);
    // The arena is closing: every waiting connection is told there are no more games.
    void close();
    // The held connections whose grace is over, and whose bot is not back in its game: gone.
    void expire();
    // Its last match is over: every connection still open is told so, whatever it waits for
    // (one whose last game's end is not yet answered is told now, not left to that answer).
    void finish();
    // Connections open now, of the account.
    int connections(int bot) const { return opens_.connections(bot); }
    // Who may connect: its refusals since the arena started (GET /api/server), its tickets.
    const Door& door() const { return door_; }

  private:
    using Open = Opens::Open;
    Store& store_;
    remote::Desk& desk_;
    Door door_;
    Opens opens_;
    Seated seated_;
    // Checked connections whose last scenario's end is not yet answered: what they are told
    // once it is (queued: "", or sent away, and why).
    std::map<Sitter*, std::pair<bool, std::string>> checked_;
    // Its first wait: an Open of its own, or none (its account may not play now: it is told).
    Open* arrive(const std::string& token, Sitter& sitter);
    void waits(Open& open);
    void told(Sitter& sitter, const std::string& why = "");
    // Gone from the lobby: its later seats in a match left, the core told.
    void gone(Open& open);
    void gone(const std::vector<Connection>& connections);
    bool closing_ = false;
};

}  // namespace bg::arena
