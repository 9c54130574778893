// The arena's door: who may connect to /bot and /person, and within which limits (the lobby's
// first half, arena/lobby.hpp; docs/arena.md, "Connecting a bot", "People" and security.md).
//
// A bot is let in with the token of an active bot in its Authorization header (Bearer), as a
// session, its query perhaps naming a house bot to spar with (opponent=); a person from the arena's
// page, to /person, its query saying who (name=, the account's name; code=, the code it signs in
// with), whom it would play (opponent=, a house bot's name, or none) and that it is a session
// (session=1). Where people may sign up (--people open), signup=1 makes the account with the name
// and the code the page chose, if the name is free.
//
// Refused, with an HTTP status and a sentence: another path (404), no token or one no active
// bot has, or a name and code of no active person (401), a house bot's token (403), a
// connection that is not a session, or an opponent that is no house bot's (400), a bot past a
// limit (429, with the seconds to wait: its connections at once, its new connections in the
// last minute, its matches in the last day), a person who is playing already (429), and every
// connection from an address that sent more wrong tokens or codes than failures_a_minute in the
// last minute (429, before anything of it is looked up: a token cannot be guessed faster),
// unless its token or code was let in from that address before (one guesser behind a NAT or a
// proxy does not lock out everyone behind it).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "arena/guesses.hpp"
#include "arena/store.hpp"
#include "arena/tickets.hpp"
#include "remote/gate.hpp"

namespace bg::arena {

// Where bots and people connect.
inline constexpr std::string_view bot_path = "/bot";
inline constexpr std::string_view person_path = "/person";

// What a connection is told once the arena stops (SIGTERM): it is restarting, and when to come
// back (its matches playing finish first, and no one is let in meanwhile).
inline constexpr int come_back_s = 5;
remote::Gate::Refusal restarting_refusal();

class Door {
  public:
    using Knock = remote::Gate::Knock;
    using Refusal = remote::Gate::Refusal;
    struct Options {
        int connections_per_bot = 4;    // at once
        int connections_a_minute = 30;  // new ones, per bot
        int matches_a_day = 0;          // per bot, in the last 24 hours (0: no limit)
        bool people_open = false;       // a person may sign up from the page (--people open)
        int signups_a_minute = 10;      // of everyone together
        // Wrong tokens and codes from one address in any minute: past it, every connection from
        // there is refused (429) before its token or code is looked up.
        int failures_a_minute = 10;
        // A connection that drops within its match is held this long for the bot to come back
        // (the lobby's; --remote-grace).
        std::uint64_t grace_ms = 10'000;
    };
    // What a connection let in said as it knocked: its version, its address, a person's choice
    // of opponent.
    struct Said {
        std::string version, peer, opponent;
    };
    // A line for the arena's log (a person signing up, a refusal).
    std::function<void(const std::string&)> on_note;

    // `connections`: the account's connections open now.
    Door(Store& store, std::function<std::uint64_t()> now_ms, Options options,
         std::function<int(int bot)> connections)
        : store_(store),
          now_ms_(now_ms),
          options_(options),
          connections_(std::move(connections)),
          tickets_(now_ms),
          guesses_(std::move(now_ms), options_.failures_a_minute) {}

    // Let in (what it said kept for its first wait, by its token's digest), or why not.
    std::optional<Refusal> admit(const Knock& knock) const;
    // The bot named `name`, where `bearer` is its token (its own API: a hosted bot's versions,
    // its games' logs and stderr), from `peer`; or why not: the address's wrong tokens past the
    // limit (429), no token (401), a token no active bot has (401, counted as a failure), another
    // bot's or a person's (403).
    std::variant<Bot, Refusal> owner(std::string_view name, std::string_view bearer,
                                     std::string_view peer) const;
    Said said(const std::string& token_digest) const;
    // A connection of the bot begins to wait: counted among its last minute's.
    void arrived(int bot);
    // Why the bot may play no more today (its matches in the last day), or none.
    std::optional<Refusal> day_limit(const Bot& bot) const;
    // A refusal, the door's or the server's: counted by kind, and noted.
    void refused(const Refusal& refusal, const std::string& peer) const;
    // The connections refused since the arena started, by kind (a refusal's status where it
    // names no kind): the server's and the lobby's.
    const std::map<std::string, long>& refusals() const { return refusals_; }
    // A person's page's tickets (POST /person/ticket).
    Tickets& tickets() const { return tickets_; }
    std::optional<remote::Gate::Ticketed> ticket(std::string_view t) const {
        return tickets_.find(t);
    }
    const Options& options() const { return options_; }

  private:
    std::optional<Refusal> admit_person(const Knock& knock) const;
    // Why `opponent` (a choice of house bot) may not be played, or none.
    std::optional<Refusal> opponent_refusal(std::string_view opponent) const;
    std::optional<Refusal> sign_up(const Knock& knock) const;
    std::optional<Refusal> minute_limit(const Bot& bot) const;
    std::optional<Refusal> address_limit(const Knock& knock) const;

    Store& store_;
    std::function<std::uint64_t()> now_ms_;
    Options options_;
    std::function<int(int bot)> connections_;
    mutable Tickets tickets_;
    mutable std::map<std::string, Said> knocked_;  // by the token's digest: the last knock's
    mutable std::map<int, std::deque<std::uint64_t>> arrivals_;  // by bot: its last minute's
    mutable std::deque<std::uint64_t> signups_;                  // the last minute's
    mutable std::map<std::string, long> refusals_;
    mutable Guesses guesses_;  // wrong tokens and codes, by address
};

}  // namespace bg::arena
