#include "transport/spawn.hpp"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

extern char** environ;

namespace bg {

namespace {

// What the child reports through its close-on-exec pipe when it cannot exec: the stage and the
// errno. Nothing comes when the exec succeeds.
struct ChildFailure {
    int stage = 0;
    int error = 0;
};

enum Stage { enter_cgroup = 1, become_user, descriptors, exec_command };

const char* stage_name(int stage) {
    switch (stage) {
        case enter_cgroup:
            return "cannot enter its cgroup";
        case become_user:
            return "cannot become the sandbox user";
        case descriptors:
            return "cannot set up its standard descriptors";
        default:
            return "exec";
    }
}

// In the child, between fork and exec: async-signal-safe calls only.
[[noreturn]] void fail(int report, int stage) {
    const ChildFailure failure{stage, errno};
    (void)!::write(report, &failure, sizeof failure);
    ::_exit(127);
}

[[noreturn]] void child(const Launch& launch, const std::array<int, 4>& stdio,
                        const std::vector<int>& cgroups, char* const* argv, char* const* envp,
                        int report, pid_t parent) {
    // Signals as a new program expects them: the host ignores SIGPIPE, and libuv may block some.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    for (int signal = 1; signal < NSIG; ++signal)
        if (signal != SIGKILL && signal != SIGSTOP)
            ::sigaction(signal, &default_action, nullptr);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);

    // First of all: the cgroup, so that everything this process becomes is counted there.
    for (const int procs : cgroups)
        if (::write(procs, "0", 1) != 1)
            fail(report, enter_cgroup);
    // A session of its own: its process group is everything it starts.
    ::setsid();
    if (launch.user)
        if (::setgroups(0, nullptr) != 0 || ::setgid(launch.user->second) != 0 ||
            ::setuid(launch.user->first) != 0)
            fail(report, become_user);
    // It dies with the host, even when the host is killed with SIGKILL: a host that is gone
    // leaves no player behind (bubblewrap's --die-with-parent asks the same of the sandbox, but
    // only once bwrap has begun; this covers the time before). Set after the change of user,
    // which clears it; a host that died before it was set is seen as a changed parent.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
        ::_exit(127);
    // Its descriptors 0-3, from wherever the host's copies are (out of the way first, should one
    // of them be below 4 itself).
    int moved[4];
    for (int i = 0; i < 4; ++i) {
        moved[i] = -1;
        if (stdio[static_cast<std::size_t>(i)] >= 0 &&
            (moved[i] = ::fcntl(stdio[static_cast<std::size_t>(i)], F_DUPFD_CLOEXEC, 10)) < 0)
            fail(report, descriptors);
    }
    for (int i = 0; i < 4; ++i)
        if (moved[i] >= 0 && ::dup2(moved[i], i) < 0)
            fail(report, descriptors);
    ::execve(argv[0], argv, envp);
    fail(report, exec_command);
}

}  // namespace

std::variant<Spawned, SpawnError> spawn_process(const Launch& launch,
                                                const std::array<int, 4>& stdio,
                                                const std::vector<int>& cgroups) {
    if (launch.argv.empty())
        return SpawnError{EINVAL, "exec"};
    // Everything the child needs is made before the fork: it may not allocate.
    std::vector<char*> argv;
    for (const auto& arg : launch.argv)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> env;
    for (const auto& variable : launch.env)
        env.push_back(const_cast<char*>(variable.c_str()));
    env.push_back(nullptr);
    char* const* envp = launch.env.empty() ? environ : env.data();

    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0)
        return SpawnError{errno, "cannot make a pipe"};
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int error = errno;
        ::close(report[0]);
        ::close(report[1]);
        return SpawnError{error, "cannot fork"};
    }
    if (pid == 0)
        child(launch, stdio, cgroups, argv.data(), envp, report[1], parent);
    ::close(report[1]);
    ChildFailure failure;
    ssize_t n;
    while ((n = ::read(report[0], &failure, sizeof failure)) < 0 && errno == EINTR) {
    }
    ::close(report[0]);
    if (n == static_cast<ssize_t>(sizeof failure)) {
        ::waitpid(pid, nullptr, 0);
        return SpawnError{failure.error, stage_name(failure.stage)};
    }
    // Our child, not yet waited for: its number cannot name another process before we reap it.
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (pidfd < 0) {
        const int error = errno;
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        return SpawnError{error, "cannot open a pidfd (Linux 5.3 or later is needed)"};
    }
    ::fcntl(pidfd, F_SETFD, FD_CLOEXEC);
    return Spawned{pid, pidfd};
}

std::optional<Ended> wait_pidfd(int pidfd) {
    siginfo_t info{};
    while (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(pidfd), &info,
                    WEXITED | WNOHANG) != 0) {
        if (errno != EINTR)
            return std::nullopt;
    }
    if (info.si_pid == 0)
        return std::nullopt;
    if (info.si_code == CLD_EXITED)
        return Ended{info.si_status, 0};
    return Ended{0, info.si_status};
}

}  // namespace bg
