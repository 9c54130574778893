// The front desk of a server's remote seats: who may take which (docs/remote.md). A WebSocket
// upgrade to /seat/TOKEN is let in only with the token of a seat whose door is open, from no
// page or a page of the server's own origin; anything else is refused with an HTTP status, and
// the refusal is told to the desk's owner for the game's log. Tokens are compared in constant
// time, against every seat.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace bg::remote {

class RemoteSeat;

class Desk {
  public:
    struct Refusal {
        int status = 403;
        std::string why;
    };
    // A refusal, with the peer's address, for the log.
    std::function<void(const Refusal& refusal, const std::string& peer)> on_refused;

    void add(RemoteSeat* seat) { seats_.push_back(seat); }
    void remove(RemoteSeat* seat);
    bool empty() const { return seats_.empty(); }
    // A token that will have seats, though none may wait for it now (a tournament's remote bot
    // between its games): a connection with it is told to try again (503), not that it is wrong.
    void expect(std::string token) { expected_.push_back(std::move(token)); }

    // What an upgrade to `path` (no query) gets, sent with `origin` ("" when the client sent
    // none) to `host` (its Host header): the seat, or why not. Says nothing to the owner: the
    // server tells refused() what it did refuse.
    std::variant<RemoteSeat*, Refusal> admit(std::string_view path, std::string_view origin,
                                             std::string_view host) const;
    void refused(const Refusal& refusal, const std::string& peer) const {
        if (on_refused)
            on_refused(refusal, peer);
    }

  private:
    std::vector<RemoteSeat*> seats_;
    std::vector<std::string> expected_;
};

// The path a seat is taken at: /seat/TOKEN.
inline constexpr std::string_view seat_path = "/seat/";

}  // namespace bg::remote
