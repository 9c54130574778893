// --replay: rebuilds a game from its event log alone, spawning nothing. Every input is handed
// to the core again; every decision the log holds must be the one the core makes now, and the
// result must be the one the log recorded, so that an edited or cut-off log is reported.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/dictionary.hpp"
#include "record/result.hpp"
#include "record/setup.hpp"

namespace bg {

// The word list a log's game was played with, or why it cannot be had.
using DictionaryFinder =
    std::function<std::variant<const Dictionary*, std::string>(const GameSetup&)>;

// A live line (record/live_lines.hpp) of the replayed game, at the time the log recorded.
using ReplayLines = std::function<void(std::uint64_t t_ns, const std::string& line)>;

// A log replayed: its game's result, and the log's version (which says how it is written).
struct Replayed {
    GameResult result;
    int version = log_version;
};

// The game's result, or what is wrong with the log. With `lines`, the live lines the game
// printed, made again as the decisions are (a line may come before a broken record is found).
std::variant<Replayed, std::string> replay_log(std::istream& log,
                                               const DictionaryFinder& find_dictionary,
                                               const ReplayLines& lines = {});

}  // namespace bg
