// Whole-process benchmarks, each next to a baseline measured in the same run:
//   1. a peel's round trip through the host, against the relay program (bench/relay.cpp), which
//      answers each peel with a tile and does nothing else (two pipe hops), with the processes on
//      one CPU, on two, and wherever the scheduler puts them;
//   2. games per second between two fast bots, against only spawning and reaping them, and
//      against a relay game of the same bots;
//   3. the host's peak RSS in a game on the default word list;
//   4. the default word list's time to be ready from process start, against an empty start;
//   5. what the players' sandbox costs: a game's start and end, and a peel's round trip, against
//      the same with neither sandbox nor cgroups; and what the players' cgroups cost, against
//      the sandbox alone (--unfair-per-process-limits, the host before the cgroups).
//
// 1 to 3 run the host with --no-sandbox --unfair-per-process-limits, as the relay runs its bots:
// they measure the host.
//
//   process_bench BUILD_DIR WORDLIST [--quick]
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/spawn.hpp"

using bg::bench::reap_ok;
using bg::bench::spawn;

namespace {

double now_s() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// Seconds to spawn a command and see it end; it must exit with status 0.
double seconds_to_run(const std::string& command) {
    const double start = now_s();
    reap_ok(spawn(command, false).pid, command);
    return now_s() - start;
}

// Round trips in nanoseconds, one a line, in a file of its own or as a host passed a player's
// stderr on ("[player 1] N"); in microseconds, sorted.
std::vector<double> read_trips(const std::string& path) {
    std::vector<double> trips;
    std::ifstream in(path);
    const std::string prefix = "[player 1] ";
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(prefix, 0) == 0)
            line.erase(0, prefix.size());
        char* end = nullptr;
        const double ns = std::strtod(line.c_str(), &end);
        if (end != line.c_str() && *end == '\0')
            trips.push_back(ns / 1000.0);
    }
    std::sort(trips.begin(), trips.end());
    return trips;
}

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty())
        return 0;
    return sorted[std::min(sorted.size() - 1,
                           static_cast<std::size_t>(p * static_cast<double>(sorted.size())))];
}

// Where the round trips run: the host (or relay) on host_cpu and the bot on bot_cpu; -1 is
// wherever the scheduler puts it (the bot follows the host when only the host is pinned).
struct Placement {
    const char* name;
    int host_cpu;
    int bot_cpu;
    std::vector<double> host{}, relay{};
};

// The CPUs this process may run on, lowest first.
std::vector<int> usable_cpus() {
    std::vector<int> usable;
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0)
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &cpus))
                usable.push_back(cpu);
    return usable;
}

