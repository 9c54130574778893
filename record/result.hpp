// The outcome of a game, as the JSON object --json prints (and the log's last record holds),
// and as the table people read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game.hpp"
#include "record/setup.hpp"

namespace bg {

// What a player's processes used in a game, as its cgroup counted it (nullopt: not counted,
// per-process limits only, or a kernel that does not say).
// A remote seat's connection (log version 6): how often it was taken, and its round trips.
struct RemoteUsage {
    int connections = 0;
    int pings = 0;
    std::optional<double> rtt_ms;  // the median
    std::optional<double> rtt_max_ms;
    friend bool operator==(const RemoteUsage&, const RemoteUsage&) = default;
};

struct PlayerUsage {
    std::optional<std::uint64_t> cpu_ns;
    std::optional<std::uint64_t> memory_peak_bytes;
    std::optional<RemoteUsage> remote;  // a remote seat's (log version 6)
    friend bool operator==(const PlayerUsage&, const PlayerUsage&) = default;
};

// In a log of version 2 or later, every player's "cpu_ms" and "memory_peak_bytes" (null where
// `usage` has none) are in it; a version 1 log's result has neither.
// A remote seat's usage as a log and a result hold it (null for a process), and back.
nlohmann::json remote_json(const std::optional<RemoteUsage>& remote);
std::variant<std::optional<RemoteUsage>, std::string> remote_from_json(
    const nlohmann::json& object);

nlohmann::json result_json(const GameSetup& setup, const Game& game,
                           const std::vector<PlayerUsage>& usage = {});
std::string result_table(const nlohmann::json& result);

}  // namespace bg
