// What differs between cgroup v1 and v2, for the cgroups of one hierarchy: the files each
// controller keeps, how a cgroup's controllers reach its children, how the kernel says that an
// OOM kill happened or that a cgroup is empty. Each version is one backend (v1.cpp, v2.cpp,
// after nsjail's cgroup.cc and cgroup2.cc); nothing else in cgroups/ asks which version a
// hierarchy is. A layout may mix them: each controller is used through its own hierarchy's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cgroups/files.hpp"
#include "cgroups/layout.hpp"

namespace bg::cgroups {

// A descriptor that becomes readable when the kernel has something to say about a cgroup, and
// what must stay open for it to go on saying it (v1's memory.oom_control). An inotify instance
// (v2) watches every file of a player's cgroup: instances are few (fs.inotify.max_user_instances,
// 128 a user on most machines), watches many.
struct Watch {
    UniqueFd fd;
    UniqueFd kept;
    bool inotify = false;
};

class Version {
  public:
    virtual ~Version() = default;
    virtual int number() const = 0;

    // -- The machine's part: this process's cgroup, the base of every game, a game's cgroup.

    // The cgroup of `h` a host's games go under: this process's own, or, where an earlier host
    // moved this cgroup's processes to a leaf of theirs (v2), that leaf's parent.
    virtual std::string games_parent(const Hierarchy& h) const = 0;
    // Makes `h.own` a cgroup whose children may be games' (v2: its controllers given to its
    // children, its processes moved to a leaf of their own first if need be; a cgroup of
    // systemd's only when delegated); "" or why not, with what to do.
    virtual std::string adopt(const Hierarchy& h) const = 0;
    // The base of the games in `h`, made: its children may use the controllers (v2), and a v1
    // cpuset has its parent's cores and memory nodes. "" or why not.
    virtual std::string prepare_base(const std::string& base, const Hierarchy& h) const = 0;
    // A game's cgroup, made: its players may use the controllers that limit them (v2).
    virtual std::string prepare_game(const std::string& dir, const Hierarchy& h) const = 0;
    // Pins a game's cgroup to `cpus` (a CPU list), with the memory nodes of `base` (v1).
    virtual std::string pin(const std::string& dir, const std::string& cpus,
                            const std::string& base) const = 0;
    // The cores a cgroup may use, as the kernel has them now (its effective CPU list).
    virtual std::optional<std::string> effective_cpus(const std::string& dir) const = 0;

    // -- A player's cgroup, in the hierarchy that holds each controller.

    // Its memory total, swap included (or no swap at all), for all its processes together.
    virtual std::string limit_memory(const std::string& dir, std::uint64_t bytes) const = 0;
    // Its CPU weight: the same for every player.
    virtual std::string weigh_cpu(const std::string& dir) const = 0;
    // A v1 cpuset starts empty: a player's gets its game's cores and memory nodes. v2: nothing.
    virtual std::string share_cores(const std::string& dir, const std::string& game_dir,
                                    const std::string& cpus) const = 0;
    // Adds to `watches` one readable when the OOM killer has killed one of its processes (or
    // adds the file to the inotify instance there); "" or why not.
    virtual std::string watch_oom(const std::string& dir, std::vector<Watch>& watches) const = 0;
    // The same, readable when its last process has gone (v2); nullopt where the kernel does not
    // say (v1).
    virtual std::optional<std::string> watch_empty(const std::string& dir,
                                                   std::vector<Watch>& watches) const = 0;
    virtual std::uint64_t oom_kills(const std::string& dir) const = 0;
    virtual std::optional<std::uint64_t> cpu_ns(const std::string& dir) const = 0;
    virtual std::optional<std::uint64_t> memory_peak_bytes(const std::string& dir) const = 0;
    // The file listing every thread in it (v1's tasks, v2's cgroup.threads).
    virtual const char* threads_file() const = 0;
    // Its CPU pressure: how long at least one of its processes waited for a CPU, in all
    // (cpu.pressure's "some" total); nullopt where the kernel keeps none (v1, or v2 without PSI).
    virtual std::optional<std::uint64_t> cpu_pressure_ns(const std::string& dir) const = 0;
    // Starts its peak memory again from what it holds now: true where the kernel lets a peak be
    // reset (v1); v2's memory.peak counts from the cgroup's start.
    virtual bool reset_memory_peak(const std::string& dir) const = 0;
    virtual bool populated(const std::string& dir) const = 0;
    // SIGKILL to every process in it.
    virtual void kill(const std::string& dir) const = 0;
};

// The backend of version 1 or 2.
const Version& version(int number);

// "" or why `value` could not be written to `dir`/`file`, in a message a person can act on.
std::string set_file(const std::string& dir, const std::string& file, const std::string& value);

}  // namespace bg::cgroups
