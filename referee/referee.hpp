// One game's referee session, pure: it owns the players' readers, the game, the outbox and the
// log, and has two doors: what reached the host from outside (a player's bytes, the end of its
// output, its exit, a timer, a signal), and the start. Each call returns what the host must do
// as data (bytes for a player, stop a player, start or stop a timer, the game is over); every
// decision is in the log, flushed, before the effects it causes are returned. No libuv, no
// clock (time comes in with the arrivals), no file descriptors: the host's Match interprets the
// effects on libuv, and the property tests, the transcripts and the game fuzzer drive this same
// class without processes.
//
// Seat order carries no advantage. What reaches the host in one turn of its loop is taken in an
// order drawn from the game's seed, a player's own arrivals in the order they came; the
// messages of one decision (the hands, a peel's tiles) go out to the players in an order drawn
// the same way. The log records the inputs in the order they were taken, so a replay needs
// nothing new.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/dictionary.hpp"
#include "core/game.hpp"
#include "protocol/outbox.hpp"
#include "protocol/player_reader.hpp"
#include "record/event_log.hpp"
#include "record/result.hpp"
#include "record/setup.hpp"

namespace bg {

// The timers a game asks its host for.
struct GameTimer {
    enum class Kind {
        ready,      // every player must say r before it fires
        game,       // the game's time from the deal
        exit_wait,  // a player's output closed: its exit, a moment later, says better why
        stall,      // with the bunch unable to serve a dump, no peel accepted for so long
    };
    Kind kind = Kind::ready;
    PlayerId player = 0;  // exit_wait's player
    friend bool operator==(const GameTimer&, const GameTimer&) = default;
};

namespace arrival {
struct Output {  // bytes from a player's stdout
    PlayerId player = 0;
    std::string bytes;
};
struct OutputEnd {  // its stdout closed
    PlayerId player = 0;
};
struct Exited {  // its process exited: a status, or the signal that killed it
    PlayerId player = 0;
    std::int64_t status = 0;
    int signal = 0;
};
struct StartFailed {  // its command could not be started at all
    PlayerId player = 0;
    std::string error;
};
// It is gone, for a reason only its seat can name (Seat::Events::gone): a connection that
// dropped, a process the kernel killed for want of memory.
struct Gone {
    PlayerId player = 0;
    OutCode code = OutCode::left;
    std::string reason;
};
struct InputError {  // a write to its stdin failed: it closed it, most likely
    PlayerId player = 0;
    std::string error;
};
struct Backlog {  // this much of what it was sent is still unread (reported past backlog_limit)
    PlayerId player = 0;
    std::size_t bytes = 0;
};
struct TimerFired {
    GameTimer timer;
};
// Something of a seat that changes nothing in the game (a connection taken, dropped or
// refused): only noted in the log, while the game is recorded. `seat`: its player, or -1.
struct Note {
    int seat = -1;
    std::string what;
};
struct Signalled {  // the host was told to stop: the game is aborted
    int signal = 0;
    std::string name;  // "SIGINT"
};
}  // namespace arrival

using Arrival =
    std::variant<arrival::Output, arrival::OutputEnd, arrival::Exited, arrival::StartFailed,
                 arrival::Gone, arrival::InputError, arrival::Backlog, arrival::TimerFired,
                 arrival::Signalled, arrival::Note>;

namespace effect {
// Start the player's command (the players are started in an order drawn like every other).
struct Start {
    PlayerId player = 0;
    friend bool operator==(const Start&, const Start&) = default;
};
struct Send {
    PlayerId player = 0;
    std::string bytes;
    friend bool operator==(const Send&, const Send&) = default;
};
struct StartTimer {
    GameTimer timer;
    std::uint64_t ms = 0;
    friend bool operator==(const StartTimer&, const StartTimer&) = default;
};
struct StopTimer {
    GameTimer timer;
    friend bool operator==(const StopTimer&, const StopTimer&) = default;
};
// End the player's processes: SIGTERM after `farewell_ms` (a v2 player has been sent its end
// and may leave by itself; its input is closed after what is queued), SIGKILL `grace_ms` later.
// `may_stay`: the game is over and the player, speaking v004 and not put out, may stay for its
// match's next game (Seat::keep); it is then not ended unless its seat cannot keep it.
struct Stop {
    PlayerId player = 0;
    std::uint64_t farewell_ms = 0;
    std::uint64_t grace_ms = 0;
    bool may_stay = false;
    friend bool operator==(const Stop&, const Stop&) = default;
};
// A live line for people (record/live_lines.hpp), when the referee was asked for them.
struct Line {
    std::uint64_t t_ns = 0;
    std::string text;
    friend bool operator==(const Line&, const Line&) = default;
};
// The game is over; the host still waits for the players to go, then calls finish(), which puts
// what they used and the result in the log.
struct GameOver {
    friend bool operator==(const GameOver&, const GameOver&) = default;
};
}  // namespace effect

using Effect = std::variant<effect::Start, effect::Send, effect::StartTimer, effect::StopTimer,
                            effect::Stop, effect::Line, effect::GameOver>;
using Effects = std::vector<Effect>;

// How the arrivals of one turn, and the messages of one decision, are ordered among players.
enum class SeatOrder {
    drawn,  // from the seed: no seat is worth more than another (the only order the host uses)
    fixed,  // seat 1 first, as the host did before: kept for the fairness benchmark's baseline
};

// How a player played beyond the game's own counts, for a tournament's standings.
struct SeatStats {
    int stale_peels = 0;
    // Its think time: from the host sending it new tiles (its hand, a peel's tile, a dump's
    // answer) to its next peel, summed over the peels that followed new tiles.
    int timed_peels = 0;
    std::uint64_t think_ns = 0;
};

struct RefereeOptions {
    bool live_lines = false;
    SeatOrder seat_order = SeatOrder::drawn;
};

class Referee {
  public:
    // How long a closed output waits for the process's exit before it is the reason itself.
    static constexpr std::uint64_t exit_wait_ms = 50;
    // A player that lets this much of the host's output pile up unread cannot stall the game or
    // grow the host: it is out.
    static constexpr std::size_t backlog_limit = 1 << 20;

