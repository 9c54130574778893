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
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "arena/core/inputs.hpp"
#include "arena/door.hpp"
#include "arena/store.hpp"
#include "remote/desk.hpp"
#include "remote/gate.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

// A connection that waits to play: its name for the arena's core, its account and its entry as
// the store has them now, and a person's choice of opponent.
struct Arrival {
    Connection connection = 0;
    Bot bot;
    Entry entry;
    std::string opponent;
};

// The lobby's connections, each from its first wait on: found by its sitter, by its name and by
// its seat's token, and counted against its account's limit while it waits to play or plays.
class Opens {
  public:
    using Sitter = remote::Gate::Sitter;
    struct Open {
        Connection connection = 0;
        Sitter* sitter = nullptr;
        Arrival arrival;
        std::string peer;
        std::string bearer_hash;  // its account's token's
        bool waiting = false;     // to play: neither in a match nor at a check
        std::string seat_token;   // its match's or check's, while there
        int games_left = 0;       // its match's games not yet over for it
        bool counted = false;     // among its account's connections at once
    };
    Open& add(Sitter* sitter, Arrival arrival);
    void remove(Open& open);
    Open* of(const Sitter* sitter);
    Open* named(Connection connection);
    Open* seated_under(const std::string& token);
    // Seated under a match's (or a check's) token for `games` games, or let go of it ("").
    void seat(Open& open, const std::string& token, int games);
    // Counted against its account's connections at once, or no longer.
    void count(Open& open, bool counted);
    int connections(int bot) const;
    // Every connection's name (or only those waiting to play).
    std::vector<Connection> names(bool waiting_only) const;

  private:
    std::map<const Sitter*, Open> by_sitter_;
    std::unordered_map<Connection, const Sitter*> by_name_;
    std::unordered_map<std::string, Connection> by_token_;
    std::map<int, int> per_bot_;
    Connection next_ = 1;
};

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
          door_(store, std::move(now_ms), options, [this](int bot) { return connections(bot); }) {
        door_.on_note = [this](const std::string& line) {
            if (on_note)
                on_note(line);
        };
    }

    // The gate's side.
    std::variant<remote::RemoteSeat*, Wait, Refusal> admit(const Knock& knock) const override;
    int games_after(std::string_view token, const remote::RemoteSeat* playing) const override;
    void wait(std::string token, Sitter& sitter) override;
    void stop_waiting(Sitter& sitter) override;
    void forget(Sitter& sitter) override;
    void refused(const Refusal& refusal, const std::string& peer) const override {
        door_.refused(refusal, peer);
    }

    // The arena's side. A waiting connection taken to a match (or a check) of `games` games,
    // whose seats the desk gives it under `seat_token`: false where it is gone.
    bool take(Connection connection, const std::string& seat_token, int games);
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
    // Its last match is over: every connection still open is told there are no more games,
    // whatever it waits for (a waiting one was told at close(); one whose last game's end is not
    // yet answered is told now, rather than left to that answer).
    void finish();
    bool closing() const { return closing_; }
    // Connections open now, of the account.
    int connections(int bot) const { return opens_.connections(bot); }
    // The connections refused since the arena started, by kind (a refusal's status where it
    // names no kind): the server's and the lobby's (GET /api/server).
    const std::map<std::string, long>& refusals() const { return door_.refusals(); }

  private:
    using Open = Opens::Open;
    Store& store_;
    remote::Desk& desk_;
    Door door_;
    Opens opens_;
    // Checked connections whose last scenario's end is not yet answered: what they are told
    // once it is (queued: "", or sent away, and why).
    std::map<Sitter*, std::pair<bool, std::string>> checked_;
    // Its first wait: an Open of its own, or none (its account may not play now: it is told).
    Open* arrive(const std::string& token, Sitter& sitter);
    void waits(Open& open);
    void told(Sitter& sitter, const std::string& why = "");
    bool closing_ = false;
};

}  // namespace bg::arena