// Moves this process to `cpu` (none when -1): what it spawns from now on starts there too.
// Returns the CPUs it had.
cpu_set_t pin_self(int cpu) {
    cpu_set_t before;
    sched_getaffinity(0, sizeof before, &before);
    if (cpu >= 0)
        bg::bench::pin_to_cpu(cpu, "process_bench");
    return before;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: process_bench BUILD_DIR WORDLIST [--quick]\n");
        return 2;
    }
    const std::string build = argv[1], words = argv[2];
    const bool quick = argc > 3 && std::string(argv[3]) == "--quick";
    const std::string host = build + "/host", bot = build + "/bench/peel_bot",
                      relay = build + "/bench/relay";
    const int peels = quick ? 50 : 2000;
    const int games = quick ? 2 : 60;
    const std::string trips_file = fmt::format("/tmp/bg-bench-{}.trips", getpid());

    // 1. Peel round trips: 50 a game (two players share 102 tiles: 51 peels), game after game,
    // so that grids stay the size of real ones. Host and relay take turns, so that noise hits
    // both alike. A round trip is two wake-ups, and on this kind of machine waking a process on
    // an idle CPU costs far more than the work either side does: so where the processes run is
    // fixed, in turn, for both (one CPU for all; host or relay on one and the bot on another),
    // and then left to the scheduler, as in a real game.
    const std::vector<int> cpus = usable_cpus();
    std::vector<Placement> placements;
    if (!cpus.empty())
        placements.push_back({"one CPU", cpus[0], -1});
    if (cpus.size() >= 2)
        placements.push_back({"host and bot on two CPUs", cpus[0], cpus[1]});
    placements.push_back({"placed by the scheduler", -1, -1});
    for (Placement& place : placements) {
        const std::string timed =
            fmt::format("exec {} time 50 {}{}", bot, trips_file,
                        place.bot_cpu < 0 ? std::string() : fmt::format(" {}", place.bot_cpu));
        const cpu_set_t all = pin_self(place.host_cpu);
        // The round trips a command's bot timed: none if it failed before writing them.
        const auto timed_by = [&](const std::string& command, std::vector<double>& trips) {
            std::remove(trips_file.c_str());
            reap_ok(spawn(command, false).pid, command);
            for (double t : read_trips(trips_file))
                trips.push_back(t);
        };
        for (int round = 0; round < peels / 50; ++round) {
            timed_by(fmt::format("exec {} -q --no-sandbox --unfair-per-process-limits --dict {} "
                                 "--seed {} --kill-grace 100 "
                                 "'{}' 'printf r; exec sleep 600'",
                                 host, words, round + 1, timed),
                     place.host);
            timed_by(fmt::format("exec {} '{}'", relay, timed), place.relay);
        }
        sched_setaffinity(0, sizeof all, &all);
        std::sort(place.host.begin(), place.host.end());
        std::sort(place.relay.begin(), place.relay.end());
    }
    std::remove(trips_file.c_str());
    // Every timed peel must have come back, through both: else a figure would be made of none.
    for (const Placement& place : placements)
        if (place.host.size() != static_cast<std::size_t>(peels) ||
            place.relay.size() != static_cast<std::size_t>(peels)) {
            std::fprintf(stderr,
                         "process_bench: %s: %zu of %d round trips through the host, %zu through "
                         "the relay\n",
                         place.name, place.host.size(), peels, place.relay.size());
            return 1;
        }

    // 2. Games per second, against spawning and reaping the same two bots, and against a relay
    // game (the same bots, dealt and answered tile for tile with no rules): the least a game of
    // these bots could cost. The three take turns, so that noise hits all alike.
    const std::string player = fmt::format("exec {} play", bot);
    double host_time = 0, relay_time = 0, spawn_time = 0;
    for (int g = 0; g < games; ++g) {
        host_time += seconds_to_run(
            fmt::format("exec {} -q --no-sandbox --unfair-per-process-limits --dict {} --seed {} "
                        "--kill-grace 100 '{}' '{}'",
                        host, words, g + 1, player, player));
        relay_time += seconds_to_run(fmt::format("exec {} '{}' '{}'", relay, player, player));
        const double start = now_s();
        const pid_t a = spawn(player, false).pid, b = spawn(player, false).pid;
        reap_ok(a, player);
        reap_ok(b, player);
        spawn_time += now_s() - start;
    }
    const double game_rate = games / host_time, relay_rate = games / relay_time,
                 spawn_rate = games / spawn_time;

    // 3. Peak RSS of the host in a game on the default word list.
    const std::string reference_game = fmt::format(
        "exec {} -q --no-sandbox --unfair-per-process-limits --seed 1 {}/reference_bot "
        "{}/reference_bot",
        host, build, build);
    const rusage usage = reap_ok(spawn(reference_game, false).pid, reference_game);
    const double rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;

    // 4. The default word list, ready from process start: one lookup, against an empty run.
    const int starts = quick ? 5 : 200;
    double probe = 0, empty = 0;
    for (int i = 0; i < starts; ++i) {
        probe += seconds_to_run(fmt::format("exec {}/bench/dict_probe", build));
        empty += seconds_to_run(fmt::format("exec {}/bench/dict_probe empty", build));
    }

    // 5. The sandbox and the cgroups: a game that ends as soon as it is dealt (its start and
    // end), and round trips placed by the scheduler, in each mode in turn: both (the default),
    // the sandbox alone, neither.
    const int sandbox_games = quick ? 2 : 60;
    const std::vector<std::string> modes = {"", "--unfair-per-process-limits",
                                            "--no-sandbox --unfair-per-process-limits"};
    std::vector<double> game_time(modes.size());
    std::vector<std::vector<double>> trips(modes.size());
    const std::string quitter = "printf r; exec head -c 1 >/dev/null";
    for (int g = 0; g < sandbox_games; ++g)
        for (std::size_t m = 0; m < modes.size(); ++m)
            game_time[m] += seconds_to_run(
                fmt::format("exec {} -q {} --dict {} --seed {} --kill-grace 100 '{}' '{}'", host,
                            modes[m], words, g + 1, quitter, quitter));
    const std::string stderr_trips = fmt::format("/tmp/bg-bench-{}.stderr", getpid());
    for (int round = 0; round < peels / 50; ++round)
        for (std::size_t m = 0; m < modes.size(); ++m) {
            const std::string command = fmt::format(
                "exec {} -q {} --dict {} --seed {} --kill-grace 100 '{} time 50 -' "
                "'printf r; exec sleep 600' 2>{}",
                host, modes[m], words, round + 1, "exec " + bot, stderr_trips);
            reap_ok(spawn(command, false).pid, command);
            for (double t : read_trips(stderr_trips))
                trips[m].push_back(t);
        }
    std::remove(stderr_trips.c_str());
    for (std::size_t m = 0; m < modes.size(); ++m) {
        std::sort(trips[m].begin(), trips[m].end());
        if (trips[m].size() != static_cast<std::size_t>(peels)) {
            std::fprintf(stderr, "process_bench: '%s': %zu of %d round trips\n", modes[m].c_str(),
                         trips[m].size(), peels);
            return 1;
        }
    }

    fmt::print("{:<44} {:>12} {:>12} {:>8}\n", "measure", "host", "baseline", "ratio");
    const auto row = [](const char* what, double value, double baseline, const char* unit) {
        fmt::print("{:<44} {:>9.1f} {:<2} {:>9.1f} {:<2} {:>7.2f}x\n", what, value, unit, baseline,
                   unit, baseline > 0 ? value / baseline : 0);
    };
    for (const Placement& place : placements) {
        fmt::print("peel round trip, {}, {} peels (baseline: relay)\n", place.name,
                   place.host.size());
        row("  p50", percentile(place.host, 0.50), percentile(place.relay, 0.50), "us");
        row("  p99", percentile(place.host, 0.99), percentile(place.relay, 0.99), "us");
    }
    fmt::print("games per second, {} games\n", games);
    row("  baseline: spawn + reap", game_rate, spawn_rate, "/s");
    row("  baseline: relay game", game_rate, relay_rate, "/s");
    fmt::print("{:<44} {:>9.1f} MB\n", "host peak RSS, default word list", rss_mb);
    row("word list ready from start (probe vs empty)", probe / starts * 1000, empty / starts * 1000,
        "ms");
    fmt::print("{:<44} {:>9.2f} ms\n", "  difference: time to the first lookup",
               (probe - empty) / starts * 1000);
    // One mode against another.
    const auto compare = [&](const char* title, std::size_t mode, std::size_t baseline) {
        fmt::print("{}\n", title);
        row("  a game's start and end, two players", game_time[mode] / sandbox_games * 1000,
            game_time[baseline] / sandbox_games * 1000, "ms");
        row("  peel round trip p50, placed by the scheduler", percentile(trips[mode], 0.5),
            percentile(trips[baseline], 0.5), "us");
        row("  peel round trip p99, placed by the scheduler", percentile(trips[mode], 0.99),
            percentile(trips[baseline], 0.99), "us");
    };
    compare("the players' sandbox (baseline: no sandbox, no cgroups)", 1, 2);
    compare("the players' cgroups (baseline: the sandbox alone, as before the cgroups)", 0, 1);
    return 0;
}
