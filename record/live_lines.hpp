// The live lines: a decision as a person reads it on the host's stderr (and in --replay). Pure,
// so a live game and a replay of its log print the same words.
#pragma once

#include <string>

#include "core/game.hpp"

namespace bg {

// `game` is the state right after the input that led to the decision was handled.
std::string live_line(const Decision& decision, const Game& game);

}  // namespace bg
