// Starting a player's process: fork, then in the child, before its command runs, enter its
// cgroup (write "0" into each cgroup.procs it is given), start a session of its own, take on the
// sandbox user, and exec. libuv's uv_spawn has no place for the first step, and a process moved
// into a cgroup from outside after it started may already have forked children that stay
// outside: here nothing of a player ever runs unaccounted. The parent gets a pidfd, which names
// this process and no later one with its number, to learn its end from (wait_pidfd).
#pragma once

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace bg {

// How a player's process is started.
struct Launch {
    std::vector<std::string> argv;                // argv[0] is a path
    std::vector<std::string> env;                 // NAME=VALUE; the host's environment when empty
    std::optional<std::pair<uid_t, gid_t>> user;  // run as this user (the host is root)
    // argv is bwrap's with --info-fd 3: the sandbox's init reports its pid there.
    bool sandboxed = false;
};

struct Spawned {
    pid_t pid = 0;
    int pidfd = -1;  // close-on-exec; the caller owns it
};

// Where a spawn failed: its errno, and what it was doing.
struct SpawnError {
    int error = 0;
    std::string stage;  // "cannot enter its cgroup", "cannot become the sandbox user", "exec"...
};

// `stdio`: the child's descriptors 0, 1, 2 and 3 (-1: not given; the host's copies stay open).
// `cgroups`: open cgroup.procs files the child enters before anything else.
std::variant<Spawned, SpawnError> spawn_process(const Launch& launch,
                                                const std::array<int, 4>& stdio,
                                                const std::vector<int>& cgroups);

// The end of a process whose pidfd has become readable: its exit status or the signal that
// killed it (as libuv reports them); nullopt if it has not ended after all. Reaps it.
struct Ended {
    std::int64_t status = 0;
    int signal = 0;
};
std::optional<Ended> wait_pidfd(int pidfd);

}  // namespace bg
