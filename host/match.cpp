#include "host/match.hpp"

#include <csignal>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "core/event_json.hpp"
#include "core/text.hpp"
#include "host/result.hpp"

namespace bg {

namespace {

// A player that lets this much of the host's output pile up unread cannot stall the game or
// grow the host: it is out.
constexpr std::size_t output_queue_limit = 1 << 20;
// Of a player's stderr, this much is passed on; the rest is counted and dropped.
constexpr std::size_t stderr_limit = 1 << 20;
// How long a closed pipe waits for the process's exit before it is the reason itself.
constexpr std::uint64_t exit_wait_ms = 50;

std::string describe_exit(std::int64_t status, int signal) {
    if (signal != 0)
        return fmt::format("was killed by signal {} ({})", signal, strsignal(signal));
    // sh reports a command killed by signal N as status 128 + N.
    if (status > 128 && status < 128 + NSIG)
        return fmt::format("exited with status {} (its command was killed by signal {}: {})",
                           status, status - 128, strsignal(static_cast<int>(status - 128)));
    return fmt::format("exited with status {}", status);
}
}  // namespace

struct Match::Seat {
    Seat(uv_loop_t* loop, PlayerId id, Launch launch, ProcessEvents events)
        : reader(id), process(loop, std::move(launch), std::move(events)) {
        uv_timer_init(loop, &gone_timer);
    }

