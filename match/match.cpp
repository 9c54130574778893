#include "match/match.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg {

namespace {

// Of a player's stderr, this much is passed on; the rest is counted and dropped.
constexpr std::size_t stderr_limit = 1 << 20;

}  // namespace

// A seat, with what the match keeps of it: the timer that waits for its exit once its output
// has closed, and how much of its stderr it has passed on.
struct Match::Place {
    Place(std::unique_ptr<bg::Seat> seat, Timer exit_wait)
        : seat(std::move(seat)), exit_wait(std::move(exit_wait)) {}

    std::unique_ptr<bg::Seat> seat;
    Timer exit_wait;
    std::size_t stderr_bytes = 0;
};

Match::Match(uv_loop_t* loop, GameSetup setup, const Dictionary& dictionary, LogSink& log,
             std::vector<std::unique_ptr<Seat>> seats, Options options)
    : loop_(loop),
      referee_(std::move(setup), dictionary, log,
               RefereeOptions{static_cast<bool>(options.reporter), options.seat_order}),
      options_(std::move(options)),
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
    if (seats.size() != referee_.setup().commands.size())
        throw std::invalid_argument("one seat a player");
    for (std::size_t i = 0; i < seats.size(); ++i) {
        const auto id = static_cast<PlayerId>(i);
        places_.push_back(std::make_unique<Place>(
            std::move(seats[i]), Timer(loop_, [this, id] {
                arrive(arrival::TimerFired{{GameTimer::Kind::exit_wait, id}});
            })));
        places_.back()->seat->attach(events_of(id));
    }
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
    settling_ = true;
    Effects effects = referee_.start(0);
    for (auto& effect : effects)
        perform(effect);
    settling_ = false;
    settle();
    close_if_done();
}

// What a seat says, as arrivals for the referee; its stderr, capped, as lines for people.
Seat::Events Match::events_of(PlayerId id) {
    Seat::Events events;
    events.output = [this, id](std::string_view bytes) {
        arrive(arrival::Output{id, std::string(bytes)});
    };
    events.output_end = [this, id] { arrive(arrival::OutputEnd{id}); };
    events.log = [this, id](std::string_view line) { pass_on(id, line); };
    events.exited = [this, id](std::int64_t status, int signal) {
        arrive(arrival::Exited{id, status, signal});
    };
    events.gone = [this, id](OutCode code, std::string reason) {
        arrive(arrival::Gone{id, code, std::move(reason)});
    };
    events.send_failed = [this, id](std::string error) {
        arrive(arrival::InputError{id, std::move(error)});
    };
    events.finished = [this] { close_if_done(); };
    events.note = [this, id](std::string what) { arrive(arrival::Note{id, std::move(what)}); };
    return events;
}

void Match::pass_on(PlayerId id, std::string_view line) {
    Place& place = *places_[static_cast<std::size_t>(id)];
    if (place.stderr_bytes > stderr_limit)
        return;
    place.stderr_bytes += line.size() + 1;
    if (!options_.player_lines)
        return;
    if (place.stderr_bytes > stderr_limit)
        options_.player_lines(id, "(more stderr dropped)");
    else
        options_.player_lines(id, escape_for_terminal(line));
}

void Match::note(std::string what) {
    if (!done_)
        arrive(arrival::Note{-1, std::move(what)});
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
        const bool dealt = referee_.game().dealt(), over = referee_.over();
        Effects effects = referee_.take(std::exchange(arrived_, {}), now_ns());
        // The race's ends are measured before anything of the turn is done: before the hands
        // are sent, and before the players are told the game is over.
        if (!dealt && referee_.game().dealt())
            for (auto& place : places_)
                place->seat->race_begins();
        if (!over && referee_.over() && referee_.game().dealt())
            for (auto& place : places_)
                place->seat->race_ends();
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
    return places_[static_cast<std::size_t>(which.player)]->exit_wait;
}

void Match::perform(Effect& effect) {
    std::visit(
        [this](auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, effect::Start>) {
                Seat& seat = *places_[static_cast<std::size_t>(e.player)]->seat;
                if (auto error = seat.open(); !error.empty())
                    arrive(arrival::StartFailed{e.player, std::move(error)});
            } else if constexpr (std::is_same_v<E, effect::Send>) {
                Seat& seat = *places_[static_cast<std::size_t>(e.player)]->seat;
                seat.send(std::move(e.bytes));
                if (seat.unsent_bytes() > Referee::backlog_limit)
                    arrive(arrival::Backlog{e.player, seat.unsent_bytes()});
            } else if constexpr (std::is_same_v<E, effect::StartTimer>) {
                timer(e.timer).start(e.ms);
            } else if constexpr (std::is_same_v<E, effect::StopTimer>) {
                timer(e.timer).stop();
            } else if constexpr (std::is_same_v<E, effect::Stop>) {
                Seat& seat = *places_[static_cast<std::size_t>(e.player)]->seat;
                if (!(e.may_stay && options_.keep && seat.keep()))
                    seat.close(e.farewell_ms, e.grace_ms);
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

std::vector<Match::Released> Match::release_seats() {
    std::vector<Released> released;
    for (std::size_t i = 0; i < places_.size(); ++i)
        released.push_back(
            {std::move(places_[i]->seat), referee_.release_reader(static_cast<PlayerId>(i))});
    return released;
}

void Match::close_if_done() {
    if (done_ || !referee_.over())
        return;
    for (const auto& place : places_)
        if (!place->seat->finished())
            return;
    done_ = true;
    // Every seat is finished: what each used, then the result, go in the log.
    std::vector<PlayerUsage> usage;
    for (const auto& place : places_)
        usage.push_back(place->seat->usage());
    referee_.finish(std::move(usage), now_ns());
    for (auto& place : places_)
        place->exit_wait.close();
    ready_timer_.close();
    game_timer_.close();
    stall_timer_.close();
    turn_end_.close();
    if (options_.on_done)
        options_.on_done();
}

}  // namespace bg
