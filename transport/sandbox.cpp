#include "transport/sandbox.hpp"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

namespace bg {

namespace fs = std::filesystem;

namespace {

constexpr const char* no_sandbox_hint = "or pass --no-sandbox to run the players unsandboxed";
// Where the sandbox's environment comes from when the host has none.
constexpr const char* default_path = "/usr/local/bin:/usr/bin:/bin";

// The folders of PATH, in order ("." for an empty entry).
std::vector<std::string> search_path() {
    const char* path = std::getenv("PATH");
    std::istringstream entries(path && *path ? path : default_path);
    std::vector<std::string> dirs;
    for (std::string dir; std::getline(entries, dir, ':');)
        dirs.push_back(dir.empty() ? "." : dir);
    return dirs;
}

// `name` found in PATH (or as it is, when it holds a slash); "" when it is nowhere.
std::string find_program(const std::string& name) {
    if (name.find('/') != std::string::npos)
        return ::access(name.c_str(), X_OK) == 0 ? name : "";
    for (const auto& dir : search_path())
        if (const std::string candidate = dir + "/" + name; ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    return "";
}

// Whether `ancestor` is `path` or a directory above it.
bool is_within(const std::string& path, const std::string& ancestor) {
    if (ancestor == "/")
        return true;
    return path == ancestor ||
           (path.size() > ancestor.size() && path.compare(0, ancestor.size(), ancestor) == 0 &&
            path[ancestor.size()] == '/');
}

std::string real_path(const std::string& path) {
    std::error_code error;
    const fs::path real = fs::canonical(path, error);
    return error ? "" : real.string();
}

// Software every player may share: the system's folders and those in PATH, where the
// interpreters are. A player's command naming one does not hide it from the others. (/tmp is
// not one: a player's own folders and working directory under it come back into its private
// /tmp, and so may another player's files that lie within them.)
std::vector<std::string> shared_folders() {
    std::vector<std::string> shared = {"/",      "/usr",   "/bin",    "/sbin", "/lib",
                                       "/lib32", "/lib64", "/libx32", "/etc",  "/opt",
                                       "/proc",  "/dev",   "/sys"};
    for (const auto& dir : search_path())
        if (const auto real = real_path(dir); !real.empty())
            shared.push_back(real);
    return shared;
}

// `path` itself when it is a folder, else the folder it is in.
std::string folder_of(const std::string& path) {
    return fs::is_directory(path) ? path : fs::path(path).parent_path().string();
}

// In a child about to exit: becomes `user`, with no supplementary groups.
bool take_on(std::pair<uid_t, gid_t> user) {
    return ::setgroups(0, nullptr) == 0 && ::setgid(user.second) == 0 && ::setuid(user.first) == 0;
}

std::string mib_bytes(std::uint64_t mib) {
    return std::to_string(mib << 20);
}

// Runs the launch to its end (at most `seconds`), as the host would start it; its exit status
// (or -1) and the first of its stderr.
std::pair<int, std::string> run_once(const Launch& launch, int seconds) {
    int err[2];
    if (::pipe2(err, O_CLOEXEC) != 0)
        return {-1, std::strerror(errno)};
    // Its stdin, stdout and bwrap's --info-fd 3 go nowhere.
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    const auto spawned = spawn_process(launch, {null, null, err[1], null}, {});
    ::close(null);
    ::close(err[1]);
    if (const auto* failed = std::get_if<SpawnError>(&spawned)) {
        ::close(err[0]);
        return {-1, fmt::format("{}: {}", failed->stage, std::strerror(failed->error))};
    }
    const pid_t pid = std::get<Spawned>(spawned).pid;
    ::close(std::get<Spawned>(spawned).pidfd);
    std::string output;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    pollfd fd{err[0], POLLIN, 0};
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0 || ::poll(&fd, 1, static_cast<int>(left)) == 0) {
            ::kill(-pid, SIGKILL);
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            ::close(err[0]);
            return {-1, "it did not finish in time"};
        }
        char buffer[4096];
        const ssize_t n = ::read(err[0], buffer, sizeof buffer);
        if (n <= 0)
            break;
        if (output.size() < 4096)
            output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(err[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    while (!output.empty() && output.back() == '\n')
        output.pop_back();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// Why some seat's command names a path that `user` cannot read, asked of the kernel as that
// user in one child for every seat; nullopt when it can read them all.
std::optional<std::string> unreadable_by(std::pair<uid_t, gid_t> user, const std::string& name,
                                         const std::vector<std::vector<std::string>>& seats) {
    int found[2];
    if (::pipe2(found, O_CLOEXEC) != 0)
        return fmt::format("cannot ask what {} may read: {}", name, std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(found[0]);
        // The answer: a seat and the index of its path, or nothing when all are readable.
        std::uint64_t answer[2] = {UINT64_MAX, 0};
        if (take_on(user)) {
            for (std::size_t seat = 0; seat < seats.size() && answer[0] == UINT64_MAX; ++seat)
                for (std::size_t i = 0; i < seats[seat].size(); ++i)
                    if (::access(seats[seat][i].c_str(), R_OK) != 0) {
                        answer[0] = seat, answer[1] = i;
                        break;
                    }
            if (answer[0] == UINT64_MAX)
                ::_exit(0);
        }
        (void)!::write(found[1], answer, sizeof answer);
        ::_exit(0);
    }
    ::close(found[1]);
    std::uint64_t answer[2];
    const ssize_t n = ::read(found[0], answer, sizeof answer);
    ::close(found[0]);
    ::waitpid(pid, nullptr, 0);
    if (n != static_cast<ssize_t>(sizeof answer))
        return std::nullopt;
    if (answer[0] == UINT64_MAX)
        return fmt::format("the host cannot take on the sandbox user {}", name);
    return fmt::format(
        "player {}'s command names {}, which the sandbox user {} cannot read: make it readable by "
        "that user (as root, players run as {}), name another with --sandbox-user",
        answer[0] + 1, seats[answer[0]][answer[1]], name, name);
}

}  // namespace

Launch unsandboxed_launch(const std::string& command, const std::vector<std::string>& set_env) {
    std::vector<std::string> env;
    if (!set_env.empty()) {
        const auto name_of = [](const std::string& variable) {
            return variable.substr(0, variable.find('='));
        };
        for (char** variable = environ; *variable; ++variable)
            if (std::none_of(set_env.begin(), set_env.end(), [&](const std::string& set) {
                    return name_of(set) == name_of(*variable);
                }))
                env.emplace_back(*variable);
        env.insert(env.end(), set_env.begin(), set_env.end());
    }
    return Launch{{"/bin/sh", "-c", command}, std::move(env), std::nullopt, false};
}

std::vector<Launch> unsandboxed_launches(const std::vector<std::string>& commands,
                                         const std::vector<std::string>& set_env) {
    std::vector<Launch> launches;
    for (const auto& command : commands)
        launches.push_back(unsandboxed_launch(command, set_env));
    return launches;
}

std::vector<std::string> paths_named_by(const std::string& command) {
    std::vector<std::string> paths;
    std::istringstream words(command);
    for (std::string word; words >> word;) {
        while (!word.empty() && (word.front() == '\'' || word.front() == '"'))
            word.erase(0, 1);
        while (!word.empty() && (word.back() == '\'' || word.back() == '"' || word.back() == ';'))
            word.pop_back();
        if (const auto equals = word.find('='); equals != std::string::npos)
            word.erase(0, equals + 1);  // --dict=FILE
        if (word.find('/') == std::string::npos)
            continue;
        // /proc/self and /dev/stdin name the sandbox's own, not what the host sees.
        const auto real = real_path(word);
        if (!real.empty() && !is_within(real, "/proc") && !is_within(real, "/dev") &&
            !is_within(real, "/sys"))
            paths.push_back(real);
    }
    return paths;
}

std::variant<Sandbox, std::string> Sandbox::create(SandboxConfig config,
                                                   std::vector<std::string> commands,
                                                   std::vector<std::string> folders, bool probed) {
    Sandbox sandbox;
    sandbox.bwrap_path_ = find_program(config.bwrap);
    if (sandbox.bwrap_path_.empty())
        return fmt::format(
            "the player sandbox needs bubblewrap ({}), which is not installed: apt-get install "
            "bubblewrap, {}",
            config.bwrap, no_sandbox_hint);
    sandbox.prlimit_path_ = find_program("prlimit");
    if (sandbox.prlimit_path_.empty())
        return fmt::format(
            "the player sandbox needs prlimit (Debian's util-linux), which is not "
            "in PATH; {}",
            no_sandbox_hint);
    if (::geteuid() == 0) {
        const passwd* user = nullptr;
        char* end = nullptr;
        const unsigned long number = std::strtoul(config.user.c_str(), &end, 10);
        if (!config.user.empty() && *end == '\0')
            user = ::getpwuid(static_cast<uid_t>(number));
        else
            user = ::getpwnam(config.user.c_str());
        if (!user)
            return fmt::format(
                "the sandbox user {} does not exist: name one with --sandbox-user, {}", config.user,
                no_sandbox_hint);
        if (user->pw_uid == 0)
            return fmt::format(
                "the sandbox user may not be root: limits on processes do not hold for root; "
                "name another with --sandbox-user, {}",
                no_sandbox_hint);
        sandbox.user_ = std::pair{user->pw_uid, user->pw_gid};
    }

    const char* path = std::getenv("PATH");
    const char* lang = std::getenv("LANG");
    sandbox.env_ = {fmt::format("PATH={}", path && *path ? path : default_path), "HOME=/tmp",
                    fmt::format("LANG={}", lang && *lang ? lang : "C.UTF-8")};
    for (const auto& name : config.pass_env)
        if (const char* value = std::getenv(name.c_str()))
            sandbox.env_.push_back(fmt::format("{}={}", name, value));
    sandbox.env_.insert(sandbox.env_.end(), config.set_env.begin(), config.set_env.end());
    for (auto& secret : config.secret_paths)
        secret = real_path(secret);
    for (auto& shared : config.shared_paths)
        shared = real_path(shared);
    for (const auto& command : commands)
        sandbox.own_paths_.push_back(paths_named_by(command));
    folders.resize(commands.size());
    for (std::size_t i = 0; i < folders.size(); ++i)
        if (!folders[i].empty()) {
            folders[i] = real_path(folders[i]);
            sandbox.own_paths_[i].push_back(folders[i]);
        }
    sandbox.folders_ = std::move(folders);
    sandbox.shared_ = shared_folders();
    sandbox.config_ = std::move(config);

    sandbox.commands_ = std::move(commands);

    // A sandbox that cannot be set up here fails now, with bwrap's own reason, never later as
    // a player that could not start, and never by running the players unsandboxed.
    Sandbox probe = sandbox;
    probe.commands_ = {"exit 0"};
    probe.own_paths_ = {{}};
    probe.folders_ = {""};
    const auto [status, output] =
        probed ? std::pair{0, std::string()} : run_once(probe.launch(0), 10);
    if (status != 0)
        return fmt::format(
            "the player sandbox cannot be set up here: {} (bubblewrap needs unprivileged user "
            "namespaces: sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > "
            "0); {}",
            output.empty() ? fmt::format("bwrap exited with status {}", status) : output,
            no_sandbox_hint);
    if (sandbox.user_)
        if (const auto why =
                unreadable_by(*sandbox.user_, sandbox.config_.user, sandbox.own_paths_))
            return fmt::format("{}, {}", *why, no_sandbox_hint);
    return sandbox;
}

Launch Sandbox::launch(std::size_t seat) const {
    const auto& own = own_paths_[seat];
    const SandboxLimits& limits = config_.limits;
    std::vector<std::string> a = {bwrap_path_,
                                  "--unshare-all",  // pid, net, ipc, uts, cgroup, user
                                  "--die-with-parent",
                                  "--new-session",
                                  "--cap-drop",
                                  "ALL",
                                  "--ro-bind",
                                  "/",
                                  "/",
                                  "--dev",
                                  "/dev",
                                  "--proc",
                                  "/proc",
                                  "--size",
                                  mib_bytes(limits.tmp_mib),
                                  "--tmpfs",
                                  "/tmp",
                                  "--size",
                                  mib_bytes(limits.tmp_mib),
                                  "--tmpfs",
                                  "/dev/shm"};
    // Its own files under /tmp, and the working directory, come back read-only.
    std::error_code error;
    const std::string cwd = fs::current_path(error).string();
    std::vector<std::string> keep = own;
    if (!error)
        keep.push_back(cwd);
    for (const auto& path : keep) {
        if (!is_within(path, "/tmp") || path == "/tmp")
            continue;
        const std::string dir = folder_of(path);
        a.insert(a.end(), {"--ro-bind", dir, dir});
    }
    const auto needed = [&](const std::string& dir) {
        for (const auto& path : keep)
            if (is_within(path, dir))
                return true;
        return false;
    };
    const auto hide = [&](const std::string& path) {
        if (path.empty() || path == "/")
            return;
        if (fs::is_directory(path))
            a.insert(a.end(), {"--tmpfs", path});
        else
            a.insert(a.end(), {"--ro-bind", "/dev/null", path});
    };
    // The other players' files: their directories, unless this player's own lie within.
    for (std::size_t other = 0; other < own_paths_.size(); ++other) {
        if (other == seat)
            continue;
        for (const auto& path : own_paths_[other]) {
            const bool shared = std::any_of(shared_.begin(), shared_.end(), [&](const auto& dir) {
                return dir == "/" ? path == "/" : is_within(path, dir);
            });
            if (shared || std::find(own.begin(), own.end(), path) != own.end())
                continue;
            const std::string dir = folder_of(path);
            if (!needed(dir))
                hide(dir);
            else if (!needed(path))
                hide(path);
        }
    }
    // The files every player shares come back over whatever hid them (its private /tmp, a
    // folder of another player's), each file alone, not what lies beside it.
    for (const auto& path : config_.shared_paths)
        if (!path.empty())
            a.insert(a.end(), {"--ro-bind", path, path});
    for (const auto& path : config_.secret_paths)
        hide(path);
    // Its own folder comes back over whatever hid it (a secret folder of every hosted bot's);
    // the other players' were hidden with their paths.
    if (seat < folders_.size() && !folders_[seat].empty())
        a.insert(a.end(), {"--ro-bind", folders_[seat], folders_[seat], "--chdir", folders_[seat]});
    a.insert(a.end(), {"--clearenv"});
    for (const auto& variable : env_) {
        const auto equals = variable.find('=');
        a.insert(a.end(), {"--setenv", variable.substr(0, equals), variable.substr(equals + 1)});
    }
    a.insert(a.end(), {"--info-fd", "3", "--", prlimit_path_});
    // Memory and processes are the player's cgroup's totals; rlimits on each process only
    // where it has none. (An address-space limit would also refuse what is only reserved, never
    // used: Go's and Java's runtimes, a sanitizer's shadow memory.)
    if (limits.per_process_only)
        a.insert(a.end(), {fmt::format("--as={}", mib_bytes(limits.memory_mib)),
                           fmt::format("--nproc={}", limits.processes)});
    a.insert(a.end(),
             {// SIGXCPU at the limit (a bot may catch it and leave), SIGKILL a second later.
              fmt::format("--cpu={}:{}", limits.cpu_seconds, limits.cpu_seconds + 1),
              fmt::format("--nofile={}", limits.open_files),
              fmt::format("--fsize={}", mib_bytes(limits.file_size_mib)), "/bin/sh", "-c",
              seat < commands_.size() ? commands_[seat] : "exit 0"});
    return Launch{std::move(a), env_, user_, true};
}

}  // namespace bg
