// Each player's command in a sandbox of its own, built by bubblewrap (bwrap): the tool Flatpak
// trusts, from Debian's package of that name. What it isolates, and what it does not, is in the
// docs/security.md.
//
// A sandbox has its own PID namespace (it sees and signals nothing outside; all it starts dies
// with it, setsid or not; it dies with the host, SIGKILL included), no network, its own IPC and
// host name, a read-only view of the file system with a private size-limited /tmp, the event
// log and the other players' files hidden, a clean environment, no capabilities, rlimits
// (prlimit) for CPU time, open files and file size (and, only where the players have no
// cgroups, for memory and processes), and nothing but stdin, stdout and stderr open. As root, it
// runs as an unprivileged user (nobody by default): process limits hold only for users other than
// root.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "transport/spawn.hpp"

namespace bg {

// The command as it runs without a sandbox: sh -c, in the host's environment with `set_env`
// (NAME=VALUE) added or replacing what it had.
Launch unsandboxed_launch(const std::string& command, const std::vector<std::string>& set_env = {});
// Each command's, in seat order.
std::vector<Launch> unsandboxed_launches(const std::vector<std::string>& commands,
                                         const std::vector<std::string>& set_env = {});

struct SandboxLimits {
    // Memory and processes: a player's totals, bounded by its cgroup (cgroups/); only without
    // one (per_process_only), rlimits on each process instead: address space (RLIMIT_AS) and
    // processes and threads of the sandbox's user (RLIMIT_NPROC).
    std::uint64_t memory_mib = 4096;
    std::uint64_t processes = 128;
    bool per_process_only = false;
    std::uint64_t cpu_seconds = 1200;  // CPU time a process (RLIMIT_CPU): SIGXCPU, SIGKILL +1 s
    std::uint64_t open_files = 256;    // descriptors a process (RLIMIT_NOFILE)
    std::uint64_t file_size_mib = 64;  // largest file it may write (RLIMIT_FSIZE)
    std::uint64_t tmp_mib = 64;        // its private /tmp
};

struct SandboxConfig {
    std::string bwrap = "bwrap";  // looked up in PATH
    SandboxLimits limits;
    std::vector<std::string> pass_env;  // names of the host's variables a player also gets
    std::vector<std::string> set_env;   // NAME=VALUE every player gets (BANANAGRAMS_WORDLIST)
    // Files no player may read (the event log), and files every player may read wherever they
    // are (the game's word list): under /tmp they come back into its private /tmp, and another
    // player's command naming them does not hide them.
    std::vector<std::string> secret_paths;
    std::vector<std::string> shared_paths;
    // The user to run as when the host is root ("nobody", a name or a number).
    std::string user = "nobody";
};

class Sandbox {
  public:
    // A sandbox for the players of one game, or why it cannot be had here (bwrap missing, no
    // user namespaces, an unknown user...), with what to do about it. `folders`: for each
    // command (where there are as many), a folder of its own files ("" none: a hosted bot's,
    // unpacked by the arena), which it alone reads, read-only, even within a secret folder, and
    // which it runs in.
    // `probed`: a sandbox of this config was set up here already (bwrap is not run again to
    // see that it can be: a venue's command added while it runs).
    static std::variant<Sandbox, std::string> create(SandboxConfig config,
                                                     std::vector<std::string> commands,
                                                     std::vector<std::string> folders = {},
                                                     bool probed = false);

    // How player `seat` is started.
    Launch launch(std::size_t seat) const;
    const SandboxConfig& config() const { return config_; }

  private:
    Sandbox() = default;

    SandboxConfig config_;
    std::vector<std::string> commands_;
    std::string bwrap_path_;
    std::string prlimit_path_;
    std::optional<std::pair<uid_t, gid_t>> user_;
    std::vector<std::vector<std::string>> own_paths_;  // per seat: the paths its command names
    std::vector<std::string> folders_;                 // per seat: its own folder, or ""
    std::vector<std::string> shared_;  // folders never hidden (system, PATH), made real once
    std::vector<std::string> env_;
};

// The existing paths a command names (words that are paths, or start with one), made absolute
// and real; the words of a shell command split as sh would for plain words.
std::vector<std::string> paths_named_by(const std::string& command);

}  // namespace bg
