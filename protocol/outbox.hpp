// What each player is sent for a decision, in the protocol it speaks: legacy (either dialect)
// or v2. Pure: the transport writes these bytes as they are.
#pragma once

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

// `game` is the state right after the decision was made.
std::vector<Outgoing> messages_for(const Decision& decision, const Game& game,
                                   LegacyDialect dialect);

}  // namespace bg
