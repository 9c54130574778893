#include "props/simulation.hpp"

#include <fmt/format.h>

#include "players/staircase.hpp"

namespace bg::props {

namespace {

Game new_game(std::uint64_t seed, int players) {
    std::string error;
    return *Game::create(GameConfig{seed, players, 1}, two_letter_words(), &error);
}

}  // namespace

Sim::Sim(std::uint64_t seed, std::vector<Speaks> speaks, LegacyDialect dialect, Broken broken)
    : seed_(seed),
      broken_(broken),
      dialect_(dialect),
      game_(new_game(seed, static_cast<int>(speaks.size()))),
      players_(speaks.size()),
      wire_(speaks.size()),
      out_(speaks.size(), false) {
    for (std::size_t p = 0; p < speaks.size(); ++p) {
        players_[p].speaks = speaks[p];
        readers_.emplace_back(static_cast<PlayerId>(p));
    }
}

std::vector<Decision> Sim::send(PlayerId p, const std::string& bytes) {
    std::vector<Input> inputs;
    readers_[p].feed(bytes, inputs);
    std::vector<Decision> all;
    for (const auto& in : inputs)
        for (auto& d : handle(in))
            all.push_back(std::move(d));
    return all;
}

std::vector<Decision> Sim::fire(const Input& timer) {
    return handle(timer);
}

std::vector<Decision> Sim::handle(const Input& input) {
    if (broken_ == Broken::never_times_out && std::holds_alternative<input::GameTimeout>(input))
        return {};
    if (broken_ != Broken::forgets_an_input || ++handled_ != 2)
        log_.push_back(input);
    std::vector<Decision> made = game_.handle(input);
    for (auto& d : made) {
        if (const auto* stale = std::get_if<decision::PeelStale>(&d)) {
            if (broken_ == Broken::acks_stale_peels)
                d = decision::PeelAccepted{stale->player, stale->current,
                                           std::string(players_.size(), '.'),
                                           static_cast<int>(game_.bunch_size())};
            else if (broken_ == Broken::punishes_legacy_stale &&
                     players_[static_cast<std::size_t>(stale->player)].speaks == Speaks::legacy)
                d = decision::Disqualified{stale->player, "stale"};
        } else if (auto* peel = std::get_if<decision::PeelAccepted>(&d)) {
            if (broken_ == Broken::skips_a_peel_number && peel->number >= 2)
                ++peel->number;
            if (broken_ == Broken::talks_to_the_disqualified)
                for (std::size_t p = 0; p < players_.size(); ++p)
                    if (out_[p] && peel->tiles[p] == '.')
                        peel->tiles[p] = 'E';
        }
    }
    for (const auto& d : made) {
        decisions_.push_back(d);
        deliver(d);
    }
    return made;
}

void Sim::deliver(const Decision& decision) {
    for (const Outgoing& message : messages_for(decision, game_, dialect_)) {
        const auto p = static_cast<std::size_t>(message.player);
        SimPlayer& player = players_[p];
        if (out_[p])
            sent_after_out_ = true;
        wire_[p] += message.bytes;
        SimPlayer::Message m{message.bytes, {}, 0, false, false};
        std::visit(
            [&](const auto& d) {
                using D = std::decay_t<decltype(d)>;
                if constexpr (std::is_same_v<D, decision::HandsDealt>) {
                    m.tiles = d.hands[p];
                    m.hand = true;
                } else if constexpr (std::is_same_v<D, decision::PeelAccepted>) {
                    if (message.bytes[0] != 'A' || player.speaks == Speaks::legacy) {
                        m.tiles = std::string(1, d.tiles[p]);
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
    if (const auto* out = std::get_if<decision::Disqualified>(&decision))
        out_[static_cast<std::size_t>(out->player)] = true;
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
            for (const auto& m : messages_for(d, game, dialect))
                out.wire[static_cast<std::size_t>(m.player)] += m.bytes;
        }
    return out;
}

}  // namespace bg::props
