// The front desk of a server's remote seats: who may take which (docs/remote.md). A WebSocket
// upgrade to /seat/TOKEN is let in only with the token of a seat whose door is open, from no
// page or a page of the server's own origin; anything else is refused with an HTTP status, and
// the refusal is told to the desk's owner for the game's log. A token is found by its digest
// (token_digest, SHA-256), never compared with the tokens the desk knows: what a connection costs
// does not grow with them, and how long a lookup takes says nothing of any token.
//
// The desk also knows how many seats are still to come for a token (a tournament's remote bot
// has one for each of its games): a connection between two of them is told to try again (503),
// or, a session, waits here for the next; and one after the last is told that its games are over
// (410), so that a bot never waits for a seat that will not come.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "remote/gate.hpp"

namespace bg::remote {

class Desk final : public Gate {
  public:
    // A refusal, with the peer's address, for the log.
    std::function<void(const Refusal& refusal, const std::string& peer)> on_refused;

    // A seat made with its token: a game of it begins (one of those expected for it, if any
    // were).
    void add(RemoteSeat* seat);
    // A seat kept for its next game (a session's): another game of its token begins.
    void continues(const RemoteSeat& seat);
    void remove(RemoteSeat* seat);
    bool empty() const { return seat_digests_.empty(); }
    // `games` more games will begin for `token`, each in a seat made for it or kept for it, none
    // of which may wait for it now (a tournament's remote bot's games not yet begun): a
    // connection with it is told to try again (503), or waits (a session), not that it is wrong
    // or that its games are over.
    void expect(std::string token, int games);
    // No more seats will be made for any token (the run stops): once its seats are closed, a
    // connection with one is told that its games are over.
    void expect_no_more();
    // The player of `token` will not come to its seats again (an arena's connection that closed
    // within its match comes back to the queue, not to them): each of its seats, open now or
    // opened later, is left at once rather than waited for until the ready timeout.
    void abandon(std::string_view token);
    bool abandoned(std::string_view token) const;
    // Whether the player of `token` is in one of its seats' games (RemoteSeat::in_play).
    bool in_play(std::string_view token) const;
    // Nothing more of `token` is to come, nor asked about (an arena's match or check is over):
    // the desk forgets it, so that what it knows does not grow with every match ever played.
    void forget_token(std::string_view token);

    // What an upgrade gets: the seat, or that it waits (a session), or why not. Says nothing to
    // the owner: the connection's server tells refused() what it did refuse.
    std::variant<RemoteSeat*, Wait, Refusal> admit(const Knock& knock) const override;
    void refused(const Refusal& refusal, const std::string& peer) const override {
        if (on_refused)
            on_refused(refusal, peer);
    }
    // The seats of its token still to be played (but `playing`), and those still to be made:
    // none once `playing` is its last.
    int games_after(std::string_view token, const RemoteSeat* playing) const override;
    void wait(std::string token, Sitter& sitter) override;
    void stop_waiting(Sitter& sitter) override;
    // Whether `sitter` waits here now for a seat of its token.
    bool waiting(const Sitter& sitter) const;
    // `seat`'s door has opened: a session waiting for its token takes it.
    void opened(RemoteSeat& seat);

  private:
    // What the desk knows of one token, by its digest.
    struct Known {
        int to_come = 0;  // games of it still to begin
        bool abandoned = false;
        bool expected = false;  // a seat had it or was to have it (a 410 once they are over)
        std::vector<RemoteSeat*> seats;  // made, and not yet removed
        std::vector<Sitter*> waiting;    // sessions waiting for its next seat, first come first
    };
    Known& known(const std::string& digest);
    Known* find(const std::string& digest);
    const Known* find(const std::string& digest) const;
    // The entry, or none, of a seat's token.
    Known* of(const RemoteSeat& seat);
    int games_after(const Known& known, const RemoteSeat* playing) const;
    // Each session waiting for `known`'s seats told so, once none is to come.
    void no_more_for_waiting(Known& known);
    // Forgotten once nothing of it is left to know.
    void forget_if_empty(const std::string& digest);

    std::unordered_map<std::string, Known> known_;
    std::unordered_map<const RemoteSeat*, std::string> seat_digests_;
    std::unordered_map<const Sitter*, std::string> waiting_;  // each waiting session's digest
};

// The path a seat is taken at: /seat/TOKEN.
inline constexpr std::string_view seat_path = "/seat/";

}  // namespace bg::remote
