// The live event stream a --serve server sends (Server-Sent Events), without the network: the
// events with their ids, the recent ones kept for clients that reconnect, and each client's
// bounded queue of bytes not yet sent. Pure: tested without a socket (tests/serve_test.cpp).
//
// Ids increase by one an event. A stream's first id is the time it began in milliseconds since
// the epoch, times 1000: the ids of a later server (a resumed tournament) are above every id of
// an earlier one, so a browser that reconnects to it with an old Last-Event-ID gets a snapshot,
// never events that are not the ones it missed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bg::serve {

struct Event {
    std::uint64_t id = 0;
    std::string name;  // the SSE event type
    std::string data;  // one line of JSON
};

// An event as SSE sends it: "id: ID\nevent: NAME\ndata: DATA\n\n".
std::string wire(const Event& event);

// The first id of a stream that begins now (see above).
std::uint64_t first_id_now();

class Stream {
  public:
    // Keeps the newest events up to `history_bytes` of their data for reconnecting clients.
    Stream(std::uint64_t first_id, std::size_t history_bytes);

    // The event, numbered.
    const Event& publish(std::string name, std::string data);
    // An event numbered elsewhere (an arena's front relays its holder's: arena/published.hpp),
    // kept where its id is above every kept one's; none where it is not. Ids may skip (a new
    // holder numbers from its own start); `after_gap`: events came between it and the one
    // before, which this stream never had, so no one who saw an earlier one resumes past it.
    const Event* publish_as(Event event, bool after_gap = false);
    // Its own events numbered from `id` on, where that is above the last one's.
    void number_from(std::uint64_t id) { next_id_ = std::max(next_id_, id); }
    // The id of the newest event, or first_id - 1 before any: a snapshot made now stands for
    // every event up to it.
    std::uint64_t last_id() const { return next_id_ - 1; }
    // The events after `last_seen` (a client's Last-Event-ID), when every one of them is still
    // kept; nullopt when some are not, or the id is not one this stream gave (an event's, or a
    // snapshot's: the id before its next event, or its last): the client needs a snapshot.
    std::optional<std::vector<const Event*>> since(std::uint64_t last_seen) const;
    // The bytes of the events kept (at most history_bytes, but for the newest event).
    std::size_t kept_bytes() const { return kept_bytes_; }

  private:
    void keep(Event event);

    std::uint64_t first_id_;
    std::uint64_t next_id_;
    std::uint64_t dropped_to_;  // the newest id no longer kept (first_id - 1 before any)
    std::size_t history_bytes_;
    std::size_t kept_bytes_ = 0;
    std::deque<Event> kept_;
};

// A client's bytes not yet sent. It holds at most `limit` bytes: what would go over it is
// refused, and the server drops that client (a client that reads slower than the games play
// is never waited for; it reconnects and gets a snapshot).
class SendQueue {
  public:
    explicit SendQueue(std::size_t limit) : limit_(limit) {}

    // False, and nothing taken, when `text` would take it over its limit.
    bool push(std::string_view text);
    // Up to `most` bytes from the front, to be sent; then sent() with how many were.
    std::string_view front(std::size_t most) const;
    void sent(std::size_t bytes);
    bool empty() const { return size() == 0; }
    std::size_t size() const { return buffer_.size() - start_; }

  private:
    std::size_t limit_;
    std::string buffer_;
    std::size_t start_ = 0;  // bytes of buffer_ already sent
};

// A WebSocket connection's messages not yet sent, at most `limit` bytes of them: the bytes of a
// stream (sent as text messages, split anywhere) and whole binary messages between them, in the
// order they were given.
class MessageQueue {
  public:
    explicit MessageQueue(std::size_t limit) : limit_(limit) {}

    // False, and nothing taken, when the bytes would take it over its limit.
    bool push_text(std::string_view bytes);
    bool push_binary(std::string_view message);
    // A fence: a ping sent after everything queued before it (WebSocket::fence).
    void push_fence();
    struct Front {
        std::string_view bytes;  // a text message's (up to `most`), or a binary one's whole
        bool binary = false;
        bool fence = false;  // no bytes: the fence's ping goes now (then sent(0))
    };
    // What goes next; then sent() with how many of its bytes were.
    Front front(std::size_t most) const;
    void sent(std::size_t bytes);
    bool empty() const { return parts_.empty(); }
    std::size_t size() const { return size_; }

  private:
    struct Part {
        enum Kind { text, binary, fence } kind = text;
        std::string bytes;
    };
    std::size_t limit_;
    std::size_t size_ = 0;
    std::size_t start_ = 0;  // bytes of the front part already sent
    std::deque<Part> parts_;
};

}  // namespace bg::serve
