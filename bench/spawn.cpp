#include "bench/spawn.hpp"

#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

extern char** environ;

namespace bg::bench {

Child spawn(const std::string& command, bool piped, bool keep_stderr) {
    int to[2] = {-1, -1}, from[2] = {-1, -1};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (piped) {
        if (pipe2(to, O_CLOEXEC) != 0 || pipe2(from, O_CLOEXEC) != 0) {
            std::perror("bench: pipe2");
            std::exit(1);
        }
        posix_spawn_file_actions_adddup2(&actions, to[0], 0);
        posix_spawn_file_actions_adddup2(&actions, from[1], 1);
    } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    if (!keep_stderr)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
    Child child;
    if (posix_spawn(&child.pid, "/bin/sh", &actions, nullptr, const_cast<char**>(argv), environ) !=
        0) {
        std::perror("bench: posix_spawn");
        std::exit(1);
    }
    posix_spawn_file_actions_destroy(&actions);
    if (piped) {
        close(to[0]);
        close(from[1]);
        child.in = to[1];
        child.out = from[0];
    }
    return child;
}

namespace {

rusage reap(pid_t pid, int& status) {
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid)
        status = -1;
    return usage;
}

}  // namespace

rusage reap(pid_t pid) {
    int status = 0;
    return reap(pid, status);
}

rusage reap_ok(pid_t pid, const std::string& what) {
    int status = 0;
    const rusage usage = reap(pid, status);
    if (status != 0) {
        std::fprintf(stderr, "bench: %s ended with wait status %d\n", what.c_str(), status);
        std::exit(1);
    }
    return usage;
}

void pin_to_cpu(int cpu, const char* who) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        std::fprintf(stderr, "%s: cannot move to CPU %d: ", who, cpu);
        std::perror("sched_setaffinity");
        std::exit(1);
    }
}

}  // namespace bg::bench
