// One player's process: spawned through `sh -c` in a session of its own (in a sandbox of its
// own, see sandbox.hpp, unless the host runs without) and, when it has one, in its cgroup from
// its first instruction (spawn.hpp); talked to over pipes; ended by signals, SIGTERM first and
// SIGKILL after a grace. In a sandbox, SIGTERM goes to the command's group inside and SIGKILL to
// the sandbox's init, which takes every process of the sandbox with it; with a cgroup, SIGKILL
// goes to every process in it, whatever session it made.
//
// Nothing is polled where the kernel can tell: its exit comes from a pidfd, a sandbox's end
// from its init's pidfd, a cgroup's OOM kill and (v2) its emptiness from the cgroup's own
// notifications. Once its command has exited and its output is closed, what is left of it is
// killed and it is finished the moment nothing of it runs: never after a grace it no longer
// needs. Then its cgroup's usage is read and the cgroup removed.
//
// It owns its libuv handles. Memory is never freed before their close callbacks have run: the
// object must outlive uv_run, and it reports finished() once the process has exited, both
// output pipes are closed and nothing of it is left.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cgroups/cgroups.hpp"
#include "transport/sandbox.hpp"

namespace bg {

struct ProcessEvents {
    std::function<void(std::string_view bytes)> on_output;  // from its stdout
    std::function<void()> on_output_end;                    // stdout closed (EOF or error)
    std::function<void(std::string_view line)> on_log;      // a line of its stderr
    std::function<void(std::int64_t status, int signal)> on_exit;
    std::function<void(int uv_error)> on_write_error;  // it closed its stdin, most likely
    // Its cgroup's OOM killer killed one of its processes: it needed more than its memory
    // limit. Reported once, and before its exit, its output's end or a failed write.
    std::function<void()> on_out_of_memory;
    std::function<void()> on_finished;
};

class PlayerProcess {
  public:
    // `cgroup`: the player's cgroup, or none (per-process limits only).
    PlayerProcess(uv_loop_t* loop, Launch launch, ProcessEvents events,
                  std::unique_ptr<cgroups::Player> cgroup = nullptr);
    PlayerProcess(const PlayerProcess&) = delete;
    PlayerProcess& operator=(const PlayerProcess&) = delete;
    ~PlayerProcess();

    // 0, or a negative errno (spawn_error() says what failed).
    int spawn();
    const std::string& spawn_error() const { return spawn_error_; }
    void write(std::string bytes);
    std::size_t queued_bytes() const;
    // SIGTERM to the group, and SIGKILL to the group `grace_ms` later unless all of it is gone.
    // With a farewell, its input is closed first (after what is queued for it), and SIGTERM
    // waits `farewell_ms` for it to leave by itself. Idempotent.
    void terminate(std::uint64_t grace_ms, std::uint64_t farewell_ms = 0);
    bool finished() const { return finished_; }
    // The process group of its command as the host sees it (in a sandbox, its init's); 0 before
    // it has started. For looking at what it runs, never for signalling: terminate() does that.
    int group() const { return inner_pid_ != 0 ? inner_pid_ : pid_; }
    // What its cgroup counted (CPU time, peak memory), once finished; nullopt without one.
    const std::optional<cgroups::Usage>& usage() const { return usage_; }

  private:
    static constexpr std::size_t stderr_line_max = 4096;
    // Without a notification to wait for (no cgroup, or an unsandboxed player in a v1 one), the
    // end of a killed player is looked for this often, this many times at most.
    static constexpr std::uint64_t group_poll_ms = 2;
    static constexpr int group_wait_polls = 500;

    void on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
    void on_process_exit(std::int64_t status, int signal);
    void close_handle(uv_handle_t* handle);
    void check_finished();
    // Closes the pipes it reads without waiting for their end, then finishes if it can.
    void stop_reading();
    void wait_for_group();
    void send_sigterm();
    static void kill_timer_tick(uv_timer_t* timer);
    void flush_log_line();
    // The pipes it reads (stdout, stderr and, in a sandbox, bwrap's info), and all of its pipes.
    std::vector<uv_pipe_t*> output_pipes();
    std::vector<uv_pipe_t*> pipes();
    void on_info(std::string_view bytes);
    void signal_all(int signal);
    bool all_gone() const;
    bool inner_alive() const;
    // Reports an OOM kill in its cgroup, once.
    void check_memory();
    // Watches `fd` for reading with `poll` (counted among its handles).
    void watch(uv_poll_t& poll, int fd, uv_poll_cb callback);

    uv_loop_t* loop_;
    Launch launch_;
    ProcessEvents events_;
    std::unique_ptr<cgroups::Player> cgroup_;
    std::optional<cgroups::Usage> usage_;
    uv_pipe_t info_{};  // bwrap's --info-fd, in a sandbox
    std::string info_text_;
    int inner_pid_ = 0;  // the sandbox's init, as the host sees it (its group is the player's)
    int inner_pidfd_ = -1;
    int pidfd_ = -1;
    uv_poll_t exit_poll_{};    // the process's pidfd
    uv_poll_t inner_poll_{};   // the sandbox init's pidfd
    uv_poll_t notify_poll_{};  // the cgroup's notifications
    uv_pipe_t stdin_{};
    uv_pipe_t stdout_{};
    uv_pipe_t stderr_{};
    uv_timer_t kill_timer_{};
    uv_shutdown_t shutdown_{};
    std::uint64_t grace_ms_ = 0;
    bool signalled_ = false;  // SIGTERM sent
    int open_handles_ = 0;
    int pid_ = 0;
    bool spawned_ = false;
    bool exited_ = false;
    bool terminating_ = false;
    bool killed_ = false;
    bool finished_ = false;
    bool oom_reported_ = false;
    int group_polls_ = 0;
    std::string spawn_error_;
    char read_buffer_[64 * 1024];
    std::string log_line_;
};

}  // namespace bg
