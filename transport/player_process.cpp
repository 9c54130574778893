#include "transport/player_process.hpp"

#include <csignal>
#include <cstdlib>
#include <memory>
#include <vector>

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

namespace {

struct WriteRequest {
    uv_write_t request{};
    std::string bytes;
};

PlayerProcess* owner(uv_handle_t* handle) {
    return static_cast<PlayerProcess*>(handle->data);
}

bool is_open(const uv_pipe_t& pipe) {
    return !uv_is_closing(reinterpret_cast<const uv_handle_t*>(&pipe));
}

bool is_watching(const uv_poll_t& poll) {
    return poll.data != nullptr && !uv_is_closing(reinterpret_cast<const uv_handle_t*>(&poll));
}

}  // namespace

PlayerProcess::PlayerProcess(uv_loop_t* loop, Launch launch, ProcessEvents events,
                             std::unique_ptr<cgroups::Player> cgroup)
    : loop_(loop),
      launch_(std::move(launch)),
      events_(std::move(events)),
      cgroup_(std::move(cgroup)) {
    for (uv_pipe_t* pipe : pipes()) {
        uv_pipe_init(loop_, pipe, 0);
        pipe->data = this;
        ++open_handles_;
    }
    uv_timer_init(loop_, &kill_timer_);
    kill_timer_.data = this;
    ++open_handles_;
}

std::vector<uv_pipe_t*> PlayerProcess::output_pipes() {
    std::vector<uv_pipe_t*> pipes = {&stdout_, &stderr_};
    if (launch_.sandboxed)
        pipes.push_back(&info_);
    return pipes;
}

std::vector<uv_pipe_t*> PlayerProcess::pipes() {
    std::vector<uv_pipe_t*> all = output_pipes();
    all.insert(all.begin(), &stdin_);
    return all;
}

PlayerProcess::~PlayerProcess() {
    for (int fd : {inner_pidfd_, pidfd_})
        if (fd >= 0)
            ::close(fd);
}

void PlayerProcess::watch(uv_poll_t& poll, int fd, uv_poll_cb callback) {
    if (uv_poll_init(loop_, &poll, fd) != 0)
        return;
    poll.data = this;
    ++open_handles_;
    uv_poll_start(&poll, UV_READABLE, callback);
}

