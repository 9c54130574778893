// The players of a run of games with the same bots (host --games, a tournament's table): each a
// slot, taken in each game by a process of its command. A process that speaks v004 stays from
// game to game, in one sandbox and one cgroup for its life (protocol-v2.md, "v004"); any other is
// started for its game and ended with it, as a lone game's are.
//
// Between games a kept process is parked here: what it sends is read by its own reader (which
// carries a message cut by the game's end into the next), its P and D ignored; anything else,
// its exit, its output's end, or going over its memory total, and it is ended, to be started
// afresh for its next game (a restart, counted). So is one that was put out of its game. A
// process that has played --games-per-process games is told B. and a fresh one takes its slot
// (not a restart). Nor does a process play a deal twice: one parked after a game of the deal
// to come (another seat rotation of it) is told B. and a fresh one takes its slot (not a
// restart), for it knows that deal's hands and the tiles each seat will be given.
//
// Its seats come from a seat source (match/seat_source.hpp), of whatever kind: a seat that serves
// one game only (a remote seat taken for one game) is made afresh for each; the lineup parks none
// of them, and tells a v004 player in one B. at its game's end, as it tells a process that has
// played its last.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cgroups/cgroups.hpp"
#include "core/game.hpp"
#include "match/match.hpp"
#include "match/seat_source.hpp"
#include "protocol/player_reader.hpp"
#include "transport/process_seat.hpp"

namespace bg {

class Lineup {
  public:
    struct Options {
        bool keep = true;           // false: every process is started for one game (--fresh-bots)
        int games_per_process = 0;  // a kept process plays at most this many games (0: no bound)
        std::uint64_t kill_grace_ms = 2'000;  // after B., to leave by itself; then to die
        // A line a parked process wrote on stderr (its slot, from 0); none when empty.
        std::function<void(int slot, const std::string& line)> player_lines;
        // A process let go has finished: finished() may now say so. Called from inside the
        // process's own callback: the lineup may not be destroyed there.
        std::function<void()> on_let_go;
    };

    // `commands`: the players; slot s plays command `commands[s]` of the venue's plan, in a
    // seat from `seats`. Their processes go in `cgroup` (none: no cgroups). Both outlive the
    // lineup.
    Lineup(uv_loop_t* loop, const SeatSource& seats, cgroups::GameCgroup* cgroup,
           std::vector<int> commands, Options options);
    Lineup(const Lineup&) = delete;
    Lineup& operator=(const Lineup&) = delete;
    ~Lineup();

    // A game's players: seat i is taken by slot `slots[i]`. For the game's setup, which of them
    // continue in a kept process; for its match, their seats and the readers they continue with.
    struct Seating {
        std::vector<std::unique_ptr<Seat>> seats;
        std::vector<std::optional<Continuing>> continuing;
        std::vector<std::optional<PlayerReader>> readers;
        std::vector<bool> restarted;  // started afresh, its process before unable to go on
    };
    // `deal`: the game's deal (its seed), which no process plays twice.
    Seating seat(const std::vector<int>& slots, std::uint64_t deal);
    // Whether a process parked now has played `deal`: seated for it, it would be let go.
    bool seen(std::uint64_t deal) const;
    // After the game (its match's release_seats(), and its players' states): each seat back to
    // its slot, a player that stays parked, the rest let go.
    void take_back(std::vector<Match::Released> released, const std::vector<PlayerState>& players);
    // No game follows: every parked process is told B. and ended (after kill_grace_ms to leave
    // by itself). The loop then runs until finished().
    void dismiss();
    // Nothing of any of its processes is left.
    bool finished();

    // How many times slot s's process has been started afresh because the one before could not
    // go on (it was put out, crashed, left or misbehaved between games).
    int restarts(int slot) const { return slots_[static_cast<std::size_t>(slot)].restarts; }
    // Which game of its process slot s's last game was (1: a process started for it).
    int process_game(int slot) const { return slots_[static_cast<std::size_t>(slot)].games; }

  private:
    struct Slot {
        int command = 0;
        std::unique_ptr<Seat> parked;        // its player, kept between games
        std::optional<PlayerReader> reader;  // the parked process's
        std::size_t parked_bytes = 0;        // what it has sent since it was parked
        int version = 0;                     // the version its parked process speaks
        int games = 0;                       // games its present process has played
        std::vector<std::uint64_t> deals;    // and the deals of those games
        int lives = 0;                       // processes started for it
        bool lost = false;  // its v004 process could not go on: the next is a restart
        int restarts = 0;
        Seat* playing = nullptr;  // its seat in the game under way
    };

    Seat::Events parked_events(int slot);
    // Ends a parked process for misbehaving or going between games: a restart next.
    void drop(int slot);
    // Ends slot `index`'s process: after B. when `farewell`, else at once. What it still writes
    // on stderr is passed on.
    void let_go(int index, std::unique_ptr<Seat> seat, bool farewell);
    void sweep();

    uv_loop_t* loop_;
    const SeatSource& seats_;
    cgroups::GameCgroup* cgroup_;
    Options options_;
    std::vector<Slot> slots_;
    std::vector<int> seated_;                     // the slot of each seat of the game
    std::vector<std::unique_ptr<Seat>> leaving_;  // ended, until finished
};

}  // namespace bg
