#include "cgroups/cgroups.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <set>
#include <thread>

#include <fmt/format.h>

namespace bg::cgroups {

namespace {

constexpr const char* base_name = "bananagrams";
// In v2, the leaf the host's own cgroup's processes move to, so that its games may be its
// children (a v2 cgroup with processes of its own cannot give controllers to children).
constexpr const char* host_leaf = "host";

std::optional<std::string> read_text(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    std::string text;
    char buffer[4096];
    while (true) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ::close(fd);
            if (n < 0)
                return std::nullopt;
            return text;
        }
        text.append(buffer, static_cast<std::size_t>(n));
    }
}

// 0, or the errno of the open or the write.
int write_text(const std::string& path, std::string_view text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    const ssize_t n = ::write(fd, text.data(), text.size());
    const int error = n < 0 ? errno : n == static_cast<ssize_t>(text.size()) ? 0 : EIO;
    ::close(fd);
    return error;
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// The number after `key` in a file of "key value" lines.
std::optional<std::uint64_t> key_value(const std::optional<std::string>& text,
                                       std::string_view key) {
    if (!text)
        return std::nullopt;
    std::size_t at = 0;
    while (at < text->size()) {
        const auto end = text->find('\n', at);
        const std::string_view line(text->data() + at,
                                    (end == std::string::npos ? text->size() : end) - at);
        if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 &&
            line[key.size()] == ' ')
            return std::strtoull(std::string(line.substr(key.size() + 1)).c_str(), nullptr, 10);
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> number_in(const std::string& path) {
    const auto text = read_text(path);
    if (!text || text->empty() || !std::isdigit(static_cast<unsigned char>((*text)[0])))
        return std::nullopt;
    return std::strtoull(text->c_str(), nullptr, 10);
}

std::vector<int> pids_in(const std::string& dir) {
    std::vector<int> pids;
    const auto text = read_text(dir + "/cgroup.procs");
    if (!text)
        return pids;
    std::size_t at = 0;
    while (at < text->size()) {
        const auto end = text->find('\n', at);
        const int pid = std::atoi(text->c_str() + at);
        if (pid > 0)
            pids.push_back(pid);
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return pids;
}

bool populated(const std::string& dir, int version) {
    if (version == 2) {
        const auto value = key_value(read_text(dir + "/cgroup.events"), "populated");
        return !value || *value != 0;
    }
    return !pids_in(dir).empty();
}

void kill_all(const std::string& dir, int version) {
    if (version == 2 && write_text(dir + "/cgroup.kill", "1") == 0)
        return;
    for (const int pid : pids_in(dir))
        ::kill(pid, SIGKILL);
}

// Kills what is in `dir` and waits (a second at most) until it is empty; false if it is not.
bool emptied(const std::string& dir, int version) {
    for (int round = 0; round < 200; ++round) {
        if (!populated(dir, version))
            return true;
        kill_all(dir, version);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return !populated(dir, version);
}

std::vector<std::string> subdirectories(const std::string& dir, std::string_view prefix) {
    std::vector<std::string> names;
    DIR* d = ::opendir(dir.c_str());
    if (!d)
        return names;
    while (const dirent* entry = ::readdir(d)) {
        const std::string name = entry->d_name;
        if (entry->d_type == DT_DIR && name.compare(0, prefix.size(), prefix) == 0)
            names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

std::string parent_of(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string subtree_tokens(const Hierarchy& h) {
    std::string tokens;
    for (const Controller c : h.controllers)
        if (c != Controller::cpuacct)
            tokens += fmt::format("{}+{}", tokens.empty() ? "" : " ", to_string(c));
    return tokens;
}

// Whether every token of "+a +b" is enabled in `dir`'s cgroup.subtree_control.
bool subtree_has(const std::string& dir, const std::string& tokens) {
    const auto enabled = read_text(dir + "/cgroup.subtree_control");
    if (!enabled)
        return false;
    std::set<std::string> on;
    std::string word;
    for (char c : *enabled + " ") {
        if (c == ' ' || c == '\n') {
            if (!word.empty())
                on.insert(word);
            word.clear();
        } else {
            word += c;
        }
    }
    std::string token;
    for (char c : tokens + " ") {
        if (c == ' ') {
            if (!token.empty() && !on.count(token.substr(1)))
                return false;
            token.clear();
        } else {
            token += c;
        }
    }
    return true;
}

std::string cpuset_file(int version, const std::string& name) {
    // v1 names the effective set cpuset.effective_cpus, v2 cpuset.cpus.effective.
    if (name == "effective_cpus")
        return version == 2 ? "cpuset.cpus.effective" : "cpuset.effective_cpus";
    if (name == "effective_mems")
        return version == 2 ? "cpuset.mems.effective" : "cpuset.effective_mems";
    return "cpuset." + name;
}

std::string trimmed(std::optional<std::string> text) {
    if (!text)
        return "";
    while (!text->empty() && (text->back() == '\n' || text->back() == ' '))
        text->pop_back();
    return *text;
}

// In v2, a cgroup of a systemd unit may be managed by this process only when systemd delegated
// it: it says so in an extended attribute since systemd 251 (trusted.delegate, which only root
// may read; user.delegate too since 253), and gives a user's delegated cgroup to the user.
bool delegated(const std::string& dir) {
    const auto name = dir.substr(dir.rfind('/') + 1);
    const auto ends_with = [&](std::string_view suffix) {
        return name.size() > suffix.size() &&
               name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (!ends_with(".scope") && !ends_with(".service") && !ends_with(".slice"))
        return true;  // not systemd's: whoever made it gave it to us
    for (const char* attribute : {"trusted.delegate", "user.delegate"}) {
        char value[8] = {};
        if (::getxattr(dir.c_str(), attribute, value, sizeof value - 1) > 0 && value[0] == '1')
            return true;
    }
    struct stat st {};
    return ::geteuid() != 0 && ::stat(dir.c_str(), &st) == 0 && st.st_uid == ::geteuid();
}

class FileLock {
  public:
    FileLock(int fd, int operation) : fd_(fd) {
        while (::flock(fd_, operation) != 0 && errno == EINTR) {
        }
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock() { ::flock(fd_, LOCK_UN); }

  private:
    int fd_;
};

}  // namespace

// ---- Player ----------------------------------------------------------------------------------

std::string Player::file(Controller c, const std::string& name) const {
    return dirs_[layout_->index_of(c)] + "/" + name;
}

std::string Player::make(const Game& game, const std::string& name, const PlayerLimits& limits) {
    layout_ = &game.machine_->layout();
    limits_ = limits;
    const auto& hierarchies = layout_->hierarchies;
    version_of_pids_ = layout_->of(Controller::pids).version;
    version_of_memory_ = layout_->of(Controller::memory).version;
    dirs_.assign(hierarchies.size(), "");
    for (std::size_t i = 0; i < hierarchies.size(); ++i) {
        if (game.dirs_[i].empty())
            continue;
        const std::string dir = game.dirs_[i] + "/" + name;
        if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
            return fmt::format("cannot make the cgroup {}: {}", dir, std::strerror(errno));
        dirs_[i] = dir;
    }
    const auto set = [&](Controller c, const std::string& what,
                         const std::string& value) -> std::string {
        const std::string path = file(c, what);
        if (const int error = write_text(path, value))
            return fmt::format("cannot set {} to {}: {}", path, value, std::strerror(error));
        return "";
    };
    std::string error;
    const std::string bytes = std::to_string(limits.memory_bytes);
    if (version_of_memory_ == 2) {
        error = set(Controller::memory, "memory.max", bytes);
        if (error.empty() && exists(file(Controller::memory, "memory.swap.max")))
            error = set(Controller::memory, "memory.swap.max", "0");
        // Over its limit, the whole player goes at once, not one process of it.
        if (error.empty() && exists(file(Controller::memory, "memory.oom.group")))
            error = set(Controller::memory, "memory.oom.group", "1");
    } else {
        error = set(Controller::memory, "memory.limit_in_bytes", bytes);
        // Memory and swap together: the limit holds whatever the machine swaps.
        if (error.empty() && exists(file(Controller::memory, "memory.memsw.limit_in_bytes")))
            error = set(Controller::memory, "memory.memsw.limit_in_bytes", bytes);
        else if (error.empty())
            (void)write_text(file(Controller::memory, "memory.swappiness"), "0");
    }
    if (error.empty())
        error = set(Controller::pids, "pids.max", std::to_string(limits.processes));
    if (error.empty())
        error = layout_->of(Controller::cpu).version == 2
                    ? set(Controller::cpu, "cpu.weight", "100")
                    : set(Controller::cpu, "cpu.shares", "1024");
    const std::size_t cpuset = layout_->index_of(Controller::cpuset);
    if (error.empty() && cpuset < dirs_.size() && !dirs_[cpuset].empty() &&
        hierarchies[cpuset].version == 1) {
        // A v1 cpuset starts empty: its CPUs and memory nodes are the game's.
        error = set(Controller::cpuset, "cpuset.cpus", format_cpu_list(game.cpus_));
        if (error.empty())
            error = set(Controller::cpuset, "cpuset.mems",
                        trimmed(read_text(game.dirs_[cpuset] + "/cpuset.mems")));
    }
    if (!error.empty())
        return error;

    if (version_of_memory_ == 2) {
        notify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (notify_fd_ < 0 ||
            ::inotify_add_watch(notify_fd_, file(Controller::memory, "memory.events").c_str(),
                                IN_MODIFY) < 0)
            return fmt::format("cannot watch {}: {}", file(Controller::memory, "memory.events"),
                               std::strerror(errno));
        if (version_of_pids_ == 2 &&
            ::inotify_add_watch(notify_fd_, file(Controller::pids, "cgroup.events").c_str(),
                                IN_MODIFY) < 0)
            return fmt::format("cannot watch {}: {}", file(Controller::pids, "cgroup.events"),
                               std::strerror(errno));
    } else {
        // v1 signals an OOM in the cgroup through an eventfd registered on memory.oom_control.
        notify_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        oom_control_fd_ =
            ::open(file(Controller::memory, "memory.oom_control").c_str(), O_RDONLY | O_CLOEXEC);
        if (notify_fd_ < 0 || oom_control_fd_ < 0 ||
            write_text(file(Controller::memory, "cgroup.event_control"),
                       fmt::format("{} {}", notify_fd_, oom_control_fd_)) != 0)
            return fmt::format("cannot watch {} for the OOM killer: {}",
                               file(Controller::memory, "memory.oom_control"),
                               std::strerror(errno));
    }
    for (const auto& dir : dirs_) {
        if (dir.empty())
            continue;
        const int fd = ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return fmt::format("cannot open {}/cgroup.procs: {}", dir, std::strerror(errno));
        entry_.push_back(fd);
    }
    return "";
}

void Player::close_entry() {
    for (const int fd : entry_)
        ::close(fd);
    entry_.clear();
}

void Player::drain() const {
    if (notify_fd_ < 0)
        return;
    char buffer[4096];
    while (::read(notify_fd_, buffer, sizeof buffer) > 0) {
    }
}

std::uint64_t Player::oom_kills() const {
    if (dirs_.empty())
        return 0;
    if (version_of_memory_ == 2) {
        const auto events = read_text(file(Controller::memory, "memory.events"));
        return std::max(key_value(events, "oom_kill").value_or(0),
                        key_value(events, "oom_group_kill").value_or(0));
    }
    return key_value(read_text(file(Controller::memory, "memory.oom_control")), "oom_kill")
        .value_or(0);
}

bool Player::empty() const {
    return dirs_.empty() ||
           !populated(dirs_[layout_->index_of(Controller::pids)], version_of_pids_);
}

void Player::kill() const {
    if (!dirs_.empty())
        kill_all(dirs_[layout_->index_of(Controller::pids)], version_of_pids_);
}

Usage Player::usage() const {
    Usage usage;
    if (dirs_.empty())
        return usage;
    if (layout_->of(Controller::cpuacct).version == 2) {
        if (const auto usec =
                key_value(read_text(file(Controller::cpuacct, "cpu.stat")), "usage_usec"))
            usage.cpu_ns = *usec * 1000;
    } else {
        usage.cpu_ns = number_in(file(Controller::cpuacct, "cpuacct.usage"));
    }
    usage.memory_peak_bytes = number_in(file(
        Controller::memory, version_of_memory_ == 2 ? "memory.peak" : "memory.max_usage_in_bytes"));
    return usage;
}

void Player::remove() {
    close_entry();
    if (notify_fd_ >= 0)
        ::close(notify_fd_);
    if (oom_control_fd_ >= 0)
        ::close(oom_control_fd_);
    notify_fd_ = oom_control_fd_ = -1;
    if (dirs_.empty())
        return;
    const std::string& pids = dirs_[layout_->index_of(Controller::pids)];
    if (!pids.empty())
        emptied(pids, version_of_pids_);
    for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it)
        if (!it->empty())
            ::rmdir(it->c_str());
    dirs_.clear();
}

Player::~Player() {
    remove();
}

// ---- Game ------------------------------------------------------------------------------------

std::variant<std::unique_ptr<Player>, std::string> Game::player(int seat,
                                                                const PlayerLimits& limits) {
    std::unique_ptr<Player> player(new Player());
    if (auto error = player->make(*this, fmt::format("player-{}", seat + 1), limits);
        !error.empty())
        return error;
    return player;
}

Game::~Game() {
    bool gone = true;
    for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it)
        if (!it->empty() && ::rmdir(it->c_str()) != 0 && errno != ENOENT)
            gone = false;
    if (!gone && machine_)
        remove_game_tree(machine_->layout(), dirs_);
    if (lock_fd_ >= 0)
        ::close(lock_fd_);
}

bool remove_game_tree(const Layout& layout, const std::vector<std::string>& dirs) {
    bool all = true;
    const std::size_t pids = layout.index_of(Controller::pids);
    // Every player's processes first: they are in the same cgroups in every hierarchy.
    if (pids < dirs.size() && !dirs[pids].empty())
        for (const auto& player : subdirectories(dirs[pids], "player-"))
            all = emptied(dirs[pids] + "/" + player, layout.hierarchies[pids].version) && all;
    for (std::size_t i = dirs.size(); i-- > 0;) {
        if (dirs[i].empty() || !exists(dirs[i]))
            continue;
        for (const auto& player : subdirectories(dirs[i], "player-"))
            if (::rmdir((dirs[i] + "/" + player).c_str()) != 0 && errno != ENOENT)
                all = false;
        if (::rmdir(dirs[i].c_str()) != 0 && errno != ENOENT)
            all = false;
    }
    return all;
}

// ---- Machine ---------------------------------------------------------------------------------

template <class F>
auto Machine::locked(F&& what) const {
    FileLock lock(mutex_fd_, LOCK_EX);
    return what();
}

std::variant<std::unique_ptr<Machine>, std::string> Machine::open(bool pin) {
    const auto mountinfo = read_text("/proc/self/mountinfo");
    const auto self = read_text("/proc/self/cgroup");
    if (!mountinfo || !self)
        return std::string("cannot read /proc/self/mountinfo and /proc/self/cgroup");
    const auto mounts = parse_mountinfo(*mountinfo);
    const auto memberships = parse_proc_cgroup(*self);
    std::vector<Controller> needed = {Controller::cpu, Controller::cpuacct, Controller::memory,
                                      Controller::pids, Controller::cpuset};
    const auto reader = [](const std::string& path) { return read_text(path); };
    auto found = find_layout(mounts, memberships, needed, reader);
    if (std::holds_alternative<std::string>(found) && !pin) {
        // cpuset only pins games; without it, a host that pins none still plays.
        needed.pop_back();
        found = find_layout(mounts, memberships, needed, reader);
    }
    if (auto* error = std::get_if<std::string>(&found))
        return *error;
    std::unique_ptr<Machine> machine(new Machine());
    machine->layout_ = std::move(std::get<Layout>(found));
    machine->pin_ = pin;
    // In v2, a host already in the leaf an earlier host moved its cgroup's processes to (its
    // parent giving controllers to children) makes its games beside it, under that parent.
    for (auto& h : machine->layout_.hierarchies) {
        const std::string leaf = std::string("/") + host_leaf;
        if (h.version == 2 && h.own.size() > leaf.size() &&
            h.own.compare(h.own.size() - leaf.size(), leaf.size(), leaf) == 0 &&
            subtree_has(parent_of(h.own), subtree_tokens(h)))
            h.own = parent_of(h.own);
    }
    if (machine->layout_.uses_v1() && ::geteuid() != 0)
        return fmt::format(
            "this machine's cgroups are v1 ({}), which only root may manage safely: run the host "
            "as root (the players then run as --sandbox-user)",
            machine->layout_.hierarchies.front().mount);
    if (auto error = machine->prepare(); !error.empty())
        return error;
    return machine;
}

std::string Machine::prepare() {
    // The base's parent: this process's cgroup in each hierarchy; in v2 its processes first
    // move to a leaf of their own, unless it is the hierarchy's root.
    for (auto& h : layout_.hierarchies) {
        if (h.version != 2)
            continue;
        const std::string tokens = subtree_tokens(h);
        if (subtree_has(h.own, tokens))
            continue;
        if (h.own != h.mount && !delegated(h.own))
            return fmt::format(
                "this process's cgroup {} belongs to systemd and was not delegated: run the host "
                "in a scope of its own, systemd-run --scope -p Delegate=yes (as a user: "
                "systemd-run "
                "--user --scope -p Delegate=yes)",
                h.own);
        int error = write_text(h.own + "/cgroup.subtree_control", tokens);
        if (error == EBUSY) {
            // Processes of its own (this one, and whoever started it in the scope) keep a v2
            // cgroup from having controlled children: they move to a leaf beneath it.
            const std::string leaf = h.own + "/" + host_leaf;
            if (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST)
                return fmt::format("cannot make {}: {}", leaf, std::strerror(errno));
            for (int round = 0; round < 10; ++round) {
                const auto pids = pids_in(h.own);
                if (pids.empty())
                    break;
                for (const int pid : pids)
                    if (const int moved = write_text(leaf + "/cgroup.procs", std::to_string(pid));
                        moved != 0 && moved != ESRCH)
                        return fmt::format(
                            "cannot move process {} from {} to {}: {}: run the host in a cgroup "
                            "it may manage (systemd-run --scope -p Delegate=yes)",
                            pid, h.own, leaf, std::strerror(moved));
            }
            error = write_text(h.own + "/cgroup.subtree_control", tokens);
        }
        if (error != 0)
            return fmt::format(
                "cannot give the cgroup controllers {} to the games under {}: {}: run the host as "
                "root, or in a cgroup delegated to it (systemd-run --user --scope -p Delegate=yes)",
                tokens, h.own, std::strerror(error));
    }
    for (const auto& h : layout_.hierarchies)
        base_.push_back(h.own + "/" + base_name);
    mutex_fd_ = ::open(layout_.hierarchies.front().own.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (mutex_fd_ < 0)
        return fmt::format("cannot open {}: {}", layout_.hierarchies.front().own,
                           std::strerror(errno));
    return locked([this]() -> std::string {
        for (std::size_t i = 0; i < base_.size(); ++i) {
            const Hierarchy& h = layout_.hierarchies[i];
            if (::mkdir(base_[i].c_str(), 0755) != 0 && errno != EEXIST)
                return fmt::format("cannot make the cgroup {}: {}", base_[i], std::strerror(errno));
            if (h.version == 2) {
                if (const int error =
                        write_text(base_[i] + "/cgroup.subtree_control", subtree_tokens(h)))
                    return fmt::format("cannot enable {} in {}: {}", subtree_tokens(h), base_[i],
                                       std::strerror(error));
            } else if (h.has(Controller::cpuset)) {
                // A v1 cpuset has no CPUs until given some: the base has its parent's.
                for (const char* what : {"cpus", "mems"})
                    if (trimmed(read_text(base_[i] + "/cpuset." + what)).empty())
                        (void)write_text(
                            base_[i] + "/cpuset." + what,
                            trimmed(read_text(h.own + "/" +
                                              cpuset_file(1, std::string("effective_") + what))));
            }
        }
        presence_fd_ = ::open(base_.front().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (presence_fd_ < 0)
            return fmt::format("cannot open {}: {}", base_.front(), std::strerror(errno));
        ::flock(presence_fd_, LOCK_SH);
        sweep();
        return "";
    });
}

void Machine::sweep() {
    std::set<std::string> names;
    for (const auto& base : base_)
        for (const auto& name : subdirectories(base, "game-"))
            names.insert(name);
    for (const auto& name : names) {
        // A game's host holds its directory locked while it lives: one that can be locked now
        // was left by a host that was killed.
        const int fd =
            ::open((base_.front() + "/" + name).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            ::close(fd);
            continue;
        }
        std::vector<std::string> dirs;
        for (const auto& base : base_)
            dirs.push_back(base + "/" + name);
        if (remove_game_tree(layout_, dirs))
            ++swept_;
        else
            left_over_.push_back(base_.front() + "/" + name);
        if (fd >= 0)
            ::close(fd);
    }
}

std::vector<int> Machine::cpus() const {
    const std::size_t i = layout_.index_of(Controller::cpuset);
    std::optional<std::vector<int>> cpus;
    if (i < base_.size())
        cpus = parse_cpu_list(trimmed(read_text(
            base_[i] + "/" + cpuset_file(layout_.hierarchies[i].version, "effective_cpus"))));
    if (!cpus || cpus->empty())
        cpus = parse_cpu_list(trimmed(read_text("/sys/devices/system/cpu/online")));
    return cpus.value_or(std::vector<int>{});
}

int Machine::cpus_pinned_elsewhere() const {
    const std::size_t i = layout_.index_of(Controller::cpuset);
    if (i >= base_.size())
        return 0;
    std::set<int> taken;
    for (const auto& name : subdirectories(base_[i], "game-"))
        for (int cpu : parse_cpu_list(trimmed(read_text(base_[i] + "/" + name + "/cpuset.cpus")))
                           .value_or(std::vector<int>{}))
            taken.insert(cpu);
    return static_cast<int>(taken.size());
}

std::variant<std::unique_ptr<Game>, Machine::GameError> Machine::game(int cpus) {
    if (cpus > 0 && !pin_)
        return GameError{"internal: a pinned game from a machine opened without cpuset"};
    return locked([&]() -> std::variant<std::unique_ptr<Game>, GameError> {
        std::unique_ptr<Game> game(new Game());
        game->machine_ = this;
        const std::size_t cpuset = layout_.index_of(Controller::cpuset);
        // The name: this host's pid and its count of games, skipping any still there.
        while (true) {
            game->name_ = fmt::format("game-{}-{}", ::getpid(), next_game_++);
            if (!exists(base_.front() + "/" + game->name_))
                break;
        }
        game->dirs_.assign(base_.size(), "");
        for (std::size_t i = 0; i < base_.size(); ++i) {
            // Unpinned, a game needs no cpuset of its own (where cpuset is a hierarchy of its own:
            // in v2 the one directory holds every controller).
            if (i == cpuset && cpus == 0 && layout_.hierarchies[i].controllers.size() == 1)
                continue;
            const std::string dir = base_[i] + "/" + game->name_;
            if (::mkdir(dir.c_str(), 0755) != 0)
                return GameError{
                    fmt::format("cannot make the cgroup {}: {}", dir, std::strerror(errno))};
            game->dirs_[i] = dir;
            const Hierarchy& h = layout_.hierarchies[i];
            if (h.version == 2) {
                std::string tokens;
                for (const Controller c : {Controller::cpu, Controller::memory, Controller::pids})
                    if (h.has(c))
                        tokens += fmt::format("{}+{}", tokens.empty() ? "" : " ", to_string(c));
                if (const int error = write_text(dir + "/cgroup.subtree_control", tokens))
                    return GameError{fmt::format("cannot enable {} in {}: {}", tokens, dir,
                                                 std::strerror(error))};
            }
        }
        game->lock_fd_ = ::open(game->dirs_.front().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (game->lock_fd_ < 0 || ::flock(game->lock_fd_, LOCK_EX | LOCK_NB) != 0)
            return GameError{
                fmt::format("cannot lock {}: {}", game->dirs_.front(), std::strerror(errno))};
        if (cpus == 0)
            return game;
        // Cores of its own: those of the base that no other game holds.
        const Hierarchy& h = layout_.hierarchies[cpuset];
        std::vector<int> taken;
        for (const auto& name : subdirectories(base_[cpuset], "game-"))
            if (name != game->name_)
                for (int cpu :
                     parse_cpu_list(trimmed(read_text(base_[cpuset] + "/" + name + "/cpuset.cpus")))
                         .value_or(std::vector<int>{}))
                    taken.push_back(cpu);
        const std::vector<int> available = this->cpus();
        const auto chosen = choose_cpus(available, taken, cpus);
        if (!chosen) {
            std::sort(taken.begin(), taken.end());
            return GameError{
                fmt::format(
                    "no {} core{} free for a game of its own: of cores {}, other games hold {}",
                    cpus, cpus == 1 ? "" : "s", format_cpu_list(available),
                    taken.empty() ? std::string("none") : format_cpu_list(taken)),
                true};
        }
        const std::string& dir = game->dirs_[cpuset];
        if (const int error = write_text(dir + "/cpuset.cpus", format_cpu_list(*chosen)))
            return GameError{fmt::format("cannot pin {} to cores {}: {}", dir,
                                         format_cpu_list(*chosen), std::strerror(error))};
        if (h.version == 1) {
            const auto mems = trimmed(read_text(base_[cpuset] + "/cpuset.mems"));
            if (const int error = write_text(dir + "/cpuset.mems", mems))
                return GameError{
                    fmt::format("cannot set {}/cpuset.mems: {}", dir, std::strerror(error))};
        }
        game->cpus_ = *chosen;
        return game;
    });
}

std::string Machine::kind() const {
    bool v1 = false, v2 = false;
    for (const auto& h : layout_.hierarchies)
        (h.version == 1 ? v1 : v2) = true;
    return v1 && v2 ? "cgroup v1 and v2" : v2 ? "cgroup v2" : "cgroup v1";
}

Machine::~Machine() {
    if (mutex_fd_ < 0)
        return;
    if (presence_fd_ >= 0) {
        locked([this] {
            // The last host here (no other holds the base shared) removes it, if no game is in
            // it.
            if (::flock(presence_fd_, LOCK_EX | LOCK_NB) != 0)
                return;
            for (const auto& base : base_)
                if (!subdirectories(base, "game-").empty())
                    return;
            for (auto it = base_.rbegin(); it != base_.rend(); ++it)
                ::rmdir(it->c_str());
        });
        ::close(presence_fd_);
    }
    ::close(mutex_fd_);
}

}  // namespace bg::cgroups
