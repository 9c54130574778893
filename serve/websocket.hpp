// The server's WebSocket connections, as another folder serves them. The server (server.hpp)
// does the HTTP, the upgrade and the frames; a service says who is let in and what a
// connection's messages mean: the remote seats' (remote/seat_sockets.hpp) is the one there is.
// serve/ knows no seat, token or game.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bg::serve {

// Headers of a response: each name in lower case with its colon ("x-thing:"), and its value.
using Headers = std::vector<std::pair<std::string, std::string>>;

// One connection let in, as its handler sends on it. Everything goes out in the order it was
// given; a connection sent more than the server's queue holds is dropped.
class WebSocket {
  public:
    virtual ~WebSocket() = default;
    // Bytes of a stream (the protocol's printable bytes), as text messages split anywhere.
    virtual void send_text(std::string_view bytes) = 0;
    // One binary message, whole.
    virtual void send_binary(std::string_view message) = 0;
    // What it was given and the socket has not yet taken.
    virtual std::size_t unsent_bytes() const = 0;
    // A ping: its answer comes to Connection::pong. One ping is out at a time (a client may
    // answer only one of two, as libwebsockets does): one due while another is unanswered is
    // not sent.
    virtual void ping() = 0;
    // A ping sent after everything given so far: its answer comes to Connection::fenced, after
    // every byte the client sent before it read what came before the fence. It waits (and what
    // was given after it) for the answer to a ping already out, never dropped for it.
    virtual void fence() = 0;
    // After what it was given, a close frame with `code` and `reason` (cut to 120 bytes), and
    // the connection ends.
    virtual void close(int code, std::string_view reason) = 0;
};

class WebSocketService {
  public:
    struct Refusal {
        int status = 403;  // an HTTP status; or, once open, a close code (1009: too large)
        std::string why;
        int retry_after_s = 0;  // the seconds to wait before trying again (Retry-After), or 0
        // What kind of refusal, in a word or two ("wrong-token", "handshake-timeout"): how an
        // operator counts them. "" where the service names none (counted by its status).
        std::string kind = {};
    };
    // The upgrade request as the service reads it.
    class Upgrade {
      public:
        virtual std::string path() const = 0;  // without its query
        // A request header by its lower-case name without a colon ("origin", "host"): "" when
        // absent, or too long to be one the server takes.
        virtual std::string header(std::string_view name) const = 0;
        // A query argument's value: "" when absent.
        virtual std::string arg(std::string_view name) const = 0;
        virtual std::string peer() const = 0;  // the client's address

      protected:
        ~Upgrade() = default;
    };
    // What a service makes of one connection it let in.
    class Connection {
      public:
        virtual ~Connection() = default;
        // Added to the upgrade's response.
        virtual Headers response_headers() { return {}; }
        // The connection is open: it may be sent to.
        virtual void opened() = 0;
        // A text message's bytes as they come (a message may come in parts).
        virtual void received(std::string_view bytes) = 0;
        // A binary message, whole (within the server's bound on a message).
        virtual void received_binary(std::string_view message) { received(message); }
        virtual void pong(double rtt_ms) = 0;
        // The answer to the fence (WebSocket::fence).
        virtual void fenced() {}
        // The client sent a close frame, with its code (1005: none) and reason.
        virtual void closed_by_peer(int code, std::string_view reason) = 0;
        // The connection is gone, for `why` (after closed_by_peer too); nothing follows.
        virtual void gone(std::string why) = 0;
    };

    virtual ~WebSocketService() = default;
    // Whether `upgrade` is let in: asked before the response, when a refusal can still be an
    // HTTP status.
    virtual std::optional<Refusal> check(const Upgrade& upgrade) = 0;
    // The connection let in a moment ago by check(), on `socket`, which outlives what it
    // returns; none when it may not be after all.
    virtual std::unique_ptr<Connection> open(const Upgrade& upgrade, WebSocket& socket) = 0;
    // A refusal the server made (its cap on connections, a message too large, a handshake that
    // never came whole) or the service did, with the client's address: for the log.
    virtual void refused(const Refusal& refusal, const std::string& peer) = 0;
};

}  // namespace bg::serve