    // Throws std::invalid_argument for a setup no game can be made of (player or set count).
    Referee(GameSetup setup, const Dictionary& dictionary, LogSink& log,
            RefereeOptions options = {});

    // A continuing player's reader (setup().game.continuing): the one its process's game before
    // released, mid-message perhaps. Before start().
    void continue_reader(PlayerId player, PlayerReader reader);
    // The start record, the ready timer, and a Start for every player started for the game and
    // G for every continuing one; an abort (and neither) when the log cannot be written.
    Effects start(std::uint64_t t_ns);
    // Everything that reached the host in one turn of its loop, in the order it came.
    Effects take(std::vector<Arrival> arrivals, std::uint64_t t_ns);
    Effects take(Arrival arrival, std::uint64_t t_ns);
    // Once the game is over and every player's processes are gone: what each used (in seat
    // order; empty when nothing was counted), then the result, go in the log. Once.
    void finish(std::vector<PlayerUsage> usage, std::uint64_t t_ns);

    // Once the game is over: the reader of a player that may stay for the next game (its Stop
    // said may_stay), which has read, and ignored, every P and D it sent since; nullopt for one
    // that may not, or that has since sent anything else (it cannot be kept).
    std::optional<PlayerReader> release_reader(PlayerId player);

    bool over() const { return game_.over(); }
    // The race's length (from the deal to the end), once the game is over.
    std::optional<std::uint64_t> race_ns() const { return race_.ns(); }
    bool finished() const { return finished_; }
    const Game& game() const { return game_; }
    const GameSetup& setup() const { return setup_; }
    // The result (with what the players used once finished, and the referee's counts): what
    // --json prints and the log's last record holds, as to_json writes it.
    GameResult result() const;
    // A player's command could not be started (by the host, or by sh: status 126 or 127).
    bool any_failed_to_start() const { return failed_to_start_; }
    // The signal that aborted the game, or 0.
    int abort_signal() const { return abort_signal_; }
    const SeatStats& seat_stats(PlayerId player) const {
        return seats_[static_cast<std::size_t>(player)].stats;
    }

  private:
    struct Seat {
        explicit Seat(PlayerId id) : reader(id) {}
        PlayerReader reader;
        bool ready_sent = false;  // it said r: an exit now is not a failure to start
        bool exit_wait = false;   // its exit_wait timer runs
        std::string gone_reason;  // the reason it will be given when the timer fires
        OutCode gone_code = OutCode::other;
        SeatStats stats;
        std::optional<std::uint64_t> tiles_sent_ns;  // new tiles it has not answered with a peel
        bool may_stay = false;  // the game is over, and it may stay for the next (v004)
    };

    void take_one(Arrival arrival, std::uint64_t t_ns, Effects& effects);
    void on(arrival::Output& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::OutputEnd& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::Exited& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::Gone& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::StartFailed& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::InputError& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::Backlog& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::TimerFired& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::Signalled& a, std::uint64_t t_ns, Effects& effects);
    void on(arrival::Note& a, std::uint64_t t_ns, Effects& effects);
    // After the game: what a player that may stay sends is read, P and D ignored (sent before
    // it read its E); anything else, or its end, and it may not.
    void take_after_game(const Arrival& arrival);
    void count(const Input& input, const std::vector<Decision>& decisions, std::uint64_t t_ns);
    void handle(const Input& input, std::uint64_t t_ns, Effects& effects);
    // A closed pipe usually means the process is dying: its exit, a moment later, says why;
    // else `reason` puts it out.
    void gone_soon(PlayerId player, OutCode code, std::string reason, Effects& effects);
    void perform(const Decision& decision, const GameView& view, Effects& effects);
    void send(std::vector<Outgoing> messages, Effects& effects);
    void end_game(Effects& effects);
    // The stall clock runs while the bunch cannot serve a dump, from then or the last peel
    // accepted since.
    void watch_for_stall(const std::vector<Decision>& decisions, Effects& effects);
    void stop(PlayerId player, Effects& effects);
    bool out(PlayerId player) const;
    // Where an arrival comes from: a player, or (players().size()) the host's clock and signals.
    std::size_t source_of(const Arrival& arrival) const;
    // Puts `items` in an order of their sources (0 to `sources` - 1) drawn from the seed, each
    // source's items in the order they were; with fewer than two items, or the fixed seat
    // order, leaves them as they are (and draws nothing).
    template <class T, class SourceOf>
    void in_seat_order(std::vector<T>& items, std::size_t sources, SourceOf source_of);

    GameSetup setup_;
    RefereeOptions options_;
    LogSink& log_;
    Game game_;
    SplitMix64 order_rng_;
    std::vector<Seat> seats_;
    bool failed_to_start_ = false;
    int abort_signal_ = 0;
    bool finished_ = false;
    std::vector<PlayerUsage> usage_;
    RaceClock race_;
    // Which call of take() this is, and the one that last started the stall clock (none when it
    // is not running): a firing taken in the call that restarted it came before the restart.
    std::uint64_t takes_ = 0;
    std::optional<std::uint64_t> stall_started_;
};

}  // namespace bg
