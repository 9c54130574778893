#include "props/simulation.hpp"

#include <fmt/format.h>

#include "core/grid.hpp"

#include "tests/support/staircase.hpp"

namespace bg::props {

namespace {

GameSetup sim_setup(std::uint64_t seed, std::size_t players, LegacyDialect dialect) {
    GameSetup setup;
    setup.game = RulesConfig{seed, static_cast<int>(players), 1};
    for (std::size_t p = 0; p < players; ++p)
        setup.commands.push_back(fmt::format("simulated player {}", p + 1));
    setup.dialect = dialect;
    return setup;
}

Game new_game(std::uint64_t seed, int players) {
    std::string error;
    return *Game::create(RulesConfig{seed, players, 1}, two_letter_words(), &error);
}

}  // namespace

// Live lines on: every decision's effects begin with its line, which is how the sends are
// matched with the decisions that made them.
Sim::Sim(std::uint64_t seed, std::vector<Speaks> speaks, LegacyDialect dialect, Broken broken)
    : seed_(seed),
      broken_(broken),
      dialect_(dialect),
      referee_(sim_setup(seed, speaks.size(), dialect), two_letter_words(), record_,
               RefereeOptions{true, SeatOrder::drawn}),
      players_(speaks.size()),
      wire_(speaks.size()),
      out_(speaks.size(), false) {
    for (std::size_t p = 0; p < speaks.size(); ++p)
        players_[p].speaks = speaks[p];
    referee_.start(0);
}

std::vector<Decision> Sim::send(PlayerId p, const std::string& bytes) {
    return take(arrival::Output{p, bytes});
}

std::vector<Decision> Sim::fire(const Arrival& arrival) {
    if (const auto* timer = std::get_if<arrival::TimerFired>(&arrival);
        timer && timer->timer.kind == GameTimer::Kind::game && broken_ == Broken::never_times_out)
        return {};
    return take(arrival);
}

std::vector<Decision> Sim::take(Arrival arrival) {
    const std::size_t inputs_before = record_.inputs.size();
    const std::size_t decisions_before = record_.decisions.size();
    const Effects effects = referee_.take(std::move(arrival), 0);
    for (std::size_t i = inputs_before; i < record_.inputs.size(); ++i)
        if (broken_ != Broken::forgets_an_input || ++handled_ != 2)
            log_.push_back(record_.inputs[i]);
    std::vector<Decision> made(record_.decisions.begin() + static_cast<long>(decisions_before),
                               record_.decisions.end());
    for (auto& d : made) {
        if (auto* over = std::get_if<decision::GameOver>(&d);
            over && over->end == End::stalled && broken_ == Broken::stalls_without_a_winner)
            over->winner.reset();
        if (const auto* stale = std::get_if<decision::PeelStale>(&d)) {
            if (broken_ == Broken::acks_stale_peels)
                d = decision::PeelAccepted{stale->player, stale->current,
                                           std::string(players_.size(), '.'),
                                           static_cast<int>(game().bunch_size())};
            else if (broken_ == Broken::punishes_legacy_stale &&
                     players_[static_cast<std::size_t>(stale->player)].speaks == Speaks::legacy)
                d = decision::Disqualified{stale->player, OutCode::illegal_peel, "stale"};
            else if (broken_ == Broken::punishes_dump_races &&
                     players_[static_cast<std::size_t>(stale->player)].dump_pending)
                d = decision::Disqualified{stale->player, OutCode::illegal_peel, "not the hand"};
        } else if (auto* peel = std::get_if<decision::PeelAccepted>(&d)) {
            if (broken_ == Broken::skips_a_peel_number && peel->number >= 2)
                ++peel->number;
        }
    }
    std::size_t next = 0;
    const Decision* current = nullptr;
    const auto end_of_decision = [&] {
        if (!current)
            return;
        if (const auto* out = std::get_if<decision::Disqualified>(current))
            out_[static_cast<std::size_t>(out->player)] = true;
    };
    for (const Effect& e : effects) {
        if (std::holds_alternative<effect::Line>(e)) {
            end_of_decision();
            current = &made.at(next++);
            decisions_.push_back(*current);
            if (const auto* peel = std::get_if<decision::PeelAccepted>(current);
                peel && broken_ == Broken::talks_to_the_disqualified)
                for (std::size_t p = 0; p < players_.size(); ++p)
                    if (out_[p])
                        deliver(*current, static_cast<PlayerId>(p), "E");
        } else if (const auto* send = std::get_if<effect::Send>(&e)) {
            deliver(*current, send->player, send->bytes);
        }
    }
    end_of_decision();
    return made;
}

void Sim::deliver(const Decision& decision, PlayerId to, const std::string& bytes) {
    const auto p = static_cast<std::size_t>(to);
    SimPlayer& player = players_[p];
    if (out_[p])
        sent_after_out_ = true;
    wire_[p] += bytes;
    const bool legacy = player.speaks == Speaks::legacy;
    SimPlayer::Message m{bytes, {}, 0, false, false};
    std::visit(
        [&](const auto& d) {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, decision::HandsDealt>) {
                m.tiles = d.hands[p];
                m.hand = true;
            } else if constexpr (std::is_same_v<D, decision::PeelAccepted>) {
                // A peel's tile (legacy letters, or v2's P), not the peeler's ACK nor a NAK.
                if (legacy || bytes[0] == 'P') {
                    m.tiles = bytes == "E" ? bytes : std::string(1, d.tiles[p]);
                    m.peel = d.number;
                    player.peels_received.push_back(d.number);
                }
            } else if constexpr (std::is_same_v<D, decision::Dumped>) {
                m.tiles = d.tiles;
                m.dump_reply = true;
            } else if constexpr (std::is_same_v<D, decision::DumpRefused>) {
                m.tiles = std::string(1, d.letter);
                m.dump_reply = true;
            }
        },
        decision);
    player.inbox.push_back(std::move(m));
}

