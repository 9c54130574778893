// --replay: rebuilds a game from its event log alone, spawning nothing. Every input is handed
// to the core again; every decision the log holds must be the one the core makes now, and the
// result must be the one the log recorded, so that an edited or cut-off log is reported.
#pragma once

#include <functional>
#include <istream>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/dictionary.hpp"
#include "host/setup.hpp"

namespace bg {

// The word list a log's game was played with, or why it cannot be had.
using DictionaryFinder = std::function<std::variant<const Dictionary*, std::string>(const Setup&)>;

// The one the host would use: the built-in list, or the --dict file the log names, checked
// against the fingerprint the log recorded. Files it loads are kept in `loaded`.
DictionaryFinder host_dictionaries(std::optional<Dictionary>& loaded);

// The game's result, or what is wrong with the log.
std::variant<nlohmann::json, std::string> replay_log(std::istream& log,
                                                     const DictionaryFinder& find_dictionary);

}  // namespace bg
