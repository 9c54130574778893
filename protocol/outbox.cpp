#include "protocol/outbox.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "protocol/messages.hpp"

namespace bg {

namespace {

class Outbox {
  public:
    Outbox(const GameView& view, LegacyDialect dialect) : view_(view), dialect_(dialect) {}

    bool speaks_v2(PlayerId p) const {
        return sequenced(view_.players[static_cast<std::size_t>(p)].version);
    }
    // Letters a legacy player is given: bare, or '.'-terminated in v1.
    void letters(PlayerId p, std::string_view letters) {
        if (!speaks_v2(p))
            out.push_back({p, legacy_message(dialect_, letters)});
    }
    // Made only for a v2 player: a legacy one costs no formatting.
    template <typename Make>
    void v2_message(PlayerId p, Make make) {
        if (speaks_v2(p))
            out.push_back({p, make()});
    }
    void end(PlayerId p, char outcome, const std::string& reason) {
        v2_message(p, [&] {
            return v2::end(outcome, view_.standings[static_cast<std::size_t>(p)], view_.winner,
                           reason);
        });
    }

    void operator()(const decision::Greeted& d) {
        v2_message(d.player, [&] {
            return v2::version(d.version, d.player, static_cast<int>(view_.players.size()));
        });
    }
    void operator()(const decision::HandsDealt& d) {
        for (std::size_t i = 0; i < d.hands.size(); ++i) {
            if (d.hands[i].empty())
                continue;
            const auto p = static_cast<PlayerId>(i);
            letters(p, d.hands[i]);
            v2_message(p, [&] { return v2::hand(view_.peel_number, d.hands[i]); });
        }
    }
    // The peeler's ACK comes after its own tile: once it has read the ACK, its hand holds
    // every tile up to this peel.
    void operator()(const decision::PeelAccepted& d) {
        for (std::size_t i = 0; i < d.tiles.size(); ++i) {
            if (d.tiles[i] == '.')
                continue;
            const auto p = static_cast<PlayerId>(i);
            letters(p, std::string_view(&d.tiles[i], 1));
            v2_message(p, [&] { return v2::tile(d.number, d.tiles[i], d.bunch); });
        }
        v2_message(d.player, [&] { return v2::ack(d.number); });
    }
    // A legacy player is sent nothing: the tiles it lacked are already on their way.
    void operator()(const decision::PeelStale& d) {
        v2_message(d.player, [&] { return v2::nak(d.current, d.number, d.unseen); });
    }
    void operator()(const decision::Dumped& d) {
        letters(d.player, d.tiles);
        v2_message(d.player, [&] { return v2::dumped(d.tiles); });
    }
    // A legacy player has no refusal message: its letter comes back, as if swapped for itself.
    void operator()(const decision::DumpRefused& d) {
        letters(d.player, std::string_view(&d.letter, 1));
        v2_message(d.player, [&] { return v2::refused(d.letter, d.bunch); });
    }
    void operator()(const decision::Disqualified& d) { end(d.player, 'Q', d.reason); }
    void operator()(const decision::GameOver&) {
        for (std::size_t i = 0; i < view_.players.size(); ++i) {
            const auto p = static_cast<PlayerId>(i);
            if (view_.players[i].phase != PlayerState::Phase::out)
                end(p, view_.winner == p ? 'W' : 'L', "");
        }
    }

    std::vector<Outgoing> out;

  private:
    const GameView& view_;
    LegacyDialect dialect_;
};

}  // namespace

GameView view_of(const Game& game, bool with_standings) {
    GameView view;
    view.players = game.players();
    if (with_standings)
        view.standings = game.standings();
    if (game.over())
        view.winner = game.winner();
    view.peel_number = game.peel_number();
    return view;
}

bool needs_standings(const Decision& decision) {
    return std::holds_alternative<decision::Disqualified>(decision) ||
           std::holds_alternative<decision::GameOver>(decision);
}

std::vector<Outgoing> messages_for(const Decision& decision, const GameView& view,
                                   LegacyDialect dialect) {
    Outbox outbox(view, dialect);
    std::visit(outbox, decision);
    return std::move(outbox.out);
}

}  // namespace bg
