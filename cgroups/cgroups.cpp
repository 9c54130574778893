#include "cgroups/cgroups.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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

// Kills what is in `dir` and waits (a second at most) until it is empty; false if it is not.
bool emptied(const std::string& dir, const Version& version) {
    for (int round = 0; round < 200; ++round) {
        if (!version.populated(dir))
            return true;
        version.kill(dir);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return !version.populated(dir);
}

// The CPUs a cpuset's file lists, none when it lists none or is not there.
std::vector<int> cpus_in(const std::optional<std::string>& text) {
    return parse_cpu_list(trimmed(text)).value_or(std::vector<int>{});
}

}  // namespace

// ---- PlayerCgroup ----------------------------------------------------------------------------

const std::string& PlayerCgroup::dir(Controller c) const {
    return dirs_[layout_->index_of(c)];
}

const Version& PlayerCgroup::version_of(Controller c) const {
    return version(layout_->of(c).version);
}

std::string PlayerCgroup::make(const GameCgroup& game, const std::string& name,
                               const PlayerLimits& limits) {
    layout_ = &game.machine_->layout();
    limits_ = limits;
    const auto& hierarchies = layout_->hierarchies;
    dirs_.assign(hierarchies.size(), "");
    for (std::size_t i = 0; i < hierarchies.size(); ++i) {
        if (game.dirs_[i].empty())
            continue;
        const std::string path = game.dirs_[i] + "/" + name;
        if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
            return fmt::format("cannot make the cgroup {}: {}", path, std::strerror(errno));
        dirs_[i] = path;
    }
    std::string error =
        version_of(Controller::memory).limit_memory(dir(Controller::memory), limits.memory_bytes);
    if (error.empty())
        error = set_file(dir(Controller::pids), "pids.max", std::to_string(limits.processes));
    if (error.empty())
        error = version_of(Controller::cpu).weigh_cpu(dir(Controller::cpu));
    const std::size_t cpuset = layout_->index_of(Controller::cpuset);
    if (error.empty() && cpuset < dirs_.size() && !dirs_[cpuset].empty())
        error = version_of(Controller::cpuset)
                    .share_cores(dirs_[cpuset], game.dirs_[cpuset], format_cpu_list(game.cpus_));
    if (error.empty())
        error = version_of(Controller::memory).watch_oom(dir(Controller::memory), watches_);
    if (error.empty())
        if (auto watched =
                version_of(Controller::pids).watch_empty(dir(Controller::pids), watches_)) {
            error = *watched;
            notifies_empty_ = error.empty();
        }
    for (const auto& path : dirs_) {
        if (!error.empty() || path.empty())
            continue;
        entry_.emplace_back(::open((path + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC));
        if (!entry_.back())
            error = fmt::format("cannot open {}/cgroup.procs: {}", path, std::strerror(errno));
    }
    return error;
}

std::vector<int> PlayerCgroup::entry() const {
    std::vector<int> fds;
    for (const auto& fd : entry_)
        fds.push_back(fd.get());
    return fds;
}

void PlayerCgroup::close_entry() {
    entry_.clear();
}

std::vector<int> PlayerCgroup::notify_fds() const {
    std::vector<int> fds;
    for (const auto& watch : watches_)
        fds.push_back(watch.fd.get());
    return fds;
}

void PlayerCgroup::drain() const {
    char buffer[4096];
    for (const auto& watch : watches_)
        while (::read(watch.fd.get(), buffer, sizeof buffer) > 0) {
        }
}

std::uint64_t PlayerCgroup::oom_kills() const {
    return dirs_.empty() ? 0 : version_of(Controller::memory).oom_kills(dir(Controller::memory));
}

bool PlayerCgroup::empty() const {
    return dirs_.empty() || !version_of(Controller::pids).populated(dir(Controller::pids));
}

void PlayerCgroup::kill() const {
    if (!dirs_.empty())
        version_of(Controller::pids).kill(dir(Controller::pids));
}

Usage PlayerCgroup::usage() const {
    if (dirs_.empty())
        return {};
    return Usage{version_of(Controller::cpuacct).cpu_ns(dir(Controller::cpuacct)),
                 version_of(Controller::memory).memory_peak_bytes(dir(Controller::memory))};
}

WaitSample PlayerCgroup::wait_sample(bool closing) const {
    WaitSample sample;
    if (dirs_.empty())
        return sample;
    const Version& cpu = version_of(Controller::cpu);
    sample.pressure_ns = cpu.cpu_pressure_ns(dir(Controller::cpu));
    if (sample.pressure_ns)
        return sample;
    const auto cpu_time = [this] {
        return version_of(Controller::cpuacct).cpu_ns(dir(Controller::cpuacct));
    };
    static const bool schedstat = exists("/proc/self/schedstat");
    sample.schedstat = schedstat;
    if (closing)
        sample.cpu_ns = cpu_time();
    const auto threads = read_text(dir(Controller::cpu) + "/" + cpu.threads_file());
    for (const int id : ids_in(threads.value_or("")))
        if (const auto text = read_text(fmt::format("/proc/{}/schedstat", id)))
            if (const auto times = parse_schedstat(*text))
                sample.tasks.emplace(id, *times);
    if (!closing)
        sample.cpu_ns = cpu_time();
    return sample;
}

bool PlayerCgroup::reset_memory_peak() const {
    return !dirs_.empty() &&
           version_of(Controller::memory).reset_memory_peak(dir(Controller::memory));
}

void PlayerCgroup::remove() {
    close_entry();
    watches_.clear();
    if (dirs_.empty())
        return;
    if (!dir(Controller::pids).empty())
        emptied(dir(Controller::pids), version_of(Controller::pids));
    for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it)
        if (!it->empty())
            ::rmdir(it->c_str());
    dirs_.clear();
}

