// A player's seat, as a match talks to it: bytes in, bytes out, gone, and what it used. How the
// bytes travel, and what a player is (a process started for the game, one that outlives it, a
// network connection, a person's page), is the seat's business: the match and the referee know
// only this, and nothing of cgroups or connections. ProcessSeat (process_seat.hpp) is a process,
// for one game or kept for several; RemoteSeat (remote/remote_seat.hpp) a WebSocket connection to
// the host's server.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/out_code.hpp"
#include "record/usage.hpp"

namespace bg {

class Seat {
  public:
    // What a seat tells its match; each is called from the loop, none after finished, and
    // none inside a call to the seat but send_failed, which may come from inside send() (a
    // write that fails at once).
    struct Events {
        std::function<void(std::string_view bytes)> output;  // bytes from the player
        std::function<void()> output_end;                // it will send no more (its stdout closed)
        std::function<void(std::string_view line)> log;  // a line it wrote for people (stderr)
        // Its process ended: a status, or the signal that killed it.
        std::function<void(std::int64_t status, int signal)> exited;
        // It is gone, for a reason only the seat can name, as a code and in words: its
        // connection dropped and it did not come back (OutCode::left), the kernel killed one of
        // its processes for want of memory (OutCode::out_of_memory).
        std::function<void(OutCode code, std::string reason)> gone;
        // What was sent could not be written: it closed its input, most likely.
        std::function<void(std::string error)> send_failed;
        // Nothing of it is left: the seat may be destroyed.
        std::function<void()> finished;
        // Something of the seat that the game's log keeps and that changes nothing in the game
        // (a connection taken, dropped or refused); none when empty.
        std::function<void(std::string what)> note;
    };

    virtual ~Seat() = default;

    // Where it reports what happens: set by its match before anything else (a seat closed before
    // it was opened still says it has finished); set again by each game a kept seat is in, and
    // by its owner between them.
    virtual void attach(Events events) = 0;
    // Takes its player in: "" once it is under way, or why it cannot be (a command that cannot
    // start, a cgroup that cannot be made); it then finishes as soon as it is closed.
    virtual std::string open() = 0;
    virtual void send(std::string bytes) = 0;
    // What it was sent and has not yet taken: bounded by the match (Referee::backlog_limit).
    virtual std::size_t unsent_bytes() const = 0;
    // Its game is over, or it is out: it may leave by itself for `farewell_ms` once its input
    // has ended (none: 0), and is then made to, for good `grace_ms` later. Idempotent.
    virtual void close(std::uint64_t farewell_ms, std::uint64_t grace_ms) = 0;
    // The game is over and its player may stay for the next (protocol v004), as its owner lets
    // it (Match::Options::keep): true when the seat keeps it, and is then finished for this game
    // with its player still there; false when it cannot (its player gone), and is to be closed.
    virtual bool keep() { return false; }
    // It holds a player kept from the game before: it needs no open() for the next.
    virtual bool kept() const { return false; }
    // A kept seat's next game begins (its player is sent G, not started).
    virtual void continues() {}
    // It serves its one game only: a player it keeps at the game's end is to be told there is
    // no next game in it (B.) and closed, never parked for the next (a remote seat taken by a
    // connection for one game).
    virtual bool serves_one_game() const { return false; }
    virtual bool finished() const = 0;
    // What its player used in the game it was last attached to, once finished: CPU time and
    // peak memory where a cgroup counted them, how long it waited for a CPU over the race (or
    // why there is no figure), a connection's round trips.
    virtual PlayerUsage usage() const = 0;
    // Its game's race (from the deal to the game's end) begins, and ends: over it, a seat that
    // can measures how long its player waited for a CPU. Called by its match, once each a game.
    virtual void race_begins() {}
    virtual void race_ends() {}
};

}  // namespace bg
