// A live game: the libuv side of the host. Every player message, timer, process exit and signal
// becomes an input; each input is logged, handed to the core, and the decisions it yields are
// logged before their effects (bytes, signals) go out.
#pragma once

#include <uv.h>

#include <array>
#include <csignal>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/dictionary.hpp"
#include "core/game.hpp"
#include "host/event_log.hpp"
#include "host/setup.hpp"
#include "protocol/outbox.hpp"
#include "protocol/player_reader.hpp"
#include "transport/player_process.hpp"

namespace bg {

class Match {
  public:
    // Live lines for people, one per decision; none (and no work to make them) when empty.
    using Reporter = std::function<void(double seconds, const std::string& line)>;
    // A line of a player's stderr, already escaped for a terminal; none when empty.
    using PlayerLines = std::function<void(PlayerId player, const std::string& line)>;
    // The signals that abort a game: each ends it as `aborted`, with every player ended.
    static constexpr std::array<int, 4> abort_signals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

    Match(uv_loop_t* loop, Setup setup, const Dictionary& dictionary, EventLog& log,
          Reporter reporter, PlayerLines player_lines, std::vector<Launch> launches);
    Match(const Match&) = delete;
    Match& operator=(const Match&) = delete;
    ~Match();

    // Spawns the players and starts the clocks; uv_run then plays the game to its end and
    // returns once every player's processes are gone and every handle is closed.
    void start();

    const Game& game() const { return *game_; }
    const Setup& setup() const { return setup_; }
    // Players whose command could not be started at all.
    bool any_failed_to_start() const { return failed_to_start_; }
    // The signal that aborted the game, or 0.
    int abort_signal() const { return abort_signal_; }

  private:
    struct Seat;

    void submit(Input input);
    void handle(const Input& input);
    void perform(const Decision& decision);
    void send(const Outgoing& message);
    void on_exit(PlayerId player, std::int64_t status, int signal);
    bool out(PlayerId player) const;
    // `reason` puts the player out unless its exit, coming first, gives a better one.
    void gone_soon(PlayerId player, std::string reason);  // out of the game, or the game is over
    void end_game();
    void stop(PlayerId player);
    void close_if_done();
    std::uint64_t now_ns() const;
    std::string describe(const Decision& decision) const;

    uv_loop_t* loop_;
    Setup setup_;
    const Dictionary& dictionary_;
    EventLog& log_;
    Reporter reporter_;
    PlayerLines player_lines_;
    std::vector<Launch> launches_;  // how each player is started, in seat order
    std::optional<Game> game_;
    std::vector<std::unique_ptr<Seat>> seats_;
    uv_timer_t ready_timer_{};
    uv_timer_t game_timer_{};
    std::array<uv_signal_t, abort_signals.size()> signals_{};
    std::uint64_t started_ns_ = 0;
    std::vector<Input> pending_;
    bool handling_ = false;
    bool closing_ = false;
    bool failed_to_start_ = false;
    int abort_signal_ = 0;
};

}  // namespace bg
