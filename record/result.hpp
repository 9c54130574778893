// The outcome of a game, as the JSON object --json prints (and the log's last record holds),
// and as the table people read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game.hpp"
#include "record/setup.hpp"

namespace bg {

// What a player's processes used in a game, as its cgroup counted it (nullopt: not counted,
// per-process limits only, or a kernel that does not say).
struct PlayerUsage {
    std::optional<std::uint64_t> cpu_ns;
    std::optional<std::uint64_t> memory_peak_bytes;
    friend bool operator==(const PlayerUsage&, const PlayerUsage&) = default;
};

// In a log of version 2 or later, every player's "cpu_ms" and "memory_peak_bytes" (null where
// `usage` has none) are in it; a version 1 log's result has neither.
nlohmann::json result_json(const GameSetup& setup, const Game& game,
                           const std::vector<PlayerUsage>& usage = {});
std::string result_table(const nlohmann::json& result);

}  // namespace bg
