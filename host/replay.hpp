// --replay: rebuilds a game from its event log alone, spawning nothing. Every input is handed
// to the core again; every decision the log holds must be the one the core makes now, and the
// result must be the one the log recorded, so that an edited or cut-off log is reported.
#pragma once

#include <istream>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

namespace bg {

// The game's result, or what is wrong with the log.
std::variant<nlohmann::json, std::string> replay_log(std::istream& log);

}  // namespace bg