int PlayerProcess::spawn() {
    // Its stdio as libuv's uv_spawn makes it: a Unix socket pair each (a half-close of its input
    // is its end of input), the host's ends close-on-exec, the child's made its 0-3 by the spawn.
    const int count = launch_.sandboxed ? 4 : 3;
    int host_end[4] = {-1, -1, -1, -1};
    std::array<int, 4> stdio = {-1, -1, -1, -1};
    int error = 0;
    for (int i = 0; i < count && error == 0; ++i) {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
            error = errno;
            break;
        }
        host_end[i] = fds[0];
        stdio[static_cast<std::size_t>(i)] = fds[1];
    }
    std::variant<Spawned, SpawnError> spawned = SpawnError{error, "cannot make a pipe"};
    if (error == 0)
        spawned = spawn_process(launch_, stdio, cgroup_ ? cgroup_->entry() : std::vector<int>{});
    if (cgroup_)
        cgroup_->close_entry();
    for (int fd : stdio)
        if (fd >= 0)
            ::close(fd);
    if (auto* failed = std::get_if<SpawnError>(&spawned)) {
        for (int fd : host_end)
            if (fd >= 0)
                ::close(fd);
        spawn_error_ = failed->stage == "exec"
                           ? uv_strerror(-failed->error)
                           : fmt::format("{}: {}", failed->stage, uv_strerror(-failed->error));
        exited_ = true;
        for (uv_pipe_t* pipe : pipes())
            close_handle(reinterpret_cast<uv_handle_t*>(pipe));
        check_finished();
        return -failed->error;
    }
    const Spawned& started = std::get<Spawned>(spawned);
    spawned_ = true;
    pid_ = started.pid;
    pidfd_ = started.pidfd;
    std::vector<uv_pipe_t*> all = pipes();
    for (int i = 0; i < count; ++i)
        uv_pipe_open(all[static_cast<std::size_t>(i)], host_end[i]);
    watch(exit_poll_, pidfd_, [](uv_poll_t* poll, int, int) {
        auto* self = owner(reinterpret_cast<uv_handle_t*>(poll));
        const auto ended = wait_pidfd(self->pidfd_);
        if (!ended)
            return;
        uv_poll_stop(poll);
        self->close_handle(reinterpret_cast<uv_handle_t*>(poll));
        self->on_process_exit(ended->status, ended->signal);
    });
    if (cgroup_ && cgroup_->notify_fd() >= 0)
        watch(notify_poll_, cgroup_->notify_fd(), [](uv_poll_t* poll, int, int) {
            auto* self = owner(reinterpret_cast<uv_handle_t*>(poll));
            self->cgroup_->drain();
            self->check_memory();
            if (self->killed_)
                self->wait_for_group();
        });
    const auto alloc = [](uv_handle_t* handle, std::size_t, uv_buf_t* buf) {
        auto* self = owner(handle);
        *buf = uv_buf_init(self->read_buffer_, sizeof self->read_buffer_);
    };
    const auto read = [](uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
        owner(reinterpret_cast<uv_handle_t*>(stream))->on_read(stream, nread, buf);
    };
    for (uv_pipe_t* pipe : output_pipes())
        uv_read_start(reinterpret_cast<uv_stream_t*>(pipe), alloc, read);
    return 0;
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
    inner_pidfd_ = pidfd;
    // The init's end is the sandbox's: the kernel has then reaped every process in it.
    watch(inner_poll_, inner_pidfd_, [](uv_poll_t* poll, int, int) {
        auto* self = owner(reinterpret_cast<uv_handle_t*>(poll));
        uv_poll_stop(poll);
        self->close_handle(reinterpret_cast<uv_handle_t*>(poll));
        if (self->killed_)
            self->wait_for_group();
    });
}

bool PlayerProcess::inner_alive() const {
    if (inner_pidfd_ < 0)
        return false;
    pollfd exited{inner_pidfd_, POLLIN, 0};
    return ::poll(&exited, 1, 0) == 0;
}

void PlayerProcess::on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
    if (stream == reinterpret_cast<uv_stream_t*>(&info_)) {
        if (nread > 0)
            on_info(std::string_view(buf->base, static_cast<std::size_t>(nread)));
        else if (nread < 0)
            close_handle(reinterpret_cast<uv_handle_t*>(stream));
        return;
    }
    const bool is_stdout = stream == reinterpret_cast<uv_stream_t*>(&stdout_);
    if (nread > 0) {
        const std::string_view bytes(buf->base, static_cast<std::size_t>(nread));
        if (is_stdout) {
            events_.on_output(bytes);
            return;
        }
        for (char c : bytes) {
            if (c == '\n' || log_line_.size() >= stderr_line_max)
                flush_log_line();
            if (c != '\n')
                log_line_ += c;
        }
        return;
    }
    if (nread == 0)
        return;  // EAGAIN: nothing this time
    // EOF, or an error that ends the stream all the same.
    close_handle(reinterpret_cast<uv_handle_t*>(stream));
    if (is_stdout) {
        check_memory();
        events_.on_output_end();
    } else {
        flush_log_line();
    }
    check_finished();
}

void PlayerProcess::flush_log_line() {
    if (!log_line_.empty())
        events_.on_log(log_line_);
    log_line_.clear();
}

void PlayerProcess::on_process_exit(std::int64_t status, int signal) {
    exited_ = true;
    ::close(pidfd_);
    pidfd_ = -1;
    close_handle(reinterpret_cast<uv_handle_t*>(&stdin_));
    check_memory();
    events_.on_exit(status, signal);
    check_finished();
}

