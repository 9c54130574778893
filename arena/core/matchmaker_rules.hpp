// The matchmaker's rules as checks of its output (arena/matchmaker.hpp): what any tables it
// makes must satisfy, whatever the queue. The property tests and the fuzz target both hold it
// to these; a broken matchmaker is told which rule it broke.
#pragma once

#include <string>
#include <vector>

#include "arena/core/matchmaker.hpp"

namespace bg::arena {

// "" when `tables`, made from these arguments, keep every rule; else the first rule broken:
// each table 2 to max_players seats, none twice, no owner twice at a table, no connections of
// two nodes at a table, made for a seat that is not a filler, a short table only for one whose
// first seat (the one it was made for) has waited max_wait, and no seat but a filler left
// waiting past max_wait while a seat of another owner that may sit with it (same_place) is
// left free; a seat that wants one opponent alone with a free seat of it, at a table made for
// it, and left waiting only while none is free.
std::string broken_rule(const std::vector<Waiting>& queue, const MatchmakerConfig& config,
                        std::uint64_t now_ms, const std::vector<std::vector<int>>& tables);

}  // namespace bg::arena
