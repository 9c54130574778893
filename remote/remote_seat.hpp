// A seat taken by a WebSocket connection to the host's server (docs/remote.md): a bot anywhere,
// through bananagrams-connect, or a person on the /play page. The connection's frames carry
// the protocol's bytes, split anywhere, both ways; the match reads them as it reads a pipe.
//
// The seat waits for its connection from the start: the game's ready timeout bounds the wait,
// as it bounds a process's first word. A connection that drops is not the player leaving yet:
// for `grace_ms` a connection with the same token may take the seat again, and is sent every
// byte the one before had not received (it says how many it had), and told how many of its
// own the host has (so that it sends on from there): nothing is lost or doubled. After the
// grace the player has left, as a process that exits has; one that closes its connection
// itself (a close frame) has left at once, unless it said it was going away (1001: a page
// reloaded or closed), which is a drop. Pings measure the round trip.
//
// A `v004` player's seat is kept at its game's end (keep()), as a process is. Taken by a
// connection for one game, its owner (the lineup) then tells it B. and closes it; taken by a
// session (a connection that stays for its player's games, docs/remote.md), it is parked as a
// process is, and its player is sent G for the next game.
#pragma once

#include <uv.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/handles.hpp"
#include "transport/seat.hpp"

namespace bg::remote {

class Desk;

class RemoteSeat final : public Seat {
  public:
    // The connection that holds the seat, as the server keeps it.
    class Link {
      public:
        virtual ~Link() = default;
        virtual void send(std::string_view bytes) = 0;
        // What it was sent and the socket has not yet taken.
        virtual std::size_t unsent_bytes() const = 0;
        // A WebSocket ping: pong() when its answer comes.
        virtual void ping() = 0;
        // The seat has let it go and hears nothing more from it: after what it was sent, a
        // close frame with `code` and `reason`, and the connection ends (a session's waits for
        // its player's next seat instead).
        virtual void close(int code, std::string_view reason) = 0;
        // Whether it stays for its player's games (a session).
        virtual bool session() const { return false; }
        // How the seat's game begins for the player on it: its first connection to the seat,
        // its next game in a seat kept for it, or a connection that comes back to it.
        enum class Begins { fresh, kept, resumed };
        virtual void begins(Begins) {}
    };
    struct Options {
        std::uint64_t grace_ms = 10'000;  // for a dropped connection to come back
        std::uint64_t ping_ms = 1'000;    // between pings
    };

    RemoteSeat(uv_loop_t* loop, Desk& desk, std::string token, Options options);
    RemoteSeat(const RemoteSeat&) = delete;
    RemoteSeat& operator=(const RemoteSeat&) = delete;
    ~RemoteSeat() override;

    void attach(Events events) override {
        events_ = std::move(events);
        kept_ = false;
    }
    // Opens its door: a connection with its token may take it from now on.
    std::string open() override;
    void send(std::string bytes) override;
    std::size_t unsent_bytes() const override;
    void close(std::uint64_t farewell_ms, std::uint64_t grace_ms) override;
    bool keep() override;
    bool kept() const override { return kept_; }
    void continues() override;
    // One taken by a session is parked between its games, as a process is.
    bool serves_one_game() const override { return !session_; }
    bool finished() const override { return finished_ || kept_; }
    // Its connection's round trips; its processes' use is not this machine's to count.
    PlayerUsage usage() const override;

    // The server's side.
    const std::string& token() const { return token_; }
    // How many bytes the host has received from its player.
    std::uint64_t received() const { return received_; }
    enum class Door { not_yet, open, taken, closed };
    Door door() const;
    // Its player is in its game: connected now, or dropped and not yet past the grace.
    bool in_play() const {
        return door() == Door::taken || (door() == Door::open && connections_ > 0);
    }
    // `link` takes the seat, having received `received` of the bytes sent to it before (0 the
    // first time): it is sent the rest. Returns how many of its own bytes the host has.
    std::uint64_t join(Link& link, std::uint64_t received);
    void receive(std::string_view bytes);
    void pong(double rtt_ms);
    // Its connection is gone, for `why`: dropped (it may come back within the grace), or
    // `closed` by its player, who has then left.
    void drop(std::string why, bool closed = false);
    // Its player will not come (Desk::abandon): once open, and not taken, it is left at once.
    void abandon();

  private:
    void note(std::string what);
    void leave(std::string reason);
    void finish();

    Desk& desk_;
    std::string token_;
    Options options_;
    Events events_;
    Link* link_ = nullptr;
    bool opened_ = false;
    bool closing_ = false;  // its game is over for it: no connection may take it
    bool finished_ = false;
    bool left_ = false;
    bool abandoned_ = false;        // its player will not come: left as soon as it opens
    bool kept_ = false;             // its game is over, its player still there
    bool session_ = false;          // its last connection stays for its player's games
    std::string sent_;              // every byte sent to its player in this game
    std::uint64_t received_ = 0;    // bytes received from its player
    std::uint64_t dropped_at_ = 0;  // of sent_, what its last connection had been given
    int connections_ = 0;
    std::vector<double> rtts_;
    Timer grace_;
    Timer pinger_;
    Timer finisher_;  // says finished() from a turn of its own, not inside close()
};

}  // namespace bg::remote
