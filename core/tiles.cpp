#include "core/tiles.hpp"

#include <fmt/format.h>

namespace bg {

const LetterCounts& standard_set() {
    static const LetterCounts set = [] {
        static constexpr std::uint32_t counts[alphabet_size] = {
            13, 3, 3, 6, 18, 3, 4, 3, 12, 2, 2, 5, 3, 8, 11, 3, 2, 9, 6, 9, 6, 3, 3, 2, 3, 2};
        LetterCounts c;
        for (int i = 0; i < alphabet_size; ++i)
            c.add(index_letter(i), counts[i]);
        return c;
    }();
    return set;
}

LetterCounts TileRules::tiles() const {
    LetterCounts all;
    for (int i = 0; i < sets; ++i)
        all += standard_set();
    return all;
}

std::optional<TileRules> tile_rules_for(int players, int requested_sets, std::string* error) {
    if (players < min_players || players > max_players) {
        if (error)
            *error =
                fmt::format("{} players: a game has {} to {}", players, min_players, max_players);
        return std::nullopt;
    }
    if (requested_sets < 1 || requested_sets > max_sets) {
        if (error)
            *error = fmt::format("{} sets of tiles: a game uses 1 to {}", requested_sets, max_sets);
        return std::nullopt;
    }
    TileRules rules;
    rules.sets = std::max(requested_sets, (players + players_per_set - 1) / players_per_set);
    const int per_set = (players + rules.sets - 1) / rules.sets;
    rules.hand_size = per_set <= 4 ? 21 : per_set <= 6 ? 15 : 11;
    return rules;
}

}  // namespace bg
