// Whole-process benchmarks, each next to a baseline measured in the same run:
//   1. a peel's round trip through the host, against a relay that answers each peel with a tile
//      and does nothing else (two pipe hops);
//   2. games per second between two fast bots, against only spawning and reaping them;
//   3. the host's peak RSS in a game on the default word list;
//   4. the default word list's time to be ready from process start, against an empty start.
//
//   process_bench BUILD_DIR WORDLIST [--quick]
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

extern char** environ;

namespace {

double now_s() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

struct Child {
    pid_t pid = -1;
    int in = -1;   // its stdin, ours to write
    int out = -1;  // its stdout, ours to read
};

// sh -c COMMAND, with pipes when `piped`, else /dev/null for every stream.
Child spawn(const std::string& command, bool piped) {
    int to[2] = {-1, -1}, from[2] = {-1, -1};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (piped) {
        if (pipe2(to, O_CLOEXEC) != 0 || pipe2(from, O_CLOEXEC) != 0)
            std::exit(1);
        posix_spawn_file_actions_adddup2(&actions, to[0], 0);
        posix_spawn_file_actions_adddup2(&actions, from[1], 1);
    } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
    Child child;
    if (posix_spawn(&child.pid, "/bin/sh", &actions, nullptr, const_cast<char**>(argv), environ) !=
        0)
        std::exit(1);
    posix_spawn_file_actions_destroy(&actions);
    if (piped) {
        close(to[0]);
        close(from[1]);
        child.in = to[1];
        child.out = from[0];
    }
    return child;
}

rusage reap(pid_t pid) {
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    return usage;
}

std::vector<double> read_trips(const std::string& path) {
    std::vector<double> trips;
    std::ifstream in(path);
    for (double ns; in >> ns;)
        trips.push_back(ns / 1000.0);
    std::sort(trips.begin(), trips.end());
    return trips;
}

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty())
        return 0;
    return sorted[std::min(sorted.size() - 1,
                           static_cast<std::size_t>(p * static_cast<double>(sorted.size())))];
}

// The relay: reads each peel (its length from its grid's size) and answers one tile.
void relay(const std::string& bot_command) {
    Child bot = spawn(bot_command, true);
    char c;
    if (read(bot.out, &c, 1) != 1)  // r
        return;
    const std::string hand = "AAEEHRTTYINNOSSDLLCUM.";
    (void)!write(bot.in, hand.data(), hand.size());
    std::string buffer;
    for (;;) {
        char chunk[65536];
        const ssize_t n = read(bot.out, chunk, sizeof chunk);
        if (n <= 0)
            break;
        buffer.append(chunk, static_cast<std::size_t>(n));
        while (buffer.size() >= 7) {
            const std::size_t cells =
                static_cast<std::size_t>(std::atoi(buffer.substr(1, 3).c_str())) *
                static_cast<std::size_t>(std::atoi(buffer.substr(4, 3).c_str()));
            if (buffer.size() < 7 + cells)
                break;
            buffer.erase(0, 7 + cells);
            (void)!write(bot.in, "E.", 2);
        }
    }
    close(bot.in);
    close(bot.out);
    reap(bot.pid);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: process_bench BUILD_DIR WORDLIST [--quick]\n");
        return 2;
    }
    const std::string build = argv[1], words = argv[2];
    const bool quick = argc > 3 && std::string(argv[3]) == "--quick";
    const std::string host = build + "/host", bot = build + "/bench/peel_bot";
    const int peels = quick ? 50 : 2000;
    const int games = quick ? 2 : 60;
    const std::string trips_file = fmt::format("/tmp/bg-bench-{}.trips", getpid());

    // 1. Peel round trips: 50 a game (two players share 102 tiles: 51 peels), game after game,
    // so that grids stay the size of real ones. Host and relay take turns, so that noise hits
    // both alike.
    const std::string timed = fmt::format("exec {} time 50 {}", bot, trips_file);
    std::vector<double> host_trips, relay_trips;
    for (int round = 0; round < peels / 50; ++round) {
        Child h = spawn(fmt::format("exec {} -q --dict {} --seed {} --kill-grace 100 '{}' "
                                    "'printf r; exec sleep 600'",
                                    host, words, round + 1, timed),
                        false);
        reap(h.pid);
        for (double t : read_trips(trips_file))
            host_trips.push_back(t);
        relay(timed);
        for (double t : read_trips(trips_file))
            relay_trips.push_back(t);
    }
    std::remove(trips_file.c_str());
    std::sort(host_trips.begin(), host_trips.end());
    std::sort(relay_trips.begin(), relay_trips.end());

    // 2. Games per second, against spawning and reaping the same two bots.
    const std::string player = fmt::format("exec {} play", bot);
    double start = now_s();
    for (int g = 0; g < games; ++g)
        reap(spawn(fmt::format("exec {} -q --dict {} --seed {} --kill-grace 100 '{}' '{}'", host,
                               words, g + 1, player, player),
                   false)
                 .pid);
    const double game_rate = games / (now_s() - start);
    start = now_s();
    for (int g = 0; g < games; ++g) {
        const pid_t a = spawn(player, false).pid, b = spawn(player, false).pid;
        reap(a);
        reap(b);
    }
    const double spawn_rate = games / (now_s() - start);

    // 3. Peak RSS of the host in a game on the default word list.
    const rusage usage =
        reap(spawn(fmt::format("exec {} -q --seed 1 {}/reference_bot {}/reference_bot", host, build,
                               build),
                   false)
                 .pid);
    const double rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;

    // 4. The default word list, ready from process start: one lookup, against an empty run.
    const int starts = quick ? 5 : 200;
    double probe = 0, empty = 0;
    for (int i = 0; i < starts; ++i) {
        start = now_s();
        reap(spawn(fmt::format("exec {}/bench/dict_probe", build), false).pid);
        probe += now_s() - start;
        start = now_s();
        reap(spawn(fmt::format("exec {}/bench/dict_probe empty", build), false).pid);
        empty += now_s() - start;
    }

    fmt::print("{:<44} {:>12} {:>12} {:>8}\n", "measure", "host", "baseline", "ratio");
    const auto row = [](const char* what, double value, double baseline, const char* unit) {
        fmt::print("{:<44} {:>9.1f} {:<2} {:>9.1f} {:<2} {:>7.2f}x\n", what, value, unit, baseline,
                   unit, baseline > 0 ? value / baseline : 0);
    };
    fmt::print("peel round trip, {} peels (baseline: relay)\n", host_trips.size());
    row("  p50", percentile(host_trips, 0.50), percentile(relay_trips, 0.50), "us");
    row("  p99", percentile(host_trips, 0.99), percentile(relay_trips, 0.99), "us");
    row("games per second (baseline: spawn + reap)", game_rate, spawn_rate, "/s");
    fmt::print("{:<44} {:>9.1f} MB\n", "host peak RSS, default word list", rss_mb);
    row("word list ready from start (probe vs empty)", probe / starts * 1000, empty / starts * 1000,
        "ms");
    fmt::print("{:<44} {:>9.2f} ms\n", "  difference: time to the first lookup",
               (probe - empty) / starts * 1000);
    return 0;
}
