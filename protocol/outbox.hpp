// What each player is sent for a decision, in the protocol it speaks: legacy (either dialect)
// or v2. Pure: the transport writes these bytes as they are.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compat/legacy.hpp"
#include "core/game.hpp"

namespace bg {

struct Outgoing {
    PlayerId player = 0;
    std::string bytes;
    friend bool operator==(const Outgoing&, const Outgoing&) = default;
};

// What the outbox needs to know of the game, as it stands right after the decision: a view of
// its players (their protocol, whether they are out), not a copy.
struct GameView {
    std::span<const PlayerState> players;
    // Each player's standing (Game::standings); needed only for Disqualified and GameOver.
    std::vector<int> standings;
    std::optional<PlayerId> winner;  // once the game is over
    int peel_number = 0;
};
// With standings only when `with_standings` (they cost a pass over every pair of players).
GameView view_of(const Game& game, bool with_standings = true);
// Whether encoding this decision needs the standings.
bool needs_standings(const Decision& decision);

std::vector<Outgoing> messages_for(const Decision& decision, const GameView& view,
                                   LegacyDialect dialect);

}  // namespace bg
