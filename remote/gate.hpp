// Who may take which remote seat: asked for every WebSocket connection to /seat/TOKEN before it
// is let in, and for what its response tells it. The desk (desk.hpp) answers for the tokens a
// host, a checker or a tournament was given; the arena's store of bot accounts is to answer
// next. The connections themselves are seat_sockets.hpp's.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "serve/websocket.hpp"

namespace bg::remote {

class RemoteSeat;

class Gate {
  public:
    using Refusal = serve::WebSocketService::Refusal;
    // A connection asking for a seat: the path of its upgrade (no query), its Origin ("" when
    // it sent none) and its Host.
    struct Knock {
        std::string_view path;
        std::string_view origin;
        std::string_view host;
    };
    // The seat it takes, or why not (an HTTP status and a sentence).
    virtual std::variant<RemoteSeat*, Refusal> admit(const Knock& knock) const = 0;
    // How many games the player of `seat` has after the one of `seat`.
    virtual int games_after(const RemoteSeat& seat) const = 0;
    // A connection refused (by the gate, or by the server: its caps), with the client's address.
    virtual void refused(const Refusal& refusal, const std::string& peer) const = 0;

  protected:
    ~Gate() = default;
};

}  // namespace bg::remote