PlayerCgroup::~PlayerCgroup() {
    remove();
}

// ---- GameCgroup ------------------------------------------------------------------------------

std::variant<std::unique_ptr<PlayerCgroup>, std::string> GameCgroup::player(
    int seat, const PlayerLimits& limits, int life) {
    std::unique_ptr<PlayerCgroup> player(new PlayerCgroup());
    const std::string name =
        life > 1 ? fmt::format("player-{}-{}", seat + 1, life) : fmt::format("player-{}", seat + 1);
    if (auto error = player->make(*this, name, limits); !error.empty())
        return error;
    return player;
}

std::string GameCgroup::make(int cpus) {
    const Layout& layout = machine_->layout_;
    const auto& base = machine_->base_;
    const std::size_t cpuset = layout.index_of(Controller::cpuset);
    dirs_.assign(base.size(), "");
    for (std::size_t i = 0; i < base.size(); ++i) {
        const Hierarchy& h = layout.hierarchies[i];
        // Unpinned, a game needs no cpuset of its own (where cpuset is a hierarchy of its own:
        // in v2 the one directory holds every controller).
        if (i == cpuset && cpus == 0 && h.controllers.size() == 1)
            continue;
        const std::string dir = base[i] + "/" + name_;
        if (::mkdir(dir.c_str(), 0755) != 0)
            return fmt::format("cannot make the cgroup {}: {}", dir, std::strerror(errno));
        dirs_[i] = dir;
        if (auto error = version(h.version).prepare_game(dir, h); !error.empty())
            return error;
    }
    lock_ = open_directory(dirs_.front());
    if (!lock_ || ::flock(lock_.get(), LOCK_EX | LOCK_NB) != 0)
        return fmt::format("cannot lock {}: {}", dirs_.front(), std::strerror(errno));
    return "";
}

std::string GameCgroup::pin(int count, bool& no_free_cores) {
    const Layout& layout = machine_->layout_;
    const std::size_t cpuset = layout.index_of(Controller::cpuset);
    std::vector<int> taken = machine_->pinned(name_);
    const std::vector<int> available = machine_->cpus();
    const auto chosen = choose_cpus(available, taken, count);
    if (!chosen) {
        no_free_cores = true;
        std::sort(taken.begin(), taken.end());
        return fmt::format(
            "no {} core{} free for a game of its own: of cores {}, other games hold {}", count,
            count == 1 ? "" : "s", format_cpu_list(available),
            taken.empty() ? std::string("none") : format_cpu_list(taken));
    }
    const std::string cpus = format_cpu_list(*chosen);
    if (auto error = version(layout.hierarchies[cpuset].version)
                         .pin(dirs_[cpuset], cpus, machine_->base_[cpuset]);
        !error.empty())
        return error;
    cpus_ = *chosen;
    return "";
}

GameCgroup::~GameCgroup() {
    bool gone = true;
    for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it)
        if (!it->empty() && ::rmdir(it->c_str()) != 0 && errno != ENOENT)
            gone = false;
    if (!gone && machine_)
        remove_game_tree(machine_->layout(), dirs_);
}

bool remove_game_tree(const Layout& layout, const std::vector<std::string>& dirs) {
    bool all = true;
    const std::size_t pids = layout.index_of(Controller::pids);
    // Every player's processes first: they are in the same cgroups in every hierarchy.
    if (pids < dirs.size() && !dirs[pids].empty())
        for (const auto& player : subdirectories(dirs[pids], "player-"))
            all = emptied(dirs[pids] + "/" + player, version(layout.hierarchies[pids].version)) &&
                  all;
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
    FileLock lock(mutex_.get(), LOCK_EX);
    return what();
}

std::variant<Layout, std::string> games_layout(bool pin) {
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
    if (auto* layout = std::get_if<Layout>(&found))
        for (auto& h : layout->hierarchies)
            h.own = version(h.version).games_parent(h);
    return found;
}

