// The tiles of a game: the standard 144-tile bunch, how many sets a game uses, and hand sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/letters.hpp"

namespace bg {

// A13 B3 C3 D6 E18 F3 G4 H3 I12 J2 K2 L5 M3 N8 O11 P3 Q2 R9 S6 T9 U6 V3 W3 X2 Y3 Z2: 144 tiles.
const LetterCounts& standard_set();

inline constexpr int min_players = 1;
inline constexpr int max_players = 64;
inline constexpr int players_per_set = 8;
inline constexpr int max_sets = 16;

struct TileRules {
    int sets = 1;        // full standard sets of tiles in the bunch
    int hand_size = 21;  // tiles dealt to each player at the start

    LetterCounts tiles() const;  // every tile of the game
    friend bool operator==(const TileRules&, const TileRules&) = default;
};

// The rule (docs/host.md, "Rules"): a game uses max(requested_sets, ceil(players / 8)) standard
// sets; with p = ceil(players / sets) players per set, each starts with 21 tiles for p <= 4, 15 for
// p <= 6 and 11 for p <= 8. nullopt with a reason in `error` when players or sets are out of range.
std::optional<TileRules> tile_rules_for(int players, int requested_sets, std::string* error);

}  // namespace bg
