// What a player used in a game, as its seat measured it: what a usage record of the event log
// holds (log version 2 on), and what each player of a result says of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace bg {

// A seat taken over a network (log version 6): how often it was taken (1, and one more for each
// return), how many round trips were measured, their median and the largest, in milliseconds.
struct LinkUsage {
    int connections = 0;
    int pings = 0;
    std::optional<double> rtt_ms;
    std::optional<double> rtt_max_ms;
    friend bool operator==(const LinkUsage&, const LinkUsage&) = default;
};

struct PlayerUsage {
    // What its processes used, as its cgroup counted it (nullopt: not counted, per-process
    // limits only, a kernel that does not say, or a remote player).
    std::optional<std::uint64_t> cpu_ns;
    std::optional<std::uint64_t> memory_peak_bytes;
    std::optional<LinkUsage> remote;  // a remote seat's connection; none for a process
    // How long its processes waited for a CPU in the race (log version 7): a figure, and ""; a
    // figure and why it is only a lower bound; or none, and why (cgroups/cpu_wait.hpp).
    std::optional<std::uint64_t> cpu_wait_ns = std::nullopt;
    std::string cpu_wait_note = "";
    friend bool operator==(const PlayerUsage&, const PlayerUsage&) = default;
};

}  // namespace bg
