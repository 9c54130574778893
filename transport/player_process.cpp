#include "transport/player_process.hpp"

#include <csignal>
#include <cstdlib>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <fmt/format.h>

#include "transport/process_group.hpp"
#include "transport/spawn.hpp"

namespace bg {

PlayerProcess::PlayerProcess(uv_loop_t* loop, Launch launch, ProcessEvents events,
                             std::unique_ptr<cgroups::PlayerCgroup> cgroup)
    : loop_(loop),
      launch_(std::move(launch)),
      events_(std::move(events)),
      cgroup_(std::move(cgroup)),
      stdin_(loop),
      stdout_(loop),
      stderr_(loop),
      info_(loop),
      farewell_timer_(loop,
                      [this] {
                          if (phase_ == Phase::farewell)
                              enter(Phase::terminating);
                      }),
      grace_timer_(loop,
                   [this] {
                       if (phase_ == Phase::terminating)
                           enter(Phase::killing);
                   }),
      end_timer_(loop, [this] { wait_for_end(true); }),
      announcer_(loop, [this] {
          // Its last handle: nothing of it is left open on the loop once it says so.
          announcer_.close();
          announced_ = true;
          if (events_.on_finished)
              events_.on_finished();
      }) {
    stdin_.on_write_error([this](int error) {
        check_memory();
        events_.on_write_error(error);
    });
}

PlayerProcess::~PlayerProcess() = default;

void PlayerProcess::enter(Phase next) {
    phase_ = next;
    switch (next) {
        case Phase::unstarted:
        case Phase::running:
            return;
        case Phase::farewell:
            // End of input once what is queued has been written: a player may read its last
            // message and leave by itself.
            stdin_.shutdown();
            return;
        case Phase::terminating:
            signal_all(SIGTERM);
            grace_timer_.start(grace_ms_);
            return;
        case Phase::killing:
            // What is left of it goes: its command exited and its output closed, or its grace
            // ran out (then whatever still holds its pipes is dead or escaped its group: they are
            // no longer waited for).
            farewell_timer_.stop();
            grace_timer_.stop();
            signal_all(SIGKILL);
            close_outputs();
            stdin_.close();
            wait_for_end();
            return;
        case Phase::finished:
            farewell_timer_.close();
            grace_timer_.close();
            end_timer_.close();
            // The watches before the descriptors they watch.
            exit_watch_.reset();
            inner_watch_.reset();
            cgroup_watches_.clear();
            stdin_.close();
            close_outputs();
            info_.close();
            pidfd_.reset();
            inner_pidfd_.reset();
            if (cgroup_) {
                check_memory();
                usage_ = cgroup_->usage();
                last_sample_ = cgroup_->wait_sample(true);
                cgroup_.reset();
            }
            announcer_.start(0);
            return;
    }
}

void PlayerProcess::advance() {
    const bool ending =
        phase_ == Phase::running || phase_ == Phase::farewell || phase_ == Phase::terminating;
    if (ending && exited_ && !stdout_open_ && !stderr_open_)
        enter(Phase::killing);
    else if (phase_ == Phase::killing)
        wait_for_end();
}

int PlayerProcess::spawn() {
    if (phase_ != Phase::unstarted)
        return -EALREADY;
    // Its stdio as libuv's uv_spawn makes it: a Unix socket pair each (a half-close of its input
    // is its end of input), the host's ends close-on-exec, the child's made its 0-3 by the spawn.
    const int count = launch_.sandboxed ? 4 : 3;
    UniqueFd host_end[4], child_end[4];
    int error = 0;
    for (int i = 0; i < count && error == 0; ++i) {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
            error = errno;
            break;
        }
        host_end[i].reset(fds[0]);
        child_end[i].reset(fds[1]);
    }
    std::variant<Spawned, SpawnError> spawned = SpawnError{error, "cannot make a pipe"};
    if (error == 0)
        spawned = spawn_process(
            launch_,
            {child_end[0].get(), child_end[1].get(), child_end[2].get(), child_end[3].get()},
            cgroup_ ? cgroup_->entry() : std::vector<int>{});
    if (cgroup_)
        cgroup_->close_entry();
    if (auto* failed = std::get_if<SpawnError>(&spawned)) {
        spawn_error_ = failed->stage == "exec"
                           ? uv_strerror(-failed->error)
                           : fmt::format("{}: {}", failed->stage, uv_strerror(-failed->error));
        exited_ = true;
        enter(Phase::finished);
        return -failed->error;
    }
    const Spawned& started = std::get<Spawned>(spawned);
    pid_ = started.pid;
    pidfd_.reset(started.pidfd);
    Pipe* pipes[4] = {&stdin_, &stdout_, &stderr_, &info_};
    for (int i = 0; i < count; ++i)
        pipes[i]->take(host_end[i].release());
    if (!launch_.sandboxed)
        info_.close();
    enter(Phase::running);
    exit_watch_.emplace(loop_, pidfd_.get(), [this] {
        const auto ended = wait_pidfd(pidfd_.get());
        if (!ended)
            return;
        exit_watch_.reset();
        pidfd_.reset();
        on_process_exit(ended->status, ended->signal);
    });
    if (cgroup_)
        for (const int fd : cgroup_->notify_fds())
            cgroup_watches_.emplace_back(loop_, fd, [this] {
                cgroup_->drain();
                check_memory();
                advance();
            });
    start_reading();
    return 0;
}