std::variant<std::unique_ptr<Machine>, std::string> Machine::open(bool pin) {
    auto found = games_layout(pin);
    if (auto* error = std::get_if<std::string>(&found))
        return *error;
    std::unique_ptr<Machine> machine(new Machine());
    machine->layout_ = std::move(std::get<Layout>(found));
    machine->pin_ = pin;
    if (machine->layout_.uses_v1() && ::geteuid() != 0)
        return fmt::format(
            "this machine's cgroups are v1 ({}), which only root may manage safely: run the host "
            "as root (the players then run as --sandbox-user)",
            machine->layout_.hierarchies.front().mount);
    if (auto error = machine->prepare(); !error.empty())
        return error;
    return machine;
}

// The base's parent is this process's cgroup in each hierarchy, made one whose children may be
// games'; then the base is made under it, under the machine-wide lock.
std::string Machine::prepare() {
    for (const auto& h : layout_.hierarchies)
        if (auto error = version(h.version).adopt(h); !error.empty())
            return error;
    for (const auto& h : layout_.hierarchies)
        base_.push_back(h.own + "/" + base_name);
    mutex_ = open_directory(layout_.hierarchies.front().own);
    if (!mutex_)
        return fmt::format("cannot open {}: {}", layout_.hierarchies.front().own,
                           std::strerror(errno));
    return locked([this] { return make_base(); });
}

std::string Machine::make_base() {
    for (std::size_t i = 0; i < base_.size(); ++i) {
        const Hierarchy& h = layout_.hierarchies[i];
        if (::mkdir(base_[i].c_str(), 0755) != 0 && errno != EEXIST)
            return fmt::format("cannot make the cgroup {}: {}", base_[i], std::strerror(errno));
        if (auto error = version(h.version).prepare_base(base_[i], h); !error.empty())
            return error;
    }
    presence_ = open_directory(base_.front());
    if (!presence_)
        return fmt::format("cannot open {}: {}", base_.front(), std::strerror(errno));
    ::flock(presence_.get(), LOCK_SH);
    sweep();
    return "";
}

void Machine::sweep() {
    std::set<std::string> names;
    for (const auto& base : base_)
        for (const auto& name : subdirectories(base, "game-"))
            names.insert(name);
    for (const auto& name : names) {
        // A game's host holds its directory locked while it lives: one that can be locked now
        // was left by a host that was killed.
        const UniqueFd held = open_directory(base_.front() + "/" + name);
        if (held && ::flock(held.get(), LOCK_EX | LOCK_NB) != 0)
            continue;
        std::vector<std::string> dirs;
        for (const auto& base : base_)
            dirs.push_back(base + "/" + name);
        if (remove_game_tree(layout_, dirs))
            ++swept_;
        else
            left_over_.push_back(base_.front() + "/" + name);
    }
}

std::vector<int> Machine::cpus() const {
    const std::size_t i = layout_.index_of(Controller::cpuset);
    std::vector<int> cpus;
    if (i < base_.size())
        cpus = cpus_in(version(layout_.hierarchies[i].version).effective_cpus(base_[i]));
    if (cpus.empty())
        cpus = cpus_in(read_text("/sys/devices/system/cpu/online"));
    return cpus;
}

std::vector<int> Machine::pinned(const std::string& except) const {
    const std::size_t i = layout_.index_of(Controller::cpuset);
    std::vector<int> taken;
    if (i >= base_.size())
        return taken;
    for (const auto& name : subdirectories(base_[i], "game-"))
        if (name != except)
            for (int cpu : cpus_in(read_text(base_[i] + "/" + name + "/cpuset.cpus")))
                taken.push_back(cpu);
    return taken;
}

int Machine::cpus_pinned_elsewhere() const {
    const auto taken = pinned("");
    return static_cast<int>(std::set<int>(taken.begin(), taken.end()).size());
}

std::variant<std::unique_ptr<GameCgroup>, Machine::GameError> Machine::game(int cpus) {
    if (cpus > 0 && !pin_)
        return GameError{"internal: a pinned game from a machine opened without cpuset"};
    return locked([&]() -> std::variant<std::unique_ptr<GameCgroup>, GameError> {
        std::unique_ptr<GameCgroup> game(new GameCgroup());
        game->machine_ = this;
        // The name: this host's pid and its count of games, skipping any still there.
        do
            game->name_ = fmt::format("game-{}-{}", ::getpid(), next_game_++);
        while (exists(base_.front() + "/" + game->name_));
        if (auto error = game->make(cpus); !error.empty())
            return GameError{error};
        bool no_free_cores = false;
        if (cpus > 0)
            if (auto error = game->pin(cpus, no_free_cores); !error.empty())
                return GameError{error, no_free_cores};
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
    if (!mutex_ || !presence_)
        return;
    locked([this] {
        // The last host here (no other holds the base shared) removes it, if no game is in it.
        if (::flock(presence_.get(), LOCK_EX | LOCK_NB) != 0)
            return;
        for (const auto& base : base_)
            if (!subdirectories(base, "game-").empty())
                return;
        for (auto it = base_.rbegin(); it != base_.rend(); ++it)
            ::rmdir(it->c_str());
    });
}

}  // namespace bg::cgroups
