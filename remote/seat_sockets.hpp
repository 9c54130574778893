// The WebSocket connections of remote seats (docs/remote.md): the server's service
// (serve/websocket.hpp) for /seat/TOKEN. Each connection is let in by the gate (the desk: who
// may take which seat), and is then its seat's link: the seat's bytes go out as text messages,
// the player's come in as the bytes of a pipe, pings measure the round trip, and the
// upgrade's response says how many of the player's bytes the host has, how many games follow,
// and which word list judges them.
//
// A connection that asks for a session (X-Bananagrams-Session: 1) stays for its player's games:
// it waits at the gate between them, and is told, in binary messages apart from the player's
// bytes, as each game begins (its bot started afresh, kept, or the game resumed) and as its seat
// lets the bot go (docs/remote.md, "Sessions"). Any other serves one game.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "remote/gate.hpp"
#include "serve/request.hpp"
#include "serve/websocket.hpp"

namespace bg::remote {

class SeatSockets final : public serve::WebSocketService {
  public:
    // The gate outlives the service; `served`, what the server serves the seats' players (the
    // word list the response names).
    SeatSockets(Gate& gate, const std::optional<serve::ForPlayers>& served);

    std::optional<Refusal> check(const Upgrade& upgrade) override;
    std::unique_ptr<Connection> open(const Upgrade& upgrade, serve::WebSocket& socket) override;
    void refused(const Refusal& refusal, const std::string& peer) override {
        gate_.refused(refusal, peer);
    }

    // The session protocol's version, in the request's and the response's header.
    static constexpr const char* session_version = "1";

  private:
    Gate& gate_;
    serve::Headers word_list_;  // the response's headers that name the word list
};

}  // namespace bg::remote