void PlayerProcess::start_reading() {
    stdout_open_ = stderr_open_ = true;
    stdout_.read([this](std::string_view bytes) { events_.on_output(bytes); },
                 [this](int) { on_stdout_end(); });
    stderr_.read([this](std::string_view bytes) { on_stderr(bytes); },
                 [this](int) {
                     flush_log_line();
                     stderr_open_ = false;
                     stderr_.close();
                     advance();
                 },
                 stderr_line_max);
    if (launch_.sandboxed)
        info_.read([this](std::string_view bytes) { on_info(bytes); },
                   [this](int) { info_.close(); }, 1024);
}

void PlayerProcess::on_stdout_end() {
    stdout_open_ = false;
    stdout_.close();
    check_memory();
    events_.on_output_end();
    advance();
}

void PlayerProcess::on_stderr(std::string_view bytes) {
    for (char c : bytes) {
        if (c == '\n' || log_line_.size() >= stderr_line_max)
            flush_log_line();
        if (c != '\n')
            log_line_ += c;
    }
}

void PlayerProcess::read_waiting_log() {
    if (!stderr_open_)
        return;
    // At most what its game's record takes of it (match/match.cpp's cap): a player that writes
    // without end does not hold the loop.
    stderr_.read_waiting(std::size_t{1} << 20);
    flush_log_line();
}

void PlayerProcess::flush_log_line() {
    if (!log_line_.empty())
        events_.on_log(log_line_);
    log_line_.clear();
}

void PlayerProcess::close_outputs() {
    stdout_.close();
    stderr_.close();
    stdout_open_ = stderr_open_ = false;
}

void PlayerProcess::check_memory() {
    if (oom_reported_ || !cgroup_ || cgroup_->oom_kills() == 0)
        return;
    oom_reported_ = true;
    if (events_.on_out_of_memory)
        events_.on_out_of_memory();
}

// bwrap's report, {"child-pid": N, ...}: N is the sandbox's init, whose group holds the
// player's command.
void PlayerProcess::on_info(std::string_view bytes) {
    if (info_text_.size() < 4096)
        info_text_.append(bytes);
    const auto key = info_text_.find("\"child-pid\":");
    if (inner_pid_ != 0 || key == std::string::npos)
        return;
    const char* start = info_text_.c_str() + key + 12;
    char* end = nullptr;
    const long pid = std::strtol(start, &end, 10);
    if (end == start || !(*end == ',' || *end == '\n' || *end == '}' || *end == ' ') || pid <= 1)
        return;
    // A pidfd names this process and no later one that gets its number: the group signals
    // below go out only while it lives (its death takes the sandbox's every process with it).
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, static_cast<pid_t>(pid), 0));
    if (pidfd < 0)
        return;  // gone already, or no pidfds: the group the host made is signalled instead
    ::fcntl(pidfd, F_SETFD, FD_CLOEXEC);
    inner_pid_ = static_cast<int>(pid);
    inner_pidfd_.reset(pidfd);
    // The init's end is the sandbox's: the kernel has then reaped every process in it.
    inner_watch_.emplace(loop_, inner_pidfd_.get(), [this] {
        inner_watch_.reset();
        advance();
    });
}

bool PlayerProcess::inner_alive() const {
    if (!inner_pidfd_)
        return false;
    pollfd exited{inner_pidfd_.get(), POLLIN, 0};
    return ::poll(&exited, 1, 0) == 0;
}

