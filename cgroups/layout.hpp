// Where the kernel's cgroup controllers are, as this process sees them: which hierarchy (a v1
// one of its own, or the unified v2 one) holds each controller a game needs, and this process's
// own cgroup in each. Pure text in, data out: /proc/self/mountinfo and /proc/self/cgroup are
// read by the caller, and so is the one file a v2 hierarchy is asked (the controllers it offers
// at this process's cgroup), through `read`.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace bg::cgroups {

// The controllers a game's cgroups use: cpu for equal weights, cpuacct for CPU time (in v2
// every cgroup's cpu.stat counts it), memory and pids for the totals, cpuset for dedicated
// cores (only when games are pinned).
enum class Controller { cpu, cpuacct, memory, pids, cpuset };
std::string_view to_string(Controller controller);

// A cgroup file system mounted here.
struct Mount {
    int version = 1;
    std::string path;  // its mount point
    std::string root;  // the cgroup it shows at its mount point ("/" but in containers)
    std::vector<std::string> controllers;  // v1: the controllers of its options
};
std::vector<Mount> parse_mountinfo(std::string_view mountinfo);

// A line of /proc/self/cgroup: the hierarchy's controllers (none for v2) and this process's
// cgroup in it.
struct Membership {
    bool unified = false;  // the "0::" line
    std::vector<std::string> controllers;
    std::string path;
};
std::vector<Membership> parse_proc_cgroup(std::string_view text);

// One hierarchy that holds some of the controllers games use.
struct Hierarchy {
    int version = 1;
    std::string mount;  // its mount point
    std::string own;    // this process's cgroup in it, as a path in the file system
    std::vector<Controller> controllers;
    bool has(Controller c) const;
};

struct Layout {
    std::vector<Hierarchy> hierarchies;
    // The hierarchy that holds `c` (every needed controller is in one).
    const Hierarchy& of(Controller c) const;
    std::size_t index_of(Controller c) const;
    bool uses_v1() const;
};

// The hierarchies of the `needed` controllers, or why they cannot be had here (a controller
// nowhere, this process's cgroup not under a mount), saying what to do. A controller mounted
// as a v1 hierarchy is taken there; else from the unified hierarchy, when it offers it at this
// process's cgroup (`read` is given that cgroup's cgroup.controllers path).
std::variant<Layout, std::string> find_layout(
    const std::vector<Mount>& mounts, const std::vector<Membership>& memberships,
    const std::vector<Controller>& needed,
    const std::function<std::optional<std::string>(const std::string& path)>& read);

// A kernel CPU list ("0-3,8,10-11") as the CPUs it names, sorted; nullopt when it is not one.
std::optional<std::vector<int>> parse_cpu_list(std::string_view text);
std::string format_cpu_list(const std::vector<int>& cpus);
// `count` CPUs of `available` that are not in `taken`, the lowest-numbered first; nullopt when
// there are not that many.
std::optional<std::vector<int>> choose_cpus(const std::vector<int>& available,
                                            const std::vector<int>& taken, int count);

}  // namespace bg::cgroups
