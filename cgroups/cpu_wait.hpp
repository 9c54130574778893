// How long a player's processes waited for a CPU over its game's race: the time they were
// runnable but not running, from the kernel. A player's cgroup is sampled at the deal and at the
// game's end (or when its last process went, if sooner), and the wait is what the two samples
// differ by:
//
// - its cgroup's CPU pressure, where the kernel keeps one (cgroup v2 with PSI: cpu.pressure's
//   "some" total, the time at least one of its processes waited), which counts every process
//   that was ever in it;
// - else the run delay of each of its threads (/proc/TID/schedstat's second field), summed. A
//   thread that ended between the samples takes its delay with it: the cgroup's CPU time says
//   whether one did (it ran more than the threads seen), and the figure is then said to be a
//   lower bound, never passed off as whole.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bg::cgroups {

// One thread's counters as its schedstat has them, in nanoseconds: on a CPU, and waiting on a
// run queue for one.
struct TaskTimes {
    std::uint64_t run_ns = 0;
    std::uint64_t wait_ns = 0;
    friend bool operator==(const TaskTimes&, const TaskTimes&) = default;
};
// "RUN WAIT SLICES\n", or nullopt when it is not that.
std::optional<TaskTimes> parse_schedstat(std::string_view text);
// The total of a cpu.pressure file's "some" line (microseconds), in nanoseconds.
std::optional<std::uint64_t> parse_pressure_some(std::string_view text);

// A player's cgroup at one moment.
struct WaitSample {
    // Its CPU pressure, where the kernel keeps one.
    std::optional<std::uint64_t> pressure_ns = std::nullopt;
    // Else each of its threads', by thread id, and whether the kernel keeps threads' run delays.
    std::map<int, TaskTimes> tasks = {};
    bool schedstat = false;
    // Its CPU time.
    std::optional<std::uint64_t> cpu_ns = std::nullopt;
    friend bool operator==(const WaitSample&, const WaitSample&) = default;
};

// A player's wait for a CPU over a race: a figure, whole or only a lower bound, or none.
struct CpuWait {
    std::optional<std::uint64_t> ns;
    std::string note;  // "" for a whole figure; else why it is missing or a lower bound
    friend bool operator==(const CpuWait&, const CpuWait&) = default;
};

// CPU time the threads seen in two samples may fall short of their cgroup's by without one of
// them having been missed: the kernel brings a running thread's counters up to date at its
// next tick or switch (a few milliseconds).
inline constexpr std::uint64_t unseen_cpu_allowance_ns = 5'000'000;

// The wait between two samples of one cgroup.
CpuWait wait_between(const WaitSample& begin, const WaitSample& end);

// The thread ids a cgroup file lists (v1's tasks, v2's cgroup.threads, cgroup.procs): one a
// line.
std::vector<int> ids_in(std::string_view text);

}  // namespace bg::cgroups