void PlayerProcess::on_process_exit(std::int64_t status, int signal) {
    exited_ = true;
    stdin_.close();
    check_memory();
    events_.on_exit(status, signal);
    advance();
}

std::optional<cgroups::Usage> PlayerProcess::usage_now() const {
    if (cgroup_)
        return cgroup_->usage();
    return usage_;
}

std::optional<cgroups::WaitSample> PlayerProcess::wait_sample(bool closing) const {
    if (cgroup_)
        return cgroup_->wait_sample(closing);
    return last_sample_;
}

void PlayerProcess::write(std::string bytes) {
    if (phase_ != Phase::unstarted && phase_ != Phase::finished)
        stdin_.write(std::move(bytes));
}

void PlayerProcess::terminate(std::uint64_t grace_ms, std::uint64_t farewell_ms) {
    if (phase_ == Phase::unstarted) {
        // Never started (the game ended first): nothing to signal, only handles to close.
        exited_ = true;
        enter(Phase::finished);
        return;
    }
    // Already ending, or being killed (its command exited and what was left got SIGKILL):
    // nothing is waited for but its end.
    if (phase_ != Phase::running)
        return;
    grace_ms_ = grace_ms;
    if (farewell_ms > 0 && stdin_.open()) {
        enter(Phase::farewell);
        farewell_timer_.start(farewell_ms);
    } else {
        enter(Phase::terminating);
    }
}

void PlayerProcess::hurry(std::uint64_t grace_ms) {
    switch (phase_) {
        case Phase::unstarted:
        case Phase::running:
            terminate(grace_ms);
            return;
        case Phase::farewell:
            farewell_timer_.stop();
            grace_ms_ = grace_ms;
            enter(Phase::terminating);
            return;
        case Phase::terminating:
            if (grace_ms < grace_ms_) {
                grace_ms_ = grace_ms;
                grace_timer_.start(grace_ms);
            }
            return;
        case Phase::killing:
        case Phase::finished:
            return;
    }
}

// Unsandboxed, the group the host made. Sandboxed, SIGTERM to the command's group inside (the
// init there ignores it) so that the player may leave as it likes; SIGKILL to bwrap and to the
// init, whose death ends everything in the sandbox. Before bwrap has said which init is its
// own, the group the host made: bwrap, then (through --die-with-parent) everything, at once.
// With a cgroup, SIGKILL goes to everything in it too: a process in a session of its own
// outside the sandbox's groups included.
void PlayerProcess::signal_all(int signal) {
    if (pid_ == 0)
        return;
    if (signal == SIGKILL && cgroup_)
        cgroup_->kill();
    if (inner_alive()) {
        ::kill(-inner_pid_, signal);
        if (signal != SIGKILL)
            return;
        ::syscall(SYS_pidfd_send_signal, inner_pidfd_.get(), SIGKILL, nullptr, 0);
    }
    ::kill(-pid_, signal);
}

// Nothing of it runs. With a cgroup: the cgroup is empty. Else, sandboxed: the sandbox's init
// is gone (and with it its whole PID namespace); unsandboxed: its process group.
bool PlayerProcess::all_gone() const {
    if (pid_ == 0)
        return true;
    if (!exited_)
        return false;
    if (cgroup_)
        return cgroup_->empty();
    if (inner_pidfd_)
        return !inner_alive();
    return !process_group_alive(pid_);
}

// SIGKILL takes a moment to land. The player is finished the moment nothing of it runs: its
// command's exit, a notification (a v2 cgroup's cgroup.events, a sandbox init's pidfd) or a look
// every group_poll_ms says so; after group_wait_polls looks, or as long a wait where the kernel
// would have told, whatever is left is left to the kernel.
void PlayerProcess::wait_for_end(bool timer_fired) {
    if (phase_ != Phase::killing)
        return;
    if (all_gone() || (timer_fired && end_looks_ > group_wait_polls)) {
        enter(Phase::finished);
        return;
    }
    if (!exited_ || end_timer_.active())
        return;  // its exit tells, or the wait already runs
    const bool told = (cgroup_ && cgroup_->notifies_empty()) ||
                      (launch_.sandboxed && inner_watch_ && (!cgroup_ || inner_alive()));
    // Told by a notification: the timer only bounds the wait. Else it looks again soon.
    if (told) {
        end_looks_ = group_wait_polls + 1;
        end_timer_.start(group_poll_ms * group_wait_polls);
    } else {
        ++end_looks_;
        end_timer_.start(group_poll_ms);
    }
}

}  // namespace bg