    PlayerReader reader;
    PlayerProcess process;
    bool ready_sent = false;  // it said r: an exit now is not a failure to start
    std::size_t stderr_bytes = 0;
    // A closed pipe usually means the process is dying: its exit, a moment later, says why.
    uv_timer_t gone_timer{};
    std::string gone_reason;
};

Match::Match(uv_loop_t* loop, Setup setup, const Dictionary& dictionary, EventLog& log,
             Reporter reporter, PlayerLines player_lines, std::vector<Launch> launches)
    : loop_(loop),
      setup_(std::move(setup)),
      dictionary_(dictionary),
      log_(log),
      reporter_(std::move(reporter)),
      player_lines_(std::move(player_lines)),
      launches_(std::move(launches)) {
    if (launches_.size() != setup_.commands.size())
        throw std::invalid_argument("one launch a player");
    std::string error;
    game_ = Game::create(setup_.game, dictionary_, &error);
    if (!game_)
        throw std::invalid_argument(error);
    for (uv_timer_t* timer : {&ready_timer_, &game_timer_}) {
        uv_timer_init(loop_, timer);
        timer->data = this;
    }
    for (uv_signal_t& signal : signals_) {
        uv_signal_init(loop_, &signal);
        signal.data = this;
    }
}

Match::~Match() = default;

std::uint64_t Match::now_ns() const {
    return uv_hrtime() - started_ns_;
}

void Match::start() {
    started_ns_ = uv_hrtime();
    log_.append("start", to_json(setup_), 0);
    log_.flush();

    // A closed terminal (SIGHUP) or ssh session, ^C, ^\\ and kill all end the game the same
    // way: aborted, recorded, and every player ended.
    const auto on_signal = [](uv_signal_t* handle, int signum) {
        auto* self = static_cast<Match*>(handle->data);
        if (self->abort_signal_ == 0)
            self->abort_signal_ = signum;
        self->submit(input::Abort{fmt::format("SIG{}", sigabbrev_np(signum))});
    };
    for (std::size_t i = 0; i < signals_.size(); ++i)
        uv_signal_start(&signals_[i], on_signal, abort_signals[i]);
    if (log_.failed()) {
        // Not one player is started for a game that cannot be recorded.
        submit(input::Abort{"the event log could not be written"});
        return;
    }

    for (std::size_t i = 0; i < setup_.commands.size(); ++i) {
        const auto id = static_cast<PlayerId>(i);
        ProcessEvents events;
        events.on_output = [this, id](std::string_view bytes) {
            Seat& seat = *seats_[id];
            if (out(id) || seat.reader.failed())
                return;
            std::vector<Input> inputs;
            seat.reader.feed(bytes, inputs);
            for (auto& in : inputs) {
                if (std::holds_alternative<input::Ready>(in))
                    seat.ready_sent = true;
                submit(std::move(in));
            }
        };
        events.on_output_end = [this, id] {
            Seat& seat = *seats_[id];
            if (out(id))
                return;
            std::vector<Input> inputs;
            seat.reader.finish(inputs);
            for (auto& in : inputs)
                submit(std::move(in));
            gone_soon(id, "closed its output (stdout)");
        };
        events.on_log = [this, id](std::string_view line) {
            Seat& seat = *seats_[id];
            if (seat.stderr_bytes > stderr_limit)
                return;
            seat.stderr_bytes += line.size() + 1;
            if (!player_lines_)
                return;
            if (seat.stderr_bytes > stderr_limit)
                player_lines_(id, "(more stderr dropped)");
            else
                player_lines_(id, escape_for_terminal(line));
        };
        events.on_exit = [this, id](std::int64_t status, int signal) {
            on_exit(id, status, signal);
        };
        events.on_write_error = [this, id](int error) {
            gone_soon(id, fmt::format("stopped reading its input ({})", uv_strerror(error)));
        };
        events.on_finished = [this] { close_if_done(); };
        seats_.push_back(
            std::make_unique<Seat>(loop_, id, std::move(launches_[i]), std::move(events)));
    }
    for (std::size_t i = 0; i < seats_.size(); ++i) {
        const int error = seats_[i]->process.spawn();
        if (error < 0) {
            failed_to_start_ = true;
            submit(input::Gone{static_cast<PlayerId>(i),
                               fmt::format("could not start: {}", uv_strerror(error))});
        }
    }
    uv_timer_start(
        &ready_timer_,
        [](uv_timer_t* timer) { static_cast<Match*>(timer->data)->submit(input::ReadyTimeout{}); },
        setup_.ready_timeout_ms, 0);
}

void Match::gone_soon(PlayerId id, std::string reason) {
    Seat& seat = *seats_[id];
    if (out(id) || uv_is_active(reinterpret_cast<uv_handle_t*>(&seat.gone_timer)))
        return;
    seat.gone_reason = std::move(reason);
    seat.gone_timer.data = this;
    uv_timer_start(
        &seat.gone_timer,
        [](uv_timer_t* timer) {
            auto* self = static_cast<Match*>(timer->data);
            for (std::size_t i = 0; i < self->seats_.size(); ++i) {
                const auto id = static_cast<PlayerId>(i);
                if (&self->seats_[i]->gone_timer == timer && !self->out(id))
                    self->submit(input::Gone{id, self->seats_[i]->gone_reason});
            }
        },
        exit_wait_ms, 0);
}

bool Match::out(PlayerId id) const {
    return game_->over() || game_->players()[id].phase == PlayerState::Phase::out;
}

void Match::on_exit(PlayerId id, std::int64_t status, int signal) {
    if (out(id))
        return;
    Seat& seat = *seats_[id];
    std::string reason = describe_exit(status, signal);
    // sh's own statuses for a command it could not find (127) or run (126).
    if (!seat.ready_sent && signal == 0 && (status == 126 || status == 127)) {
        failed_to_start_ = true;
        reason = fmt::format("could not start: sh {} ({})", reason,
                             status == 127 ? "command not found" : "command not executable");
    }
    submit(input::Gone{id, std::move(reason)});
}

// Inputs are handled one at a time, in the order they arrive, even when handling one raises
// another.
void Match::submit(Input input) {
    if (game_->over())
        return;
    pending_.push_back(std::move(input));
    if (handling_)
        return;
    handling_ = true;
    for (std::size_t i = 0; i < pending_.size() && !game_->over(); ++i) {
        // Moved out: handling it may queue more, which may move the queue's storage.
        const Input next = std::move(pending_[i]);
        handle(next);
    }
    pending_.clear();
    handling_ = false;
}

void Match::handle(const Input& in) {
    const std::uint64_t t = now_ns();
    // Records are built only when written: on a game without --log this is the hot path.
    const bool logging = log_.writing();
    log_.append("input", logging ? to_json(in) : nlohmann::json(), t);
    const std::vector<Decision> decisions = game_->handle(in);
    for (const auto& d : decisions)
        log_.append("decision", logging ? to_json(d) : nlohmann::json(), t);
    log_.flush();
    if (log_.failed()) {
        // Nothing unrecorded goes out: the game ends here, as aborted.
        if (game_->over())
            end_game();
        else
            submit(input::Abort{"the event log could not be written"});
        return;
    }
    for (const auto& d : decisions) {
        if (reporter_)
            reporter_(static_cast<double>(t) / 1e9, describe(d));
        perform(d);
    }
}

void Match::send(const Outgoing& message) {
    PlayerProcess& process = seats_[message.player]->process;
    process.write(message.bytes);
    if (process.queued_bytes() > output_queue_limit)
        submit(input::Gone{message.player, fmt::format("does not read its input ({} bytes queued)",
                                                       process.queued_bytes())});
}

void Match::perform(const Decision& decision) {
    for (const Outgoing& message : messages_for(decision, *game_, setup_.dialect))
        send(message);
    if (std::holds_alternative<decision::HandsDealt>(decision)) {
        uv_timer_stop(&ready_timer_);
        if (setup_.game_timeout_ms > 0)
            uv_timer_start(
                &game_timer_,
                [](uv_timer_t* timer) {
                    static_cast<Match*>(timer->data)->submit(input::GameTimeout{});
                },
                setup_.game_timeout_ms, 0);
    } else if (const auto* out = std::get_if<decision::Disqualified>(&decision)) {
        stop(out->player);
    } else if (std::holds_alternative<decision::GameOver>(decision)) {
        end_game();
    }
}

// A v2 player has been sent its end message: it gets the grace to read it and leave before
// SIGTERM. A legacy player is signalled at once, as the original spec says.
void Match::stop(PlayerId player) {
    const bool v2 = game_->players()[player].version == protocol_v2;
    seats_[player]->process.terminate(setup_.kill_grace_ms, v2 ? setup_.kill_grace_ms : 0);
}

void Match::end_game() {
    uv_timer_stop(&ready_timer_);
    uv_timer_stop(&game_timer_);
    log_.append("result", result_json(setup_, *game_), now_ns());
    log_.flush();
    for (std::size_t i = 0; i < seats_.size(); ++i)
        stop(static_cast<PlayerId>(i));
    close_if_done();
}

void Match::close_if_done() {
    if (closing_ || !game_->over())
        return;
    for (const auto& seat : seats_)
        if (!seat->process.finished())
            return;
    closing_ = true;
    for (auto& seat : seats_)
        uv_close(reinterpret_cast<uv_handle_t*>(&seat->gone_timer), nullptr);
    for (uv_handle_t* handle : {reinterpret_cast<uv_handle_t*>(&ready_timer_),
                                reinterpret_cast<uv_handle_t*>(&game_timer_)})
        uv_close(handle, nullptr);
    for (uv_signal_t& signal : signals_)
        uv_close(reinterpret_cast<uv_handle_t*>(&signal), nullptr);
}

std::string Match::describe(const Decision& decision) const {
    return std::visit(
        [this](const auto& d) -> std::string {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, decision::Greeted>) {
                return fmt::format("player {} speaks protocol v{}", d.player + 1, d.version);
            } else if constexpr (std::is_same_v<D, decision::HandsDealt>) {
                int dealt = 0;
                for (const auto& hand : d.hands)
                    dealt += hand.empty() ? 0 : 1;
                return fmt::format("hands dealt to {} players ({} tiles each); {} in the bunch",
                                   dealt, game_->rules().hand_size, game_->bunch_size());
            } else if constexpr (std::is_same_v<D, decision::PeelAccepted>) {
                if (game_->over() && game_->end() == End::bananas && game_->winner() == d.player)
                    return fmt::format("player {} peeled with {} tiles in the bunch: bananas!",
                                       d.player + 1, d.bunch);
                return fmt::format("player {} peeled (#{}); {} tiles in the bunch", d.player + 1,
                                   d.number, d.bunch);
            } else if constexpr (std::is_same_v<D, decision::PeelStale>) {
                return fmt::format(
                    "player {} peeled stale (its grid reflects peel #{}, now #{}; it lacks {}): "
                    "dropped",
                    d.player + 1, d.number, d.current, d.unseen);
            } else if constexpr (std::is_same_v<D, decision::Dumped>) {
                return fmt::format("player {} dumped {} for {}", d.player + 1, d.letter, d.tiles);
            } else if constexpr (std::is_same_v<D, decision::DumpRefused>) {
                return fmt::format("player {} cannot dump {}: {} tiles in the bunch", d.player + 1,
                                   d.letter, d.bunch);
            } else if constexpr (std::is_same_v<D, decision::Disqualified>) {
                return fmt::format("player {} disqualified: {}", d.player + 1, d.reason);
            } else {
                return fmt::format("game over: {}, {}", to_string(d.end),
                                   d.winner ? fmt::format("player {} won", *d.winner + 1)
                                            : std::string("no winner"));
            }
        },
        decision);
}

}  // namespace bg
