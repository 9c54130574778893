// The outcome of a game, as the JSON object --json prints (and the log's last record holds),
// and as the table people read.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/game.hpp"
#include "record/setup.hpp"

namespace bg {

nlohmann::json result_json(const Setup& setup, const Game& game);
std::string result_table(const nlohmann::json& result);

}  // namespace bg
