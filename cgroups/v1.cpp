// cgroup v1: a hierarchy a controller (or a few), whose cgroups hold their processes directly;
// an OOM kill is told through an eventfd registered on memory.oom_control; nothing says that a
// cgroup is empty (its processes' ends do).
#include <signal.h>
#include <sys/eventfd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "cgroups/version.hpp"

namespace bg::cgroups {

namespace {

class V1 final : public Version {
  public:
    int number() const override { return 1; }

    std::string games_parent(const Hierarchy& h) const override { return h.own; }
    std::string adopt(const Hierarchy&) const override { return ""; }

    // A v1 cpuset has no cores until given some: the base has its parent's.
    std::string prepare_base(const std::string& base, const Hierarchy& h) const override {
        if (!h.has(Controller::cpuset))
            return "";
        for (const char* what : {"cpus", "mems"})
            if (trimmed(read_text(base + "/cpuset." + what)).empty())
                (void)write_text(base + "/cpuset." + what,
                                 trimmed(read_text(h.own + "/cpuset.effective_" + what)));
        return "";
    }
    std::string prepare_game(const std::string&, const Hierarchy&) const override { return ""; }

    std::string pin(const std::string& dir, const std::string& cpus,
                    const std::string& base) const override {
        if (auto error = set_file(dir, "cpuset.cpus", cpus); !error.empty())
            return error;
        return set_file(dir, "cpuset.mems", trimmed(read_text(base + "/cpuset.mems")));
    }
    std::optional<std::string> effective_cpus(const std::string& dir) const override {
        return read_text(dir + "/cpuset.effective_cpus");
    }

    std::string limit_memory(const std::string& dir, std::uint64_t bytes) const override {
        const std::string value = std::to_string(bytes);
        if (auto error = set_file(dir, "memory.limit_in_bytes", value); !error.empty())
            return error;
        // Memory and swap together: the limit holds whatever the machine swaps.
        if (exists(dir + "/memory.memsw.limit_in_bytes"))
            return set_file(dir, "memory.memsw.limit_in_bytes", value);
        (void)write_text(dir + "/memory.swappiness", "0");
        return "";
    }
    std::string weigh_cpu(const std::string& dir) const override {
        return set_file(dir, "cpu.shares", "1024");
    }
    std::string share_cores(const std::string& dir, const std::string& game_dir,
                            const std::string& cpus) const override {
        if (auto error = set_file(dir, "cpuset.cpus", cpus); !error.empty())
            return error;
        return set_file(dir, "cpuset.mems", trimmed(read_text(game_dir + "/cpuset.mems")));
    }

    std::string watch_oom(const std::string& dir, std::vector<Watch>& watches) const override {
        Watch watch;
        watch.fd.reset(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
        watch.kept.reset(::open((dir + "/memory.oom_control").c_str(), O_RDONLY | O_CLOEXEC));
        if (!watch.fd || !watch.kept ||
            write_text(dir + "/cgroup.event_control",
                       fmt::format("{} {}", watch.fd.get(), watch.kept.get())) != 0)
            return fmt::format("cannot watch {}/memory.oom_control for the OOM killer: {}", dir,
                               std::strerror(errno));
        watches.push_back(std::move(watch));
        return "";
    }
    std::optional<std::string> watch_empty(const std::string&, std::vector<Watch>&) const override {
        return std::nullopt;
    }
    std::uint64_t oom_kills(const std::string& dir) const override {
        return key_value(read_text(dir + "/memory.oom_control"), "oom_kill").value_or(0);
    }
    std::optional<std::uint64_t> cpu_ns(const std::string& dir) const override {
        return number_in(dir + "/cpuacct.usage");
    }
    std::optional<std::uint64_t> memory_peak_bytes(const std::string& dir) const override {
        return number_in(dir + "/memory.max_usage_in_bytes");
    }
    const char* threads_file() const override { return "tasks"; }
    std::optional<std::uint64_t> cpu_pressure_ns(const std::string&) const override {
        return std::nullopt;
    }
    bool reset_memory_peak(const std::string& dir) const override {
        return write_text(dir + "/memory.max_usage_in_bytes", "0") == 0;
    }
    bool populated(const std::string& dir) const override { return !pids_in(dir).empty(); }
    void kill(const std::string& dir) const override {
        for (const int pid : pids_in(dir))
            ::kill(pid, SIGKILL);
    }
};

}  // namespace

const Version& version_1() {
    static const V1 v1;
    return v1;
}

}  // namespace bg::cgroups
