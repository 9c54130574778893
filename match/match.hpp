// A live game on libuv: only the interpreter of a Referee's effects. Its players are seats
// (transport/seat.hpp: bytes in, bytes out, gone, what each used), whatever each is; its timers
// and the turns of the loop are transport's handles. What they report is handed to the referee
// as arrivals, once a turn, and what the referee returns is done: bytes sent, timers started,
// seats closed. Many matches can share one loop.
#pragma once

#include <uv.h>

#include <array>
#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/dictionary.hpp"
#include "record/event_log.hpp"
#include "record/setup.hpp"
#include "referee/referee.hpp"
#include "transport/handles.hpp"
#include "transport/seat.hpp"

namespace bg {

class Match {
  public:
    // Live lines for people, one per decision; none (and no work to make them) when empty.
    using Reporter = std::function<void(double seconds, const std::string& line)>;
    // A line of a player's stderr, already escaped for a terminal; none when empty.
    using PlayerLines = std::function<void(PlayerId player, const std::string& line)>;
    // The signals that abort a game: each ends it as `aborted`, with every player ended.
    static constexpr std::array<int, 4> abort_signals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

    struct Options {
        Reporter reporter;
        PlayerLines player_lines;
        SeatOrder seat_order = SeatOrder::drawn;
        // Whether a seat may keep its player at the game's end, where the player may stay for
        // the next (protocol v004): its owner's, a lineup, which lets it go or parks it.
        bool keep = false;
        // Called once the game is over, every seat is finished and every handle of the match is
        // closed: the match may then be destroyed.
        std::function<void()> on_done;
    };

    // A seat for each player, in seat order. Throws std::invalid_argument for a setup no game
    // can be made of.
    Match(uv_loop_t* loop, GameSetup setup, const Dictionary& dictionary, LogSink& log,
          std::vector<std::unique_ptr<Seat>> seats, Options options);
    Match(const Match&) = delete;
    Match& operator=(const Match&) = delete;
    ~Match();

    // A continuing player's reader, from its game before (Referee::continue_reader). Before
    // start().
    void continue_reader(PlayerId player, PlayerReader reader) {
        referee_.continue_reader(player, std::move(reader));
    }
    // Starts the clocks and opens the seats; the loop then plays the game to its end.
    void start();
    // Once done (Options::on_done): each seat, with the reader of a player that stays for the
    // next game (Referee::release_reader), for its owner to keep or let go. Every seat that
    // does not hold a kept player is finished.
    struct Released {
        std::unique_ptr<Seat> seat;
        std::optional<PlayerReader> reader;
    };
    std::vector<Released> release_seats();
    // The host was told to stop: the game ends as aborted, every player ended.
    void abort(int signal);
    // Something that changes nothing in the game, for its log (a refused connection).
    void note(std::string what);

    const Referee& referee() const { return referee_; }

  private:
    struct Place;

    Seat::Events events_of(PlayerId id);
    void pass_on(PlayerId id, std::string_view line);
    void arrive(Arrival arrival);
    // Hands the arrivals of this turn to the referee and does what it says, until nothing more
    // has arrived.
    void settle();
    void perform(Effect& effect);
    Timer& timer(const GameTimer& which);
    void close_if_done();
    std::uint64_t now_ns() const;

    uv_loop_t* loop_;
    Referee referee_;
    Options options_;
    std::vector<std::unique_ptr<Place>> places_;  // each seat, with what the match keeps of it
    Timer ready_timer_;
    Timer game_timer_;
    Timer stall_timer_;
    TurnEnd turn_end_;
    std::uint64_t started_ns_ = 0;
    std::vector<Arrival> arrived_;
    bool settling_ = false;
    bool done_ = false;
};

}  // namespace bg