void PlayerProcess::write(std::string bytes) {
    if (!spawned_ || !is_open(stdin_))
        return;
    auto* stream = reinterpret_cast<uv_stream_t*>(&stdin_);
    // A message nearly always fits the pipe: written at once, it needs no request and no copy.
    // uv_try_write writes nothing while earlier bytes wait, so order is kept.
    uv_buf_t direct = uv_buf_init(bytes.data(), static_cast<unsigned>(bytes.size()));
    const int written = uv_try_write(stream, &direct, 1);
    if (written == static_cast<int>(bytes.size()))
        return;
    if (written < 0 && written != UV_EAGAIN) {
        check_memory();
        events_.on_write_error(written);
        return;
    }
    if (written > 0)
        bytes.erase(0, static_cast<std::size_t>(written));
    auto request = std::make_unique<WriteRequest>();
    request->bytes = std::move(bytes);
    request->request.data = this;
    uv_buf_t buf = uv_buf_init(request->bytes.data(), static_cast<unsigned>(request->bytes.size()));
    const auto done = [](uv_write_t* req, int status) {
        std::unique_ptr<WriteRequest> owned(reinterpret_cast<WriteRequest*>(req));
        auto* self = static_cast<PlayerProcess*>(req->data);
        if (status < 0 && status != UV_ECANCELED) {
            self->check_memory();
            self->events_.on_write_error(status);
        }
    };
    const int error = uv_write(&request->request, stream, &buf, 1, done);
    if (error < 0) {
        check_memory();
        events_.on_write_error(error);
        return;
    }
    request.release();  // freed by `done`
}

std::size_t PlayerProcess::queued_bytes() const {
    return is_open(stdin_)
               ? uv_stream_get_write_queue_size(reinterpret_cast<const uv_stream_t*>(&stdin_))
               : 0;
}

void PlayerProcess::terminate(std::uint64_t grace_ms, std::uint64_t farewell_ms) {
    if (terminating_ || finished_)
        return;
    terminating_ = true;
    grace_ms_ = grace_ms;
    if (!spawned_ && !exited_) {
        // Never started (the game ended first): nothing to signal, only handles to close.
        exited_ = true;
        stop_reading();
        return;
    }
    // Already being killed (its command exited and what was left got SIGKILL): nothing is
    // waited for but its end.
    if (killed_ || uv_is_closing(reinterpret_cast<uv_handle_t*>(&kill_timer_)))
        return;
    if (farewell_ms > 0 && spawned_ && is_open(stdin_)) {
        // End of input once what is queued has been written: a player may read its last
        // message and leave by itself.
        uv_shutdown(&shutdown_, reinterpret_cast<uv_stream_t*>(&stdin_),
                    [](uv_shutdown_t*, int) {});
        uv_timer_start(&kill_timer_, kill_timer_tick, farewell_ms, 0);
        return;
    }
    send_sigterm();
}

void PlayerProcess::send_sigterm() {
    signalled_ = true;
    signal_all(SIGTERM);
    uv_timer_start(&kill_timer_, kill_timer_tick, grace_ms_, 0);
}

// Unsandboxed, the group the host made. Sandboxed, SIGTERM to the command's group inside (the
// init there ignores it) so that the player may leave as it likes; SIGKILL to bwrap and to the
// init, whose death ends everything in the sandbox. Before bwrap has said which init is its
// own, the group the host made: bwrap, then (through --die-with-parent) everything, at once.
// With a cgroup, SIGKILL goes to everything in it too: a process in a session of its own
// outside the sandbox's groups included.
void PlayerProcess::signal_all(int signal) {
    if (!spawned_)
        return;
    if (signal == SIGKILL && cgroup_)
        cgroup_->kill();
    if (inner_alive()) {
        ::kill(-inner_pid_, signal);
        if (signal != SIGKILL)
            return;
        ::syscall(SYS_pidfd_send_signal, inner_pidfd_, SIGKILL, nullptr, 0);
    }
    ::kill(-pid_, signal);
}

