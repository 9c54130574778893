#include "host/match.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg {

namespace {

// Of a player's stderr, this much is passed on; the rest is counted and dropped.
constexpr std::size_t stderr_limit = 1 << 20;

}  // namespace

struct Match::Seat {
    Seat(uv_loop_t* loop, Launch launch, ProcessEvents events,
         std::unique_ptr<cgroups::Player> cgroup, std::string cgroup_error,
         std::function<void()> on_exit_wait)
        : process(loop, std::move(launch), std::move(events), std::move(cgroup)),
          exit_wait(loop, std::move(on_exit_wait)),
          cgroup_error(std::move(cgroup_error)) {}

    PlayerProcess process;
    Timer exit_wait;
    std::string cgroup_error;  // why its cgroup could not be made: it is not started
    std::size_t stderr_bytes = 0;
};

Match::Match(uv_loop_t* loop, Setup setup, const Dictionary& dictionary, LogSink& log,
             std::vector<Launch> launches, Options options)
    : loop_(loop),
      referee_(std::move(setup), dictionary, log,
               RefereeOptions{static_cast<bool>(options.reporter), options.seat_order}),
      options_(std::move(options)),
      launches_(std::move(launches)),
      ready_timer_(loop,
                   [this] {
                       arrive(arrival::TimerFired{{GameTimer::Kind::ready, 0}});
                   }),
      game_timer_(loop,
                  [this] {
                      arrive(arrival::TimerFired{{GameTimer::Kind::game, 0}});
                  }),
      stall_timer_(loop,
                   [this] {
                       arrive(arrival::TimerFired{{GameTimer::Kind::stall, 0}});
                   }),
      turn_end_(loop, [this] { settle(); }) {
    if (launches_.size() != referee_.setup().commands.size())
        throw std::invalid_argument("one launch a player");
}

// Every handle is closed by then (close_if_done), unless the loop was abandoned mid-game; the
// players' processes then die with their handles' owners only at exit, as bwrap's
// --die-with-parent makes them.
Match::~Match() = default;

std::uint64_t Match::now_ns() const {
    return uv_hrtime() - started_ns_;
}

void Match::start() {
    started_ns_ = uv_hrtime();
    for (std::size_t i = 0; i < launches_.size(); ++i) {
        const auto id = static_cast<PlayerId>(i);
        ProcessEvents events;
        events.on_output = [this, id](std::string_view bytes) {
            arrive(arrival::Output{id, std::string(bytes)});
        };
        events.on_output_end = [this, id] { arrive(arrival::OutputEnd{id}); };
        events.on_log = [this, id](std::string_view line) {
            Seat& seat = *seats_[static_cast<std::size_t>(id)];
            if (seat.stderr_bytes > stderr_limit)
                return;
            seat.stderr_bytes += line.size() + 1;
            if (!options_.player_lines)
                return;
            if (seat.stderr_bytes > stderr_limit)
                options_.player_lines(id, "(more stderr dropped)");
            else
                options_.player_lines(id, escape_for_terminal(line));
        };
        events.on_exit = [this, id](std::int64_t status, int signal) {
            arrive(arrival::Exited{id, status, signal});
        };
        events.on_write_error = [this, id](int error) {
            arrive(arrival::InputError{id, uv_strerror(error)});
        };
        events.on_out_of_memory = [this, id] {
            arrive(arrival::OutOfMemory{id, options_.limits.memory_bytes});
        };
        events.on_finished = [this] { close_if_done(); };
        std::unique_ptr<cgroups::Player> cgroup;
        std::string cgroup_error;
        if (options_.cgroup) {
            auto made = options_.cgroup->player(static_cast<int>(i), options_.limits);
            if (auto* error = std::get_if<std::string>(&made))
                cgroup_error = "cannot make its cgroup: " + *error;
            else
                cgroup = std::move(std::get<std::unique_ptr<cgroups::Player>>(made));
        }
        seats_.push_back(std::make_unique<Seat>(
            loop_, std::move(launches_[i]), std::move(events), std::move(cgroup),
            std::move(cgroup_error), [this, id] {
                arrive(arrival::TimerFired{{GameTimer::Kind::exit_wait, id}});
            }));
    }
    settling_ = true;
    Effects effects = referee_.start(0);
    for (auto& effect : effects)
        perform(effect);
    settling_ = false;
    settle();
    close_if_done();
}

void Match::abort(int signal) {
    arrive(arrival::Signalled{signal, fmt::format("SIG{}", sigabbrev_np(signal))});
}

void Match::arrive(Arrival arrival) {
    arrived_.push_back(std::move(arrival));
    turn_end_.arm();
}

void Match::settle() {
    if (settling_)
        return;
    settling_ = true;
    while (!arrived_.empty()) {
        Effects effects = referee_.take(std::exchange(arrived_, {}), now_ns());
        for (auto& effect : effects)
            perform(effect);
    }
    settling_ = false;
}

Timer& Match::timer(const GameTimer& which) {
    switch (which.kind) {
        case GameTimer::Kind::ready:
            return ready_timer_;
        case GameTimer::Kind::game:
            return game_timer_;
        case GameTimer::Kind::stall:
            return stall_timer_;
        case GameTimer::Kind::exit_wait:
            break;
    }
    return seats_[static_cast<std::size_t>(which.player)]->exit_wait;
}

void Match::perform(Effect& effect) {
    std::visit(
        [this](auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, effect::Start>) {
                Seat& seat = *seats_[static_cast<std::size_t>(e.player)];
                if (!seat.cgroup_error.empty())
                    arrive(arrival::StartFailed{e.player, seat.cgroup_error});
                else if (seat.process.spawn() < 0)
                    arrive(arrival::StartFailed{e.player, seat.process.spawn_error()});
            } else if constexpr (std::is_same_v<E, effect::Send>) {
                PlayerProcess& process = seats_[static_cast<std::size_t>(e.player)]->process;
                process.write(std::move(e.bytes));
                if (process.queued_bytes() > Referee::backlog_limit)
                    arrive(arrival::Backlog{e.player, process.queued_bytes()});
            } else if constexpr (std::is_same_v<E, effect::StartTimer>) {
                timer(e.timer).start(e.ms);
            } else if constexpr (std::is_same_v<E, effect::StopTimer>) {
                timer(e.timer).stop();
            } else if constexpr (std::is_same_v<E, effect::Stop>) {
                seats_[static_cast<std::size_t>(e.player)]->process.terminate(e.grace_ms,
                                                                              e.farewell_ms);
            } else if constexpr (std::is_same_v<E, effect::Line>) {
                if (options_.reporter)
                    options_.reporter(static_cast<double>(e.t_ns) / 1e9, e.text);
            } else {
                static_assert(std::is_same_v<E, effect::GameOver>);
                close_if_done();
            }
        },
        effect);
}

void Match::close_if_done() {
    if (done_ || !referee_.over())
        return;
    for (const auto& seat : seats_)
        if (!seat->process.finished())
            return;
    done_ = true;
    // Every player's processes are gone: what each used, then the result, go in the log.
    std::vector<PlayerUsage> usage;
    for (const auto& seat : seats_) {
        const auto& counted = seat->process.usage();
        usage.push_back(counted ? PlayerUsage{counted->cpu_ns, counted->memory_peak_bytes}
                                : PlayerUsage{});
    }
    referee_.finish(std::move(usage), now_ns());
    for (auto& seat : seats_)
        seat->exit_wait.close();
    ready_timer_.close();
    game_timer_.close();
    stall_timer_.close();
    turn_end_.close();
    if (options_.on_done)
        options_.on_done();
}

}  // namespace bg
