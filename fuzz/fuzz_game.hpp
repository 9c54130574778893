// What the reader fuzzers share: a two-player game in which player 1 sends the fuzzer's bytes
// (cut in two where its first byte says) and player 2 has said ready.
#pragma once

#include <string_view>

#include "compat/legacy.hpp"

namespace bg::fuzz {

void play_stream(std::string_view bytes, LegacyDialect dialect);

}  // namespace bg::fuzz