void Sim::read(PlayerId p, int messages) {
    SimPlayer& player = players_[static_cast<std::size_t>(p)];
    while (messages > 0 && !player.inbox.empty()) {
        const auto& m = player.inbox.front();
        // Messages without tiles (v2's V, A, N and E) are read along the way: what counts is
        // the tiles, so a legacy and a v2 player reading "n messages" see the same.
        if (!m.tiles.empty())
            --messages;
        for (char c : m.tiles)
            player.seen.add(c);
        if (m.peel > 0)
            player.seen_number = m.peel;
        if (m.hand)
            player.has_hand = true;
        if (m.dump_reply)
            player.dump_pending = false;
        player.inbox.pop_front();
    }
}

void Sim::say_ready(PlayerId p) {
    SimPlayer& player = players_[static_cast<std::size_t>(p)];
    if (player.said_ready)
        return;
    player.said_ready = true;
    send(p, player.speaks == Speaks::v2 ? "v002R" : "r");
}

void Sim::dumped(PlayerId p, char letter) {
    SimPlayer& player = players_[static_cast<std::size_t>(p)];
    player.seen.remove(letter);
    player.dump_pending = true;
}

std::string Sim::staircase_of_seen(PlayerId p) const {
    return serialise(staircase_grid(players_[static_cast<std::size_t>(p)].seen.to_string()));
}

Replay replay(std::uint64_t seed, int players, LegacyDialect dialect,
              const std::vector<Input>& log) {
    Game game = new_game(seed, players);
    Replay out{{}, std::vector<std::string>(static_cast<std::size_t>(players))};
    for (const auto& input : log)
        for (const auto& d : game.handle(input)) {
            out.decisions.push_back(d);
            for (const auto& m : messages_for(d, view_of(game), dialect))
                out.wire[static_cast<std::size_t>(m.player)] += m.bytes;
        }
    return out;
}

}  // namespace bg::props
