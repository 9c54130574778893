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
// Its life is a few phases, each entered by one function (enter) and left by what happens:
//
//   unstarted --spawn--> running --end--> farewell --its time--> terminating --grace--> killing
//       |                   |  \--end, no farewell-----------------^                      |
//       |                   \----(it exited, its output closed)--------------------------->|
//       \--spawn failed, or ended before it started------------------------------> finished <-/
//
// (farewell: its input closed, time to leave by itself; terminating: SIGTERM sent; killing:
// SIGKILL sent, waiting until nothing of it runs). One timer a role: the farewell, the grace,
// the wait for its end, and the announcement that it has finished. Every handle is an owned
// one (handles.hpp), closed on entering finished; on_finished comes a turn later, when the loop
// has let them go.
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
#include "transport/handles.hpp"
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
    enum class Phase { unstarted, running, farewell, terminating, killing, finished };

    // `cgroup`: the player's cgroup, or none (per-process limits only).
    PlayerProcess(uv_loop_t* loop, Launch launch, ProcessEvents events,
                  std::unique_ptr<cgroups::PlayerCgroup> cgroup = nullptr);
    PlayerProcess(const PlayerProcess&) = delete;
    PlayerProcess& operator=(const PlayerProcess&) = delete;
    ~PlayerProcess();

    // 0, or a negative errno (spawn_error() says what failed).
    int spawn();
    const std::string& spawn_error() const { return spawn_error_; }
    void write(std::string bytes);
    std::size_t queued_bytes() const { return stdin_.queued_bytes(); }
    // SIGTERM to the group, and SIGKILL to the group `grace_ms` later unless all of it is gone.
    // With a farewell, its input is closed first (after what is queued for it), and SIGTERM
    // waits `farewell_ms` for it to leave by itself. Idempotent.
    void terminate(std::uint64_t grace_ms, std::uint64_t farewell_ms = 0);
    // Ends it sooner than terminate() said: no more farewell, SIGTERM now if it has not had it,
    // and SIGKILL at most `grace_ms` from now (a program told to stop at once).
    void hurry(std::uint64_t grace_ms);
    Phase phase() const { return phase_; }
    bool finished() const { return phase_ == Phase::finished && announced_; }
    // The process group of its command as the host sees it (in a sandbox, its init's); 0 before
    // it has started. For looking at what it runs, never for signalling: terminate() does that.
    int group() const { return inner_pid_ != 0 ? inner_pid_ : pid_; }
    // What its cgroup counted (CPU time, peak memory), once finished; nullopt without one.
    const std::optional<cgroups::Usage>& usage() const { return usage_; }
    // What its cgroup has counted so far: while it runs, and once finished (then usage()).
    std::optional<cgroups::Usage> usage_now() const;
    // What tells how long its processes have waited for a CPU (cgroups/cpu_wait.hpp): read now,
    // or, once finished, as it was when its last process had gone; nullopt without a cgroup.
    std::optional<cgroups::WaitSample> wait_sample(bool closing) const;
    // Its peak memory counted again from now, where the kernel can (cgroup v1).
    bool reset_memory_peak() const { return cgroup_ && cgroup_->reset_memory_peak(); }
    // The lines of its stderr that it wrote before now and the loop has not yet read, passed on
    // now (with a last line cut short), so that what it wrote in a game is that game's when it
    // is kept for the next.
    void read_waiting_log();
    // It runs, and can still be talked to: its command has not exited, its output is open, and
    // nothing has begun to end it.
    bool running() const { return phase_ == Phase::running && !exited_ && stdout_open_; }

  private:
    static constexpr std::size_t stderr_line_max = 4096;
    // Without a notification to wait for (no cgroup, or an unsandboxed player in a v1 one), the
    // end of a killed player is looked for this often, this many times at most.
    static constexpr std::uint64_t group_poll_ms = 2;
    static constexpr int group_wait_polls = 500;

    // The transition function: enters `next`, doing what entering it does.
    void enter(Phase next);
    // What happened may move it on: its command exited, an output ended, its cgroup or its
    // sandbox said something, a timer fired.
    void advance();

    void start_reading();
    void on_stdout_end();
    void on_stderr(std::string_view bytes);
    void on_process_exit(std::int64_t status, int signal);
    void on_info(std::string_view bytes);
    void flush_log_line();
    void close_outputs();
    void signal_all(int signal);
    bool all_gone() const;
    bool inner_alive() const;
    // Reports an OOM kill in its cgroup, once.
    void check_memory();
    // In killing: looks again at whether it is gone (`timer_fired`: the look the end timer
    // asked for), and when to look next.
    void wait_for_end(bool timer_fired = false);

    uv_loop_t* loop_;
    Launch launch_;
    ProcessEvents events_;
    std::unique_ptr<cgroups::PlayerCgroup> cgroup_;
    std::optional<cgroups::Usage> usage_;
    std::optional<cgroups::WaitSample> last_sample_;  // its cgroup's, read as it was removed
    Phase phase_ = Phase::unstarted;
    bool announced_ = false;  // on_finished has been called
    std::uint64_t grace_ms_ = 0;

    // The descriptors before the handles that watch them, which are closed first.
    int pid_ = 0;
    UniqueFd pidfd_;
    int inner_pid_ = 0;  // the sandbox's init, as the host sees it (its group is the player's)
    UniqueFd inner_pidfd_;

    Pipe stdin_;
    Pipe stdout_;
    Pipe stderr_;
    Pipe info_;                         // bwrap's --info-fd, in a sandbox
    std::optional<Poll> exit_watch_;    // the process's pidfd
    std::optional<Poll> inner_watch_;   // the sandbox init's pidfd
    std::vector<Poll> cgroup_watches_;  // the cgroup's notifications
    Timer farewell_timer_;
    Timer grace_timer_;
    Timer end_timer_;  // in killing: the next look, or the bound of the wait
    Timer announcer_;  // on_finished, a turn after finishing

    std::string info_text_;
    bool exited_ = false;
    bool stdout_open_ = false;
    bool stderr_open_ = false;
    bool oom_reported_ = false;
    int end_looks_ = 0;
    std::string spawn_error_;
    std::string log_line_;
};

}  // namespace bg
