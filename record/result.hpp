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
    // How long its processes waited for a CPU in the race (log version 7): a figure, and ""; a
    // figure and why it is only a lower bound; or none, and why (cgroups/cpu_wait.hpp).
    std::optional<std::uint64_t> cpu_wait_ns = std::nullopt;
    std::string cpu_wait_note = "";
    friend bool operator==(const PlayerUsage&, const PlayerUsage&) = default;
};

// A game's race: from the input that dealt the hands to the one that ended the game, at the
// times the log gives them. Told every input's time once the game has handled it.
class RaceClock {
  public:
    void after(const Game& game, std::uint64_t t_ns);
    // Its length, once the game is over (none when the hands were never dealt).
    std::optional<std::uint64_t> ns() const;

  private:
    std::optional<std::uint64_t> dealt_;
    std::optional<std::uint64_t> ended_;
};

// Whether a game's race was run on unequal terms (docs/host.md, "Fair races"): a player waited
// for a CPU longer than contended_wait_ns and than contended_share of the race. True when a
// figure says so (a lower bound included); false when every player's figure is whole and none
// does; none when the race has no length, or a figure is missing or too low a bound to say.
inline constexpr std::uint64_t contended_wait_ns = 5'000'000;
inline constexpr double contended_share = 0.10;
std::optional<bool> contended(std::optional<std::uint64_t> race_ns,
                              const std::vector<PlayerUsage>& usage);

// In a log of version 2 or later, every player's "cpu_ms" and "memory_peak_bytes" (null where
// `usage` has none) are in it; a version 1 log's result has neither.
// A remote seat's usage as a log and a result hold it (null for a process), and back.
nlohmann::json remote_json(const std::optional<RemoteUsage>& remote);
std::variant<std::optional<RemoteUsage>, std::string> remote_from_json(
    const nlohmann::json& object);

// From log version 7: every player's "cpu_wait_ms" and "cpu_wait_note", and the game's
// "race_ms" and "contended".
nlohmann::json result_json(const GameSetup& setup, const Game& game,
                           const std::vector<PlayerUsage>& usage = {},
                           std::optional<std::uint64_t> race_ns = std::nullopt);
std::string result_table(const nlohmann::json& result);

}  // namespace bg