// Nothing of it runs. With a cgroup: the cgroup is empty. Else, sandboxed: the sandbox's init
// is gone (and with it its whole PID namespace); unsandboxed: its process group.
bool PlayerProcess::all_gone() const {
    if (!spawned_)
        return true;
    if (!exited_)
        return false;
    if (cgroup_)
        return cgroup_->empty();
    if (inner_pidfd_ >= 0)
        return !inner_alive();
    return !process_group_alive(pid_);
}

void PlayerProcess::kill_timer_tick(uv_timer_t* timer) {
    auto* self = owner(reinterpret_cast<uv_handle_t*>(timer));
    if (self->killed_) {
        self->wait_for_group();
        return;
    }
    if (!self->signalled_) {
        self->send_sigterm();
        return;
    }
    self->killed_ = true;
    self->signal_all(SIGKILL);
    // Whatever still holds its pipes is dead or escaped its group: stop waiting for EOF.
    self->stop_reading();
}

void PlayerProcess::stop_reading() {
    for (uv_pipe_t* pipe : output_pipes())
        close_handle(reinterpret_cast<uv_handle_t*>(pipe));
    check_finished();
}

void PlayerProcess::close_handle(uv_handle_t* handle) {
    if (uv_is_closing(handle))
        return;
    uv_close(handle, [](uv_handle_t* closed) {
        auto* self = owner(closed);
        if (--self->open_handles_ == 0) {
            self->finished_ = true;
            if (self->events_.on_finished)
                self->events_.on_finished();
        }
    });
}

// Finished: exited, and both outputs closed. Anything still in its group (or its cgroup) is
// killed: a player's processes never outlive it.
void PlayerProcess::check_finished() {
    if (!exited_ || is_open(stdout_) || is_open(stderr_))
        return;
    if (spawned_ && !killed_) {
        killed_ = true;
        signal_all(SIGKILL);
    }
    close_handle(reinterpret_cast<uv_handle_t*>(&stdin_));
    wait_for_group();
}

// SIGKILL takes a moment to land. The player is finished the moment nothing of it runs: a
// notification says so where the kernel gives one (a v2 cgroup's cgroup.events, a sandbox
// init's pidfd), else it is looked for every group_poll_ms; after group_wait_polls looks, or as
// long a wait, whatever is left is left to the kernel.
void PlayerProcess::wait_for_group() {
    auto* timer = reinterpret_cast<uv_handle_t*>(&kill_timer_);
    if (uv_is_closing(timer))
        return;
    const bool gone = all_gone();
    if (gone || ++group_polls_ > group_wait_polls) {
        uv_timer_stop(&kill_timer_);
        close_handle(timer);
        for (uv_poll_t* poll : {&exit_poll_, &inner_poll_, &notify_poll_})
            if (is_watching(*poll))
                close_handle(reinterpret_cast<uv_handle_t*>(poll));
        if (inner_pidfd_ >= 0)
            ::close(inner_pidfd_);
        inner_pidfd_ = -1;
        if (cgroup_) {
            check_memory();
            usage_ = cgroup_->usage();
            cgroup_.reset();
        }
        return;
    }
    const bool told =
        (cgroup_ && cgroup_->notifies_empty()) ||
        (launch_.sandboxed && is_watching(inner_poll_) && (!cgroup_ || inner_alive()));
    // Told by a notification: the timer only bounds the wait. Else it looks again soon.
    const std::uint64_t next = told ? group_poll_ms * group_wait_polls : group_poll_ms;
    uv_timer_stop(&kill_timer_);
    uv_timer_start(&kill_timer_, kill_timer_tick, next, next);
    if (told)
        group_polls_ = group_wait_polls;  // the bounded wait is this one
}

}  // namespace bg
