// cgroup v2: one unified hierarchy, whose cgroups give controllers to their children through
// cgroup.subtree_control, and only while they hold no process themselves; an OOM kill is told by
// memory.events, and emptiness by cgroup.events, both watched with inotify.
#include <signal.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include <fmt/format.h>

#include "cgroups/cpu_wait.hpp"
#include "cgroups/version.hpp"

namespace bg::cgroups {

namespace {

// The leaf the host's own cgroup's processes move to, so that its games may be its children (a
// v2 cgroup with processes of its own cannot give controllers to children).
constexpr const char* host_leaf = "host";

// "+cpu +memory ..." for the controllers of `h` a cgroup gives its children (cpuacct is no v2
// controller: every cgroup's cpu.stat counts CPU time).
std::string subtree_tokens(const std::vector<Controller>& controllers) {
    std::string tokens;
    for (const Controller c : controllers)
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

// A cgroup of a systemd unit may be managed by this process only when systemd delegated it: it
// says so in an extended attribute since systemd 251 (trusted.delegate, which only root may
// read; user.delegate too since 253), and gives a user's delegated cgroup to the user.
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

// Processes of its own keep a v2 cgroup from having controlled children: they move to a leaf
// beneath it. 0 or the errno of what failed, said in `why`.
int move_to_leaf(const std::string& own, std::string& why) {
    const std::string leaf = own + "/" + host_leaf;
    if (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) {
        why = fmt::format("cannot make {}: {}", leaf, std::strerror(errno));
        return errno;
    }
    for (int round = 0; round < 10; ++round) {
        const auto pids = pids_in(own);
        if (pids.empty())
            break;
        for (const int pid : pids)
            if (const int moved = write_text(leaf + "/cgroup.procs", std::to_string(pid));
                moved != 0 && moved != ESRCH) {
                why = fmt::format(
                    "cannot move process {} from {} to {}: {}: run the host in a cgroup it may "
                    "manage (systemd-run --scope -p Delegate=yes)",
                    pid, own, leaf, std::strerror(moved));
                return moved;
            }
    }
    return 0;
}

// Watches `path` with the inotify instance in `watches`, made if there is none yet.
std::string inotify_on(const std::string& path, std::vector<Watch>& watches) {
    auto instance = std::find_if(watches.begin(), watches.end(),
                                 [](const Watch& watch) { return watch.inotify; });
    if (instance == watches.end()) {
        Watch watch;
        watch.fd.reset(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
        watch.inotify = true;
        if (!watch.fd)
            return fmt::format("cannot watch {}: {}", path, std::strerror(errno));
        watches.push_back(std::move(watch));
        instance = watches.end() - 1;
    }
    if (::inotify_add_watch(instance->fd.get(), path.c_str(), IN_MODIFY) < 0)
        return fmt::format("cannot watch {}: {}", path, std::strerror(errno));
    return "";
}

class V2 final : public Version {
  public:
    int number() const override { return 2; }

    std::string games_parent(const Hierarchy& h) const override {
        const std::string leaf = std::string("/") + host_leaf;
        if (h.own.size() > leaf.size() &&
            h.own.compare(h.own.size() - leaf.size(), leaf.size(), leaf) == 0 &&
            subtree_has(parent_of(h.own), subtree_tokens(h.controllers)))
            return parent_of(h.own);
        return h.own;
    }

    std::string adopt(const Hierarchy& h) const override {
        const std::string tokens = subtree_tokens(h.controllers);
        if (subtree_has(h.own, tokens))
            return "";
        if (h.own != h.mount && !delegated(h.own))
            return fmt::format(
                "this process's cgroup {} belongs to systemd and was not delegated: run the host "
                "in a scope of its own, systemd-run --scope -p Delegate=yes (as a user: "
                "systemd-run --user --scope -p Delegate=yes)",
                h.own);
        int error = write_text(h.own + "/cgroup.subtree_control", tokens);
        if (error == EBUSY) {
            std::string why;
            if (move_to_leaf(h.own, why) != 0)
                return why;
            error = write_text(h.own + "/cgroup.subtree_control", tokens);
        }
        if (error != 0)
            return fmt::format(
                "cannot give the cgroup controllers {} to the games under {}: {}: run the host as "
                "root, or in a cgroup delegated to it (systemd-run --user --scope -p Delegate=yes)",
                tokens, h.own, std::strerror(error));
        return "";
    }

    std::string prepare_base(const std::string& base, const Hierarchy& h) const override {
        return set_file(base, "cgroup.subtree_control", subtree_tokens(h.controllers));
    }
    std::string prepare_game(const std::string& dir, const Hierarchy& h) const override {
        std::vector<Controller> limiting;
        for (const Controller c : {Controller::cpu, Controller::memory, Controller::pids})
            if (h.has(c))
                limiting.push_back(c);
        return set_file(dir, "cgroup.subtree_control", subtree_tokens(limiting));
    }

    std::string pin(const std::string& dir, const std::string& cpus,
                    const std::string&) const override {
        return set_file(dir, "cpuset.cpus", cpus);
    }
    std::optional<std::string> effective_cpus(const std::string& dir) const override {
        return read_text(dir + "/cpuset.cpus.effective");
    }

    std::string limit_memory(const std::string& dir, std::uint64_t bytes) const override {
        if (auto error = set_file(dir, "memory.max", std::to_string(bytes)); !error.empty())
            return error;
        if (exists(dir + "/memory.swap.max"))
            if (auto error = set_file(dir, "memory.swap.max", "0"); !error.empty())
                return error;
        // Over its limit, the whole player goes at once, not one process of it.
        if (exists(dir + "/memory.oom.group"))
            return set_file(dir, "memory.oom.group", "1");
        return "";
    }
    std::string weigh_cpu(const std::string& dir) const override {
        return set_file(dir, "cpu.weight", "100");
    }
    std::string share_cores(const std::string&, const std::string&,
                            const std::string&) const override {
        return "";  // a v2 cpuset's children have their parent's cores
    }

    std::string watch_oom(const std::string& dir, std::vector<Watch>& watches) const override {
        return inotify_on(dir + "/memory.events", watches);
    }
    std::optional<std::string> watch_empty(const std::string& dir,
                                           std::vector<Watch>& watches) const override {
        return inotify_on(dir + "/cgroup.events", watches);
    }
    std::uint64_t oom_kills(const std::string& dir) const override {
        const auto events = read_text(dir + "/memory.events");
        return std::max(key_value(events, "oom_kill").value_or(0),
                        key_value(events, "oom_group_kill").value_or(0));
    }
    std::optional<std::uint64_t> cpu_ns(const std::string& dir) const override {
        if (const auto usec = key_value(read_text(dir + "/cpu.stat"), "usage_usec"))
            return *usec * 1000;
        return std::nullopt;
    }
    std::optional<std::uint64_t> memory_peak_bytes(const std::string& dir) const override {
        return number_in(dir + "/memory.peak");
    }
    const char* threads_file() const override { return "cgroup.threads"; }
    std::optional<std::uint64_t> cpu_pressure_ns(const std::string& dir) const override {
        const auto text = read_text(dir + "/cpu.pressure");
        return text ? parse_pressure_some(*text) : std::nullopt;
    }
    bool reset_memory_peak(const std::string&) const override { return false; }
    bool populated(const std::string& dir) const override {
        const auto value = key_value(read_text(dir + "/cgroup.events"), "populated");
        return !value || *value != 0;
    }
    void kill(const std::string& dir) const override {
        if (write_text(dir + "/cgroup.kill", "1") == 0)
            return;
        for (const int pid : pids_in(dir))
            ::kill(pid, SIGKILL);
    }
};

}  // namespace

const Version& version_2() {
    static const V2 v2;
    return v2;
}

}  // namespace bg::cgroups
