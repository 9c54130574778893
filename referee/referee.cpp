#include "referee/referee.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "protocol/messages.hpp"
#include "record/live_lines.hpp"
#include "record/result.hpp"

namespace bg {

namespace {

Game new_game(const GameSetup& setup, const Dictionary& dictionary) {
    if (setup.commands.size() != static_cast<std::size_t>(setup.game.players))
        throw std::invalid_argument("one command a player");
    std::string error;
    auto game = Game::create(setup.game, dictionary, &error);
    if (!game)
        throw std::invalid_argument(error);
    return std::move(*game);
}

std::string describe_exit(std::int64_t status, int signal) {
    if (signal != 0)
        return fmt::format("was killed by signal {} ({})", signal, strsignal(signal));
    // sh reports a command killed by signal N as status 128 + N.
    if (status > 128 && status < 128 + NSIG)
        return fmt::format("exited with status {} (its command was killed by signal {}: {})",
                           status, status - 128, strsignal(static_cast<int>(status - 128)));
    return fmt::format("exited with status {}", status);
}

// The order's generator is its own stream of the seed: drawing orders never changes the deal.
constexpr std::uint64_t order_stream = 0x5ea7'0fde'a1e5'0000ULL;

}  // namespace

Referee::Referee(GameSetup setup, const Dictionary& dictionary, LogSink& log,
                 RefereeOptions options)
    : setup_(std::move(setup)),
      options_(options),
      log_(log),
      game_(new_game(setup_, dictionary)),
      order_rng_(setup_.game.seed ^ order_stream) {
    for (std::size_t i = 0; i < setup_.commands.size(); ++i)
        seats_.emplace_back(static_cast<PlayerId>(i));
    // A continuing player's handshake was its process's first game's.
    const auto& continuing = setup_.game.continuing;
    for (std::size_t i = 0; i < continuing.size(); ++i)
        if (continuing[i])
            seats_[i].reader = PlayerReader::after_handshake(static_cast<PlayerId>(i));
}

template <class T, class SourceOf>
void Referee::in_seat_order(std::vector<T>& items, std::size_t sources, SourceOf source_of) {
    if (items.size() < 2 || options_.seat_order != SeatOrder::drawn)
        return;
    std::vector<std::size_t> rank(sources);
    std::iota(rank.begin(), rank.end(), std::size_t{0});
    order_rng_.shuffle(std::span(rank));
    std::stable_sort(items.begin(), items.end(), [&](const T& a, const T& b) {
        return rank[source_of(a)] < rank[source_of(b)];
    });
}

GameResult Referee::result() const {
    GameResult result = game_result(setup_, game_, usage_, race_.ns());
    for (std::size_t i = 0; i < result.players.size() && i < seats_.size(); ++i) {
        const SeatStats& stats = seats_[i].stats;
        result.players[i].counts = PeelCounts{stats.stale_peels, stats.timed_peels,
                                              static_cast<double>(stats.think_ns) / 1e6};
    }
    return result;
}

void Referee::finish(std::vector<PlayerUsage> usage, std::uint64_t t_ns) {
    if (finished_ || !game_.over())
        return;
    finished_ = true;
    usage.resize(seats_.size());
    usage_ = std::move(usage);
    if (setup_.version >= 2)
        for (std::size_t i = 0; i < usage_.size(); ++i)
            log_.usage(static_cast<PlayerId>(i), usage_[i], t_ns);
    log_.result(to_json(result(), setup_.version), t_ns);
    log_.flush();
}

Effects Referee::start(std::uint64_t t_ns) {
    Effects effects;
    log_.start(setup_, t_ns);
    log_.flush();
    if (log_.failed()) {
        // Not one player is started for a game that cannot be recorded.
        handle(input::Abort{"the event log could not be written"}, t_ns, effects);
        return effects;
    }
    effects.push_back(effect::StartTimer{{GameTimer::Kind::ready, 0}, setup_.ready_timeout_ms});
    // The first started is the first to run, and may stay ahead on its CPU: no seat always is.
    std::vector<PlayerId> order(seats_.size());
    std::iota(order.begin(), order.end(), PlayerId{0});
    in_seat_order(order, seats_.size(), [](PlayerId p) { return static_cast<std::size_t>(p); });
    const auto& continuing = setup_.game.continuing;
    for (const PlayerId p : order) {
        const auto i = static_cast<std::size_t>(p);
        if (i < continuing.size() && continuing[i])
            effects.push_back(effect::Send{p, v2::next_game(p, static_cast<int>(seats_.size()))});
        else
            effects.push_back(effect::Start{p});
    }
    return effects;
}

void Referee::continue_reader(PlayerId player, PlayerReader reader) {
    reader.seat_as(player);
    seats_[static_cast<std::size_t>(player)].reader = std::move(reader);
}

std::optional<PlayerReader> Referee::release_reader(PlayerId player) {
    Seat& seat = seats_[static_cast<std::size_t>(player)];
    if (!game_.over() || !seat.may_stay || seat.reader.failed())
        return std::nullopt;
    seat.may_stay = false;
    return std::move(seat.reader);
}

void Referee::take_after_game(const Arrival& arrival) {
    const std::size_t source = source_of(arrival);
    if (source >= seats_.size())
        return;
    Seat& seat = seats_[source];
    if (!seat.may_stay)
        return;
    const auto* output = std::get_if<arrival::Output>(&arrival);
    if (!output) {
        // Its end, its exit, a failed write: it is not kept.
        seat.may_stay = false;
        return;
    }
    std::vector<Input> inputs;
    seat.reader.feed(output->bytes, inputs);
    for (const auto& in : inputs)
        if (!std::holds_alternative<input::Peel>(in) && !std::holds_alternative<input::Dump>(in))
            seat.may_stay = false;
}

Effects Referee::take(Arrival arrival, std::uint64_t t_ns) {
    Effects effects;
    ++takes_;
    take_one(std::move(arrival), t_ns, effects);
    race_.after(game_, t_ns);
    return effects;
}

Effects Referee::take(std::vector<Arrival> arrivals, std::uint64_t t_ns) {
    Effects effects;
    ++takes_;
    in_seat_order(arrivals, seats_.size() + 1, [this](const Arrival& a) { return source_of(a); });
    for (auto& arrival : arrivals) {
        take_one(std::move(arrival), t_ns, effects);
        race_.after(game_, t_ns);
    }
    return effects;
}

std::size_t Referee::source_of(const Arrival& arrival) const {
    return std::visit(
        [this](const auto& a) -> std::size_t {
            if constexpr (requires { a.player; })
                return static_cast<std::size_t>(a.player);
            else if constexpr (requires { a.timer; })
                return a.timer.kind == GameTimer::Kind::exit_wait
                           ? static_cast<std::size_t>(a.timer.player)
                           : seats_.size();
            else
                return seats_.size();
        },
        arrival);
}

void Referee::take_one(Arrival arrival, std::uint64_t t_ns, Effects& effects) {
    if (const auto* note = std::get_if<arrival::Note>(&arrival)) {
        if (!finished_ && setup_.version >= 6)
            log_.note(note->seat, note->what, t_ns);
        return;
    }
    if (game_.over())
        return take_after_game(arrival);
    std::visit([&](auto& a) { on(a, t_ns, effects); }, arrival);
}

// What each arrival is for the game: inputs, in the order the player or the clock made them.

void Referee::on(arrival::Output& a, std::uint64_t t_ns, Effects& effects) {
    Seat& seat = seats_[static_cast<std::size_t>(a.player)];
    if (out(a.player) || seat.reader.failed())
        return;
    std::vector<Input> inputs;
    seat.reader.feed(a.bytes, inputs);
    for (const auto& in : inputs) {
        if (std::holds_alternative<input::Ready>(in))
            seat.ready_sent = true;
        handle(in, t_ns, effects);
    }
}

void Referee::on(arrival::OutputEnd& a, std::uint64_t t_ns, Effects& effects) {
    if (out(a.player))
        return;
    std::vector<Input> inputs;
    seats_[static_cast<std::size_t>(a.player)].reader.finish(inputs);
    for (const auto& in : inputs)
        handle(in, t_ns, effects);
    gone_soon(a.player, OutCode::closed_output, "closed its output (stdout)", effects);
}

void Referee::on(arrival::Exited& a, std::uint64_t t_ns, Effects& effects) {
    if (out(a.player))
        return;
    std::string reason = describe_exit(a.status, a.signal);
    OutCode code = a.signal ? OutCode::killed : OutCode::exited;
    // sh's own statuses for a command it could not find (127) or run (126).
    if (!seats_[static_cast<std::size_t>(a.player)].ready_sent && a.signal == 0 &&
        (a.status == 126 || a.status == 127)) {
        failed_to_start_ = true;
        code = OutCode::could_not_start;
        reason = fmt::format("could not start: sh {} ({})", reason,
                             a.status == 127 ? "command not found" : "command not executable");
    }
    handle(input::Gone{a.player, code, std::move(reason)}, t_ns, effects);
}

void Referee::on(arrival::Gone& a, std::uint64_t t_ns, Effects& effects) {
    if (!out(a.player))
        handle(input::Gone{a.player, a.code, std::move(a.reason)}, t_ns, effects);
}

void Referee::on(arrival::StartFailed& a, std::uint64_t t_ns, Effects& effects) {
    failed_to_start_ = true;
    handle(input::Gone{a.player, OutCode::could_not_start, "could not start: " + a.error}, t_ns,
           effects);
}

void Referee::on(arrival::InputError& a, std::uint64_t, Effects& effects) {
    gone_soon(a.player, OutCode::stopped_reading,
              fmt::format("stopped reading its input ({})", a.error), effects);
}

void Referee::on(arrival::Backlog& a, std::uint64_t t_ns, Effects& effects) {
    if (a.bytes > backlog_limit && !out(a.player))
        handle(input::Gone{a.player, OutCode::stopped_reading,
                           fmt::format("does not read its input ({} bytes queued)", a.bytes)},
               t_ns, effects);
}

void Referee::on(arrival::TimerFired& a, std::uint64_t t_ns, Effects& effects) {
    switch (a.timer.kind) {
        case GameTimer::Kind::ready:
            return handle(input::ReadyTimeout{}, t_ns, effects);
        case GameTimer::Kind::game:
            return handle(input::GameTimeout{}, t_ns, effects);
        case GameTimer::Kind::stall:
            // A firing from before the clock was stopped or restarted in this turn is no stall.
            if (stall_started_ && *stall_started_ != takes_)
                handle(input::StallTimeout{}, t_ns, effects);
            return;
        case GameTimer::Kind::exit_wait: {
            Seat& seat = seats_[static_cast<std::size_t>(a.timer.player)];
            seat.exit_wait = false;
            if (!out(a.timer.player))
                handle(input::Gone{a.timer.player, seat.gone_code, seat.gone_reason}, t_ns,
                       effects);
            return;
        }
    }
}

void Referee::on(arrival::Signalled& a, std::uint64_t t_ns, Effects& effects) {
    // Once the game is over a signal stops nothing: the host only waits for the players to go,
    // and its exit says the game was played (take_one has passed it to take_after_game).
    if (abort_signal_ == 0)
        abort_signal_ = a.signal;
    handle(input::Abort{a.name}, t_ns, effects);
}

void Referee::on(arrival::Note&, std::uint64_t, Effects&) {
    // Taken before the visit (take_one).
}

void Referee::gone_soon(PlayerId player, OutCode code, std::string reason, Effects& effects) {
    Seat& seat = seats_[static_cast<std::size_t>(player)];
    if (out(player) || seat.exit_wait)
        return;
    seat.exit_wait = true;
    seat.gone_reason = std::move(reason);
    seat.gone_code = code;
    effects.push_back(effect::StartTimer{{GameTimer::Kind::exit_wait, player}, exit_wait_ms});
}

bool Referee::out(PlayerId player) const {
    return game_.over() ||
           game_.players()[static_cast<std::size_t>(player)].phase == PlayerState::Phase::out;
}

void Referee::handle(const Input& input, std::uint64_t t_ns, Effects& effects) {
    if (game_.over())
        return;
    log_.input(input, t_ns);
    const std::vector<Decision> decisions = game_.handle(input);
    for (const auto& d : decisions)
        log_.decision(d, t_ns);
    log_.flush();
    if (log_.failed()) {
        // Nothing unrecorded goes out: the game ends here, as aborted.
        if (game_.over())
            end_game(effects);
        else
            handle(input::Abort{"the event log could not be written"}, t_ns, effects);
        return;
    }
    count(input, decisions, t_ns);
    const bool standings = std::any_of(decisions.begin(), decisions.end(), needs_standings);
    const GameView view = view_of(game_, standings);
    for (const auto& d : decisions) {
        if (options_.live_lines)
            effects.push_back(effect::Line{t_ns, live_line(d, game_)});
        perform(d, view, effects);
    }
    watch_for_stall(decisions, effects);
}

void Referee::watch_for_stall(const std::vector<Decision>& decisions, Effects& effects) {
    if (setup_.stall_timeout_ms == 0 || game_.over() || !game_.dealt())
        return;
    const GameTimer stall{GameTimer::Kind::stall, 0};
    if (game_.bunch_serves_dumps()) {
        // A player put out gave its tiles back: dumps are served again.
        if (std::exchange(stall_started_, std::nullopt))
            effects.push_back(effect::StopTimer{stall});
        return;
    }
    const bool peeled = std::any_of(decisions.begin(), decisions.end(), [](const Decision& d) {
        return std::holds_alternative<decision::PeelAccepted>(d);
    });
    if (stall_started_ && !peeled)
        return;
    stall_started_ = takes_;
    effects.push_back(effect::StartTimer{stall, setup_.stall_timeout_ms});
}

void Referee::count(const Input& input, const std::vector<Decision>& decisions,
                    std::uint64_t t_ns) {
    if (const auto* peel = std::get_if<input::Peel>(&input)) {
        Seat& seat = seats_[static_cast<std::size_t>(peel->player)];
        if (seat.tiles_sent_ns) {
            ++seat.stats.timed_peels;
            seat.stats.think_ns += t_ns - *seat.tiles_sent_ns;
            seat.tiles_sent_ns.reset();
        }
    }
    const auto sent = [&](PlayerId player) {
        auto& since = seats_[static_cast<std::size_t>(player)].tiles_sent_ns;
        if (!since)
            since = t_ns;
    };
    for (const auto& d : decisions) {
        if (const auto* dealt = std::get_if<decision::HandsDealt>(&d)) {
            for (std::size_t i = 0; i < dealt->hands.size(); ++i)
                if (!dealt->hands[i].empty())
                    sent(static_cast<PlayerId>(i));
        } else if (const auto* peel = std::get_if<decision::PeelAccepted>(&d)) {
            for (std::size_t i = 0; i < peel->tiles.size(); ++i)
                if (peel->tiles[i] != '.')
                    sent(static_cast<PlayerId>(i));
        } else if (const auto* dump = std::get_if<decision::Dumped>(&d)) {
            sent(dump->player);
        } else if (const auto* stale = std::get_if<decision::PeelStale>(&d)) {
            ++seats_[static_cast<std::size_t>(stale->player)].stats.stale_peels;
        }
    }
}

void Referee::perform(const Decision& decision, const GameView& view, Effects& effects) {
    send(messages_for(decision, view, setup_.dialect), effects);
    if (std::holds_alternative<decision::HandsDealt>(decision)) {
        effects.push_back(effect::StopTimer{{GameTimer::Kind::ready, 0}});
        if (setup_.game_timeout_ms > 0)
            effects.push_back(
                effect::StartTimer{{GameTimer::Kind::game, 0}, setup_.game_timeout_ms});
    } else if (const auto* out = std::get_if<decision::Disqualified>(&decision)) {
        stop(out->player, effects);
    } else if (std::holds_alternative<decision::GameOver>(decision)) {
        end_game(effects);
    }
}

// One player's messages keep their order (a peeler's tile before its ACK); the players take
// turns in the drawn order.
void Referee::send(std::vector<Outgoing> messages, Effects& effects) {
    in_seat_order(messages, seats_.size(),
                  [](const Outgoing& m) { return static_cast<std::size_t>(m.player); });
    for (auto& message : messages)
        effects.push_back(effect::Send{message.player, std::move(message.bytes)});
}

// A v2 player has been sent its end message: it gets the grace to read it and leave before
// SIGTERM. A legacy player is signalled at once, as the original spec says.
// A v004 player still in when the game ends normally may stay for its match's next game.
void Referee::stop(PlayerId player, Effects& effects) {
    const PlayerState& state = game_.players()[static_cast<std::size_t>(player)];
    const bool v2 = sequenced(state.version);
    const bool may_stay = game_.over() && game_.end() != End::aborted &&
                          state.phase != PlayerState::Phase::out && stays_for_match(state.version);
    seats_[static_cast<std::size_t>(player)].may_stay = may_stay;
    effects.push_back(
        effect::Stop{player, v2 ? setup_.kill_grace_ms : 0, setup_.kill_grace_ms, may_stay});
}

void Referee::end_game(Effects& effects) {
    effects.push_back(effect::StopTimer{{GameTimer::Kind::ready, 0}});
    effects.push_back(effect::StopTimer{{GameTimer::Kind::game, 0}});
    if (std::exchange(stall_started_, std::nullopt))
        effects.push_back(effect::StopTimer{{GameTimer::Kind::stall, 0}});
    for (std::size_t i = 0; i < seats_.size(); ++i)
        stop(static_cast<PlayerId>(i), effects);
    effects.push_back(effect::GameOver{});
}

}  // namespace bg
