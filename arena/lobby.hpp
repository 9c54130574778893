// The arena's door and its waiting room: the gate (remote/gate.hpp) for the connections of
// remote bots at /bot. A connection is let in with the token of an active bot in its
// Authorization header (Bearer), as a session (it stays for match after match); it then waits
// to play (on_arrive: the arena's core queues it, or checks it first) until it is seated at a
// match. Within a match it waits between the match's games at the desk, for the seats made for
// it (a token of the arena's own for each connection and match, never shown to anyone); once the
// match is over it waits to play again.
//
// A connection of a version that has not passed the conformance check, or of a paused bot, is
// checked over this connection before it is queued (the core decides so), and waits to play
// again once it passes; one that fails is sent away with why (closed with 1008).
//
// People come the same way from the arena's page, to /person: its query says who (name=, the
// account's name; code=, the code it signs in with, which a page cannot send as a header),
// whom it would play (opponent=, a house bot's name, or none: whoever is waiting) and that it is
// a session (session=1). A person is never checked, and plays one match at a time. Where people
// may sign up (--people open), signup=1 makes the account with the name and the code the page
// chose, if the name is free (a code the arena never sends, so never has to show).
//
// Refused, with an HTTP status and a sentence: another path (404), no token or one no active
// bot has, or a name and code of no active person (401), a house bot's token (403), a
// connection that is not a session, or an opponent that is no house bot's (400), a bot past a
// limit (429, with the seconds to wait: its connections at once, its new connections in the
// last minute, its matches in the last day), a person who is playing already (429), and every
// connection from an address that sent more wrong tokens or codes than failures_a_minute in the
// last minute (429, before anything of it is looked up: a token cannot be guessed faster).
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
#include "arena/store.hpp"
#include "remote/desk.hpp"
#include "remote/gate.hpp"

namespace bg::arena {

class Lobby final : public remote::Gate {
  public:
    struct Options {
        int connections_per_bot = 4;    // at once
        int connections_a_minute = 30;  // new ones, per bot
        int matches_a_day = 0;          // per bot, in the last 24 hours (0: no limit)
        bool people_open = false;       // a person may sign up from the page (--people open)
        int signups_a_minute = 10;      // of everyone together
        // Wrong tokens and codes from one address in any minute: past it, every connection from
        // there is refused (429) before its token or code is looked up.
        int failures_a_minute = 10;
    };
    // A connection that waits to play: its name for the arena's core, its account and its entry
    // as the store has them now, and a person's choice of opponent.
    struct Arrival {
        Connection connection = 0;
        Bot bot;
        Entry entry;
        std::string opponent;
    };
    // A line for the arena's log (a bot connecting, leaving, refused).
    std::function<void(const std::string&)> on_note;
    // A connection waits to play (it came, or is back from a match or a check).
    std::function<void(const Arrival&)> on_arrive;
    // A connection closed, wherever it was.
    std::function<void(Connection)> on_leave;

    Lobby(Store& store, remote::Desk& desk, std::function<std::uint64_t()> now_ms, Options options)
        : store_(store), desk_(desk), now_ms_(std::move(now_ms)), options_(options) {}

    // The gate's side.
    std::variant<remote::RemoteSeat*, Wait, Refusal> admit(const Knock& knock) const override;
    int games_after(std::string_view token, const remote::RemoteSeat* playing) const override;
    void wait(std::string token, Sitter& sitter) override;
    void stop_waiting(Sitter& sitter) override;
    void forget(Sitter& sitter) override;
    void refused(const Refusal& refusal, const std::string& peer) const override;

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
    int connections(int bot) const;
    // The connections refused since the arena started, by kind (a refusal's status where it
    // names no kind): the server's and the lobby's (GET /api/server).
    const std::map<std::string, long>& refusals() const { return refusals_; }

  private:
    // A connection let in, from its first wait on.
    struct Open {
        Connection connection = 0;
        Arrival arrival;
        std::string peer;
        std::string bearer_hash;  // its account's token's
        bool waiting = false;     // to play: neither in a match nor at a check
        std::string seat_token;   // its match's or check's, while there
        int games_left = 0;       // its match's games not yet over for it
        bool counted = false;     // among its account's connections at once
    };

    Store& store_;
    remote::Desk& desk_;
    std::function<std::uint64_t()> now_ms_;
    Options options_;
    std::map<Sitter*, Open> open_;
    std::unordered_map<Connection, Sitter*> sitters_;
    std::map<int, int> per_bot_;  // connections open, by account
    Connection next_connection_ = 1;
    // What the last connection admitted with a token said, by the token's hash: read as it
    // begins to wait.
    struct Said {
        std::string version, peer, opponent;
    };
    mutable std::map<std::string, Said> knocked_;
    std::variant<remote::RemoteSeat*, Wait, Refusal> admit_person(const Knock& knock) const;
    // Checked connections whose last scenario's end is not yet answered: what they are told
    // once it is (queued: "", or sent away, and why).
    std::map<Sitter*, std::pair<bool, std::string>> checked_;
    // Its first wait: an Open of its own, or none (its account may not play now: it is told).
    Open* arrive(const std::string& token, Sitter& sitter);
    void waits(Open& open);
    void counts(Open& open, bool counted);
    void told(Sitter& sitter, const std::string& why = "");
    // Why a bot may not connect now: its new connections in the last minute; its matches in
    // the last day (nor play on); none when it may.
    std::optional<Refusal> minute_limit(const Bot& bot) const;
    std::optional<Refusal> day_limit(const Bot& bot) const;
    mutable std::map<int, std::deque<std::uint64_t>> arrivals_;  // by bot: its last minute's
    mutable std::deque<std::uint64_t> signups_;                  // the last minute's
    mutable std::map<std::string, long> refusals_;
    // By address: the times of its wrong tokens and codes in the last minute.
    mutable std::map<std::string, std::deque<std::uint64_t>, std::less<>> failures_;
    std::optional<Refusal> address_limit(std::string_view peer) const;
    Refusal failed(std::string_view peer, Refusal refusal) const;
    std::optional<Refusal> sign_up(const Knock& knock) const;
    bool closing_ = false;
};

}  // namespace bg::arena
