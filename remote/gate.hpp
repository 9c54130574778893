// Who may take which remote seat: asked for every WebSocket connection to /seat/TOKEN before it
// is let in, and for what its response tells it. The desk (desk.hpp) answers for the tokens a
// host, a checker or a tournament was given; the arena's store of bot accounts is to answer
// next. The connections themselves are seat_sockets.hpp's.
//
// A session (docs/remote.md, "Sessions") is a connection that stays for its player's games, one
// after another: between them it waits at the gate, which hands it the next seat of its token
// as that seat opens.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json_fwd.hpp>

#include "serve/websocket.hpp"

namespace bg::remote {

class RemoteSeat;

// How a closing server's 1012 begins its reason (then ": come back in N s").
inline constexpr std::string_view restarting_reason = "the server is restarting";

class Gate {
  public:
    using Refusal = serve::WebSocketService::Refusal;
    // A connection asking for a seat: the path of its upgrade (no query), its Origin ("" when
    // it sent none) and its Host; the token of its Authorization header (Bearer), its bot's
    // version (X-Bananagrams-Bot-Version) and its address. A page's connection (a person's in
    // an arena), which cannot send headers, says in its query who it is (name=, code=), whom it
    // would play (opponent=), that it is a session (session=1), and that it signs up (signup=1);
    // or, in place of its name and code, a ticket the gate gave it for them (ticket=, see
    // ticket()), which keeps the code out of every URL.
    struct Knock {
        std::string_view path;
        std::string_view origin;
        std::string_view host;
        bool session = false;  // it stays for its player's games
        std::string_view bearer = {};
        std::string_view version = {};
        std::string_view peer = {};
        std::string_view name = {};
        std::string_view code = {};
        std::string_view opponent = {};
        bool signup = false;
        bool resume = false;  // only to come back into a match held for it (an arena's page)
    };
    // A session's answer when no seat of its token is open now but one will be: it waits.
    struct Wait {};
    // Who a page's ticket (ticket=) stands for, while it is good: a name and a code, taken as
    // though the page had sent them. None: no such ticket (or it is spent or stale), and the
    // connection has no name nor code.
    struct Ticketed {
        std::string name, code;
    };
    virtual std::optional<Ticketed> ticket(std::string_view /*ticket*/) const {
        return std::nullopt;
    }
    // A ticket's connection was let in: the ticket is spent.
    virtual void spend(std::string_view /*ticket*/) const {}
    // The seat it takes, or (a session) that it waits, or why not (an HTTP status and a
    // sentence).
    virtual std::variant<RemoteSeat*, Wait, Refusal> admit(const Knock& knock) const = 0;
    // How many games the player with `token` has after the one of `playing` (none: from now).
    virtual int games_after(std::string_view token, const RemoteSeat* playing) const = 0;
    // What a session's `start` for the game of `playing` says beside its type, its bot and its
    // games after (an arena's match and table), added to `start`.
    virtual void context(const RemoteSeat& /*playing*/, nlohmann::json& /*start*/) const {}

    // A session between its player's games.
    class Sitter {
      public:
        // A seat of its token has opened: it is this session's now, no longer waiting.
        virtual void sit(RemoteSeat& seat) = 0;
        // No seat of its token will open again: no longer waiting.
        virtual void no_more_games() = 0;
        // Not let play (an arena's bot that failed its conformance check), and why: no longer
        // waiting. Its connection is closed with 1008 and the sentence.
        virtual void sent_away(std::string_view why) = 0;
        // A session's message beside the games' (one JSON object, sent as a binary message),
        // which a client that does not know its type ignores.
        virtual void tell(const std::string& /*message*/) {}
        // The server is restarting: no longer waiting. Its connection is closed with 1012 and
        // when to come back (its player's client tries again, and plays on once it is back).
        virtual void restarting(int come_back_s) {
            (void)come_back_s;
            no_more_games();
        }

      protected:
        ~Sitter() = default;
    };
    // `sitter` waits for the next seat of `token` (given at once where one is open), until it
    // is given one, told there is none, or stops waiting.
    virtual void wait(std::string token, Sitter& sitter) = 0;
    virtual void stop_waiting(Sitter& sitter) = 0;
    // `sitter`'s client asked to leave once its match is over (a session's "drain").
    virtual void drain(Sitter& /*sitter*/) {}
    // `sitter`, let in with `token`, takes `seat` at once (its admission gave it the seat).
    virtual void joined(std::string_view /*token*/, Sitter& /*sitter*/,
                        const RemoteSeat& /*seat*/) {}
    // `sitter`'s connection is gone, whatever it was doing: nothing may be asked of it again.
    // `dropped`: it went without its player closing it (a network's cut, a page going away), and
    // the player may come back with another; otherwise its player closed it, and has left.
    virtual void forget(Sitter&, bool /*dropped*/) {}
    // A connection refused (by the gate, or by the server: its caps), with the client's address.
    virtual void refused(const Refusal& refusal, const std::string& peer) const = 0;

  protected:
    ~Gate() = default;
};

}  // namespace bg::remote
