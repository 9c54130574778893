// arena worker's options, read (arena/worker.hpp).
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "arena/settings.hpp"
#include "arena/store.hpp"
#include "arena/worker.hpp"
#include "cli/options.hpp"

namespace bg::arena {

namespace po = boost::program_options;
namespace fs = std::filesystem;

po::options_description worker_options() {
    po::options_description o("worker");
    // clang-format off
    o.add_options()
        ("name", po::value<std::string>()->value_name("NAME"),
         "what the arena calls this worker (default: HOST-PID); one name a worker at a time")
        ("cores", po::value<std::string>()->value_name("LIST"),
         "the CPUs its players run on, as taskset takes them (0-3,6): a player a core, so its "
         "matches at once take at most as many players (default: the CPUs it may use)")
        ("logs", po::value<std::string>()->value_name("DIR"),
         "where its games' logs and players' stderr are kept as well as in the store (default: "
         "a folder of its own under the temporary folder)")
        ("cache", po::value<std::string>()->value_name("DIR"),
         "where the hosted bots' archives are unpacked, each once, by its SHA-256 (default: a "
         "folder of its own under the temporary folder)")
        ("dict", po::value<std::string>()->value_name("FILE"),
         "the word list, which must be the arena's: it claims only matches of its list "
         "(default: the built-in list)")
        ("lease", po::value<double>()->value_name("SEC")->default_value(30),
         "how long a claimed match is its own without a word from it (renewed every third of "
         "it): cut off longer, the arena voids the match")
        ("poll", po::value<double>()->value_name("SEC")->default_value(0.5),
         "how often it says it is there and looks for a match while it has cores free (on "
         "PostgreSQL a match queued wakes it at once as well)")
        ("stop-grace", po::value<double>()->value_name("SEC")->default_value(120),
         "after SIGTERM or SIGINT, how long the matches playing may take to finish before they "
         "end (void)");
    // clang-format on
    o.add(options::sandbox()).add(options::shares());
    return o;
}

namespace {

// The CPUs of `list` (0-3,6), this process's from now (its players' too); or why not.
std::optional<std::string> pin_to(const std::string& list) {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<std::string> parts(1);
    for (const char c : list)
        if (c == ',')
            parts.emplace_back();
        else
            parts.back().push_back(c);
    for (const std::string& part : parts) {
        const auto dash = part.find('-');
        try {
            const int first = std::stoi(part.substr(0, dash));
            const int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
            if (first < 0 || last < first || last >= CPU_SETSIZE)
                return fmt::format("--cores: '{}' is not a range of CPUs", part);
            for (int cpu = first; cpu <= last; ++cpu)
                CPU_SET(cpu, &set);
        } catch (const std::exception&) {
            return fmt::format("--cores: '{}' is not a CPU or a range of them (0-3,6)", part);
        }
    }
    if (::sched_setaffinity(0, sizeof set, &set) != 0)
        return fmt::format("--cores {}: this machine lets it run on none of them", list);
    return std::nullopt;
}

}  // namespace

std::string host_name() {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    return name;
}

WorkerSettings read_worker(const po::variables_map& vm) {
    WorkerSettings s;
    s.name = vm.count("name") ? vm["name"].as<std::string>()
                              : fmt::format("{}-{}", host_name(), ::getpid());
    if (s.name.empty() || s.name.size() > 64 || !one_line(s.name))
        throw po::error("--name: 1 to 64 characters, no control characters");
    if (vm.count("cores"))
        if (auto why = pin_to(vm["cores"].as<std::string>()))
            throw po::error(*why);
    s.cores = cpus_here();
    if (s.cores < 2)
        throw po::error(fmt::format(
            "a worker plays matches of two players at least, a core each: it may use {} CPU",
            s.cores));
    if (vm.count("dict"))
        s.dictionary = vm["dict"].as<std::string>();
    s.lease_ms = options::milliseconds(vm, "lease", false);
    if (s.lease_ms < 3'000)
        throw po::error("--lease: 3 seconds at least (it is renewed every third of it)");
    s.poll_ms = options::milliseconds(vm, "poll", false);
    if (s.poll_ms > s.lease_ms / 3)
        throw po::error("--poll: a third of --lease at most (its leases are renewed as it polls)");
    s.stop_grace_ms = options::milliseconds(vm, "stop-grace", true);
    s.players = read_players(vm);
    if (!s.players.sandbox)
        throw po::error(
            "a worker runs hosted bots' code in the player sandbox: it cannot go "
            "with --no-sandbox");
    if (!vm.count("logs") || !vm.count("cache")) {
        // A folder of its own, made now (mkdtemp: its own, never one found there), that its
        // players' sandbox may show them their files from (0755: no one else writes there).
        std::string name = s.name;
        for (char& c : name)
            c = std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
        std::string own =
            (fs::temp_directory_path() / ("bananagrams-worker-" + name + "-XXXXXX")).string();
        if (!::mkdtemp(own.data()) || ::chmod(own.c_str(), 0755) != 0)
            throw po::error(
                "a folder of its own cannot be made under the temporary folder: "
                "give --logs and --cache");
        s.logs = (fs::path(own) / "logs").string();
        s.cache = (fs::path(own) / "cache").string();
    }
    if (vm.count("logs"))
        s.logs = vm["logs"].as<std::string>();
    if (vm.count("cache"))
        s.cache = vm["cache"].as<std::string>();
    return s;
}

}  // namespace bg::arena
