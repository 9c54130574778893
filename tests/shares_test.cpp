// End-to-end: players that take more than their share of the machine (tests/bots/hog.py)
// against the real host and its cgroups. Each attack is contained with the cgroups on, and each
// test shows the same attack succeeding with them off (--unfair-per-process-limits), so that it
// can fail. The CPU tests compare players' shares measured over the same time, never a share
// with a figure of its own: what a player gets of a core depends on what else runs on the
// machine (a build beside the tests, a virtual machine's emulated CPUs), but fair shares are
// equal whatever it is (1.0 where 0.7 is asked; 0.25 where 0.5 is refused).
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <variant>

#include "cgroups/cgroups.hpp"
#include "tests/support/game.hpp"

using namespace bg::test;
using nlohmann::json;

namespace {

// Debian's python3 itself: a version manager's shim in PATH (a shell script that looks for the
// interpreter) would make its processes slow to start and count them twice.
std::string hog(const std::string& args) {
    return "exec /usr/bin/python3 " BG_TESTS_DIR "/bots/hog.py " + args;
}

// A hog one process below the player's own: the shell the host starts dies with the host (its
// parent-death signal), but the hog, its child, outlives a host killed with SIGKILL, as any
// process a player starts may; only its cgroup holds it then.
std::string hog_below(const std::string& args) {
    return "/usr/bin/python3 " BG_TESTS_DIR "/bots/hog.py " + args + "; true";
}

std::vector<std::string> hog_lines(const Run& run, int player, const std::string& what) {
    return player_lines(run, player, "hog: " + what + ": ");
}

// Player `player`'s share of a core, as it measured it ("hog: share: X").
double share(const Run& run, int player) {
    const auto lines = hog_lines(run, player, "share");
    INFO("stderr: " << run.err);
    REQUIRE(lines.size() == 1);
    return std::stod(lines.front());
}

// Where the hosts these tests start put their games: the cgroup in each hierarchy under which
// a host started from this process makes its base (this process's own, or on v2 the parent of
// the leaf an earlier host moved it to), as the hosts find it. Another session's or run's host
// keeps its games under its own cgroups (here each shell has a memory cgroup of its own), and
// they are not these tests' to judge.
std::vector<std::string> own_cgroups() {
    auto found = bg::cgroups::games_layout(false);
    const auto* layout = std::get_if<bg::cgroups::Layout>(&found);
    REQUIRE(layout);
    std::vector<std::string> own;
    for (const auto& h : layout->hierarchies)
        own.push_back(h.own);
    return own;
}

// The cgroup directories whose name starts with `prefix`, under own_cgroups() (v1: one a
// hierarchy a controller; v2: one).
std::vector<std::string> cgroups_named(const std::string& prefix) {
    std::vector<std::string> found;
    std::vector<std::pair<std::string, int>> todo;
    for (const auto& own : own_cgroups())
        todo.emplace_back(own, 0);
    while (!todo.empty()) {
        const auto [dir, depth] = todo.back();
        todo.pop_back();
        DIR* d = opendir(dir.c_str());
        if (!d)
            continue;
        while (const dirent* entry = readdir(d)) {
            const std::string name = entry->d_name;
            if (entry->d_type != DT_DIR || name == "." || name == "..")
                continue;
            if (name.rfind(prefix, 0) == 0)
                found.push_back(dir + "/" + name);
            if (depth < 3)  // base, game, player
                todo.emplace_back(dir + "/" + name, depth + 1);
        }
        closedir(d);
    }
    return found;
}

// How long a host or a tournament here may take before the test gives up on it: a safety net
// for a hang, never a measure. Generous, for the virtual machine's emulated CPUs (about ten
// times slower than these) on a machine busy with something else.
constexpr double patient = 600;

// A game's cgroups are named after its host's pid.
std::vector<std::string> games_of(int host_pid) {
    return cgroups_named(fmt::format("game-{}-", host_pid));
}

// Whether `pid` is a running host or tournament (as built, or as installed), whoever started it.
bool is_host(const std::string& pid) {
    std::string name = read_file("/proc/" + pid + "/comm");
    while (!name.empty() && name.back() == '\n')
        name.pop_back();
    return name == "host" || name == "tournament" || name.rfind("bananagrams-", 0) == 0;
}

// The games' cgroups left behind: those whose host (game-PID-N) has gone. A host that runs
// beside the tests (another checkout's, an organiser's) keeps its own, and they are not these
// tests' to judge.
std::vector<std::string> left_behind() {
    std::vector<std::string> left;
    for (const auto& dir : cgroups_named("game-")) {
        const std::string name = dir.substr(dir.rfind('/') + 1);
        const std::string pid = name.substr(5, name.find('-', 5) - 5);
        if (!is_host(pid))
            left.push_back(dir);
    }
    return left;
}

// Checks that `dirs` is empty, saying which are there if not.
#define CHECK_NOTHING_LEFT(dirs)                                   \
    do {                                                           \
        const std::vector<std::string> left = (dirs);              \
        INFO("left: " << fmt::format("{}", fmt::join(left, " "))); \
        CHECK(left.empty());                                       \
    } while (false)

// Whether any host runs on the machine: the last one to leave removes the shared base.
bool hosts_running() {
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string pid = entry.path().filename();
        if (std::all_of(pid.begin(), pid.end(), ::isdigit) && is_host(pid))
            return true;
    }
    return false;
}

std::vector<std::string> host_command(const std::vector<std::string>& options,
                                      const std::vector<std::string>& players) {
    std::vector<std::string> argv = {host,     "--json",    "--seed",          "7",
                                     "--dict", two_letters, "--ready-timeout", "30"};
    argv.insert(argv.end(), options.begin(), options.end());
    if (std::find(options.begin(), options.end(), "--kill-grace") == options.end())
        argv.insert(argv.end(), {"--kill-grace", "300"});
    argv.insert(argv.end(), players.begin(), players.end());
    return argv;
}

json result_of(const Run& run) {
    INFO("stderr: " << run.err);
    const json result = json::parse(run.out, nullptr, false);
    REQUIRE_FALSE(result.is_discarded());
    return result;
}

const std::string unfair = "--unfair-per-process-limits";

// A game as play() plays it, with time for slow starts (a virtual machine's): these tests are
// not about readiness.
Game play_slow(const std::vector<std::string>& players, std::vector<std::string> options) {
    options.insert(options.end(), {"--ready-timeout", "30"});
    return play(players, options);
}

}  // namespace

// A stretch of time that hogs spinning --between GO STOP all measure: the test makes GO once
// every game is dealt and every hog's processes spin, STOP 3 s later, and lets the hogs leave
// (STOP.leave) once all have reported (the first to leave could otherwise end its game before the
// others had said what they measured).
class Window {
  public:
    explicit Window(const std::string& name)
        : go_(scratch(name + ".go")), stop_(scratch(name + ".stop")) {
        clean();
    }
    ~Window() { clean(); }
    // A hog's arguments for it.
    std::string between() const { return " --between " + go_ + " " + stop_; }
    // Plays the hosts (each with its own --log: the test waits for each to be dealt) until
    // `reporters` hog processes have reported; their runs.
    std::vector<Run> measure(const std::vector<std::vector<std::string>>& hosts, int reporters) {
        std::vector<std::string> logs;
        std::vector<Background> started;
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            logs.push_back(fmt::format("{}-{}.log", go_, i));
            std::remove(logs.back().c_str());
            std::vector<std::string> argv = hosts[i];
            argv.insert(argv.begin() + 1, {"--log", logs.back()});
            started.push_back(start(argv));
        }
        const auto dealt = [&] {
            return std::all_of(logs.begin(), logs.end(), [](const std::string& log) {
                return read_file(log).find("hands_dealt") != std::string::npos;
            });
        };
        for (int i = 0; i < 30000 && !dealt(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        // Time for the hogs' children to start: then every process spins.
        std::this_thread::sleep_for(std::chrono::seconds(1));
        std::ofstream{go_};
        std::this_thread::sleep_for(std::chrono::seconds(3));
        std::ofstream{stop_};
        for (int i = 0; i < 30000 && reported() < reporters; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        CHECK(reported() == reporters);
        std::ofstream{stop_ + ".leave"};
        std::vector<Run> runs;
        for (auto& host : started)
            runs.push_back(host.wait(patient));
        for (const auto& log : logs)
            std::remove(log.c_str());
        clean();
        return runs;
    }

  private:
    int reported() const { return static_cast<int>(processes_tagged(stop_ + ".reported").size()); }
    void clean() const {
        for (const auto& file : {go_, stop_, stop_ + ".leave"})
            std::remove(file.c_str());
    }

    std::string go_, stop_;
};

TEST_CASE("shares: four spinners in sessions of their own get what the opponent's one gets",
          "[e2e][shares]") {
    // Player 1 spins one process; player 2 starts 4 spinning children, each in a session (an
    // autogroup) of its own. Fair: the two get the same, whatever else runs on the machine (one
    // core each on two idle cores, less beside a build).
    const auto measure = [](const std::vector<std::string>& options, const std::string& name) {
        Window window(name);
        std::vector<std::string> argv = host_command(
            options,
            {hog("spin" + window.between()), hog("spinners 4" + window.between() + " --setsid")});
        const auto from = std::chrono::steady_clock::now();
        Game game{window.measure({argv}, 2).front(), {}};
        const double wall_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - from)
                .count();
        CHECK(game.run.status == 0);
        game.result = result_of(game.run);
        return std::pair{game, wall_ms};
    };
    const auto [fair, wall_ms] = measure({}, "spinners");
    CHECK(share(fair.run, 0) >= 0.7 * share(fair.run, 1));
    // Its CPU time, as its cgroup counted it: at least what it measured of itself (over 3 s),
    // at most its one process's whole life.
    const double cpu_ms = fair.result["players"][0]["cpu_ms"].get<double>();
    CHECK(cpu_ms >= share(fair.run, 0) * 3000 * 0.9);
    CHECK(cpu_ms <= wall_ms);

    // Without the cgroups each of the five sessions weighs the same: the opponent gets a quarter
    // of what the four get.
    const auto [open, open_wall_ms] = measure({unfair}, "spinners-open");
    CHECK(share(open.run, 0) < 0.5 * share(open.run, 1));
    CHECK(open.result["players"][0]["cpu_ms"].is_null());
}

TEST_CASE("shares: a game beside a hog game in another host gets as much as the hog",
          "[e2e][shares]") {
    // Host A: a hog of 4 spinners in sessions of their own against a spinner; host B beside it:
    // two spinners, all measuring the same 3 s. Fair: each game gets the same, and each player
    // half its game's: each of B's players gets what A's hog gets, whatever else runs on the
    // machine.
    const auto measure = [](const std::vector<std::string>& options, const std::string& name) {
        Window window(name);
        const std::string spin = hog("spin" + window.between());
        const auto runs = window.measure(
            {host_command(options, {hog("spinners 4" + window.between() + " --setsid"), spin}),
             host_command(options, {spin, spin})},
            4);
        CHECK(runs[0].status == 0);
        CHECK(runs[1].status == 0);
        return std::tuple{share(runs[0], 0), share(runs[1], 0), share(runs[1], 1)};
    };
    const auto [hog_share, first, second] = measure({}, "beside");
    CHECK(first >= 0.7 * hog_share);
    CHECK(second >= 0.7 * hog_share);
    // Without them, the seven sessions weigh the same: the hog gets four times what each of B's
    // players gets.
    const auto [hog_open, first_open, second_open] = measure({unfair}, "beside-open");
    CHECK(std::max(first_open, second_open) < 0.5 * hog_open);
}

TEST_CASE("shares: memory is bounded over all of a player's processes, and going over puts it out",
          "[e2e][shares]") {
    // Six children of 160 MiB under --memory 256, against two honest players who begin to play
    // only once the hog is out (a file the test makes when the log says so): the order is the
    // test's, not the machine's speed's.
    const auto game = [](const std::vector<std::string>& options, const std::string& name) {
        const std::string log = scratch(name + ".log"), go = scratch(name + ".go");
        std::remove(go.c_str());
        std::vector<std::string> all = {"--memory", "256", "--game-timeout", "60", "--log", log};
        all.insert(all.end(), options.begin(), options.end());
        auto host = start(host_command(
            all, {hog("memory 6 160"), hog("play-after " + go), hog("play-after " + go)}));
        bool out = false;
        for (int i = 0; i < 12000 && !out; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            out = read_file(log).find(R"("player":0,"reason")") != std::string::npos;
        }
        CHECK(out);
        std::ofstream{go};
        Game played{host.wait(patient), {}};
        played.result = result_of(played.run);
        std::remove(go.c_str());
        return std::pair{played, log};
    };
    const auto [fair, log] = game({}, "memory");
    CHECK(fair.run.status == 0);
    CHECK(reason(fair.result, 0) == "used more than 256 MiB of memory (its processes together)");
    CHECK(hog_lines(fair.run, 0, "touched").size() < 6);
    // The others played on, to the end.
    CHECK(fair.result["end"] == "bananas");
    for (int p : {1, 2})
        CHECK(fair.result["players"][p]["outcome"] != "disqualified");
    // Its peak is its limit, which it reached; the others' their own.
    const auto peak = fair.result["players"][0]["memory_peak_bytes"].get<std::uint64_t>();
    CHECK(peak <= 256ULL << 20);
    CHECK(peak >= 200ULL << 20);
    CHECK(fair.result["players"][1]["memory_peak_bytes"].get<std::uint64_t>() < 64ULL << 20);
    // The log holds what each used, and replays to the same result.
    const auto records = log_records(log);
    int usage_records = 0;
    for (const auto& r : records)
        usage_records += r.contains("usage");
    CHECK(usage_records == 3);
    CHECK(records.back().contains("result"));
    const Run replay = run({host, "--replay", log, "--json"}, patient);
    CHECK(replay.status == 0);
    CHECK(json::parse(replay.out, nullptr, false) == fair.result);
    std::remove(log.c_str());

    // Per process, each child stays under 256 MiB: all six hold their 160 MiB, 960 MiB in all,
    // and the hog leaves by itself.
    const auto [open, open_log] = game({unfair}, "memory-open");
    CHECK(open.run.status == 0);
    CHECK(hog_lines(open.run, 0, "touched").size() == 6);
    CHECK(reason(open.result, 0) == "exited with status 0");
    CHECK(open.result["end"] == "bananas");
    std::remove(open_log.c_str());
}

TEST_CASE("shares: a fork and thread bomb stops at --max-processes, counted over the player",
          "[e2e][shares]") {
    const std::string tag = scratch("bomb");
    const auto bomb = [&](const std::vector<std::string>& options) {
        // The bomb leaves once it has counted: its game then ends (its time limit is a safety).
        std::vector<std::string> all = {"--max-processes", "40", "--game-timeout", "60"};
        all.insert(all.end(), options.begin(), options.end());
        const Game game = play_slow({hog("bomb 200 " + tag), hog("sleep 0")}, all);
        CHECK(game.run.status == 0);
        const auto lines = hog_lines(game.run, 0, "tasks");
        INFO("stderr: " << game.run.err);
        REQUIRE(lines.size() == 1);
        CHECK(processes_tagged(tag).empty());
        return std::stoi(lines.front());
    };
    // Its processes and threads together: the bot's, and its sandbox's and shell's around it.
    const int sandboxed = bomb({});
    CHECK(sandboxed <= 40);
    CHECK(sandboxed >= 34);
    const int unsandboxed = bomb({"--no-sandbox"});
    CHECK(unsandboxed <= 40);
    CHECK(unsandboxed >= 34);
    // Unsandboxed without cgroups (here as root), nothing stops it: it reaches its own cap.
    CHECK(bomb({"--no-sandbox", unfair}) == 200);
}

TEST_CASE("shares: --cpus-per-game gives each game cores of its own, which its bot cannot widen",
          "[e2e][shares]") {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    REQUIRE(cores >= 2);
    const auto cpus_of = [](const Run& run, const std::string& what) {
        const auto lines = hog_lines(run, 0, what);
        INFO("stderr: " << run.err);
        REQUIRE(lines.size() == 1);
        return lines.front();
    };
    // The bot leaves once it has reported, and its game ends (its time limit is a safety).
    const Game pinned = play_slow({hog("affinity"), hog("sleep 0")},
                                  {"--cpus-per-game", "1", "--game-timeout", "60"});
    CHECK(pinned.run.status == 0);
    const std::string core = cpus_of(pinned.run, "cpus");
    CHECK(core.find(',') == std::string::npos);
    CHECK(cpus_of(pinned.run, "widened") == core);

    // Two hosts at once hold different cores; a third, while they play on a 2-core machine,
    // finds none free and says so. Their games go on until the test lets their honest players
    // play (a file it makes), after the third host.
    const std::string tag = scratch("pinned"), go = scratch("pinned.go");
    std::remove(go.c_str());
    const std::vector<std::string> options = {"--cpus-per-game", std::to_string(cores / 2),
                                              "--game-timeout", "60"};
    const std::vector<std::string> players = {hog("affinity"), hog("play-after " + go + " " + tag),
                                              hog("play-after " + go + " " + tag)};
    auto a = start(host_command(options, players));
    auto b = start(host_command(options, players));
    for (int i = 0; i < 12000 && processes_tagged(tag).size() != 4; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(processes_tagged(tag).size() == 4);
    const Run third = run(host_command(options, {hog("sleep 0"), hog("sleep 0")}), patient);
    CHECK(third.status == 5);
    CHECK(third.err.find("free for a game of its own") != std::string::npos);
    std::ofstream{go};
    const Run run_a = a.wait(patient), run_b = b.wait(patient);
    std::remove(go.c_str());
    CHECK(run_a.status == 0);
    CHECK(run_b.status == 0);
    CHECK(result_of(run_a)["end"] == "bananas");
    const auto set_a = cpus_of(run_a, "cpus"), set_b = cpus_of(run_b, "cpus");
    std::set<std::string> all_cores;
    for (const auto& set : {set_a, set_b}) {
        std::size_t at = 0;
        while (at <= set.size()) {
            const auto comma = set.find(',', at);
            CHECK(all_cores.insert(set.substr(at, comma - at)).second);  // no core twice
            at = comma == std::string::npos ? set.size() + 1 : comma + 1;
        }
    }
    CHECK(static_cast<int>(all_cores.size()) == cores / 2 * 2);

    // Unpinned, the same bot takes every core.
    const Game open = play_slow({hog("affinity"), hog("sleep 0")}, {"--game-timeout", "60"});
    CHECK(cpus_of(open.run, "widened").find(',') != std::string::npos);
}

TEST_CASE("shares: a killed host's cgroups and processes are removed by the next host to start",
          "[e2e][shares]") {
    const std::string tag = scratch("orphan");
    for (const bool sandboxed : {false, true}) {
        // Unsandboxed, a player's child outlives a host killed with SIGKILL; its cgroup holds
        // it. The host is killed once it has dealt (both players ready, and holding their hands).
        const std::string log = scratch("orphan.log");
        std::vector<std::string> options = {"--game-timeout", "60", "--log", log};
        if (!sandboxed)
            options.push_back("--no-sandbox");
        auto killed = start(
            host_command(options, {hog_below("sleep 0 " + tag), hog_below("sleep 0 " + tag)}));
        for (int i = 0; i < 12000 && read_file(log).find("hands_dealt") == std::string::npos; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        REQUIRE(read_file(log).find("hands_dealt") != std::string::npos);
        ::kill(killed.pid, SIGKILL);
        killed.wait();
        CHECK_FALSE(games_of(killed.pid).empty());
        if (!sandboxed)
            CHECK(processes_tagged(tag).size() == 2);

        const Run next = run(host_command({}, {hog("sleep 0"), "exit 0"}), patient);
        CHECK(next.status == 0);
        CHECK(next.err.find("removed the cgroups of 1 game left by a host that was killed") !=
              std::string::npos);
        CHECK(games_of(killed.pid).empty());
        CHECK(processes_tagged(tag).empty());
        std::remove(log.c_str());
    }
}

TEST_CASE("shares: a sandboxed game whose players leave at once ends without the kill grace",
          "[e2e][shares]") {
    // Both players exit as they start: the host used to kill what was left of each sandbox and
    // then wait out the whole grace. With a grace of a minute, a wait would show.
    for (int i = 0; i < 5; ++i) {
        const auto from = std::chrono::steady_clock::now();
        const Run game =
            run(host_command({"--kill-grace", "60000"}, {"exit 0", "exit 0"}), patient);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
        CHECK(game.status == 0);
        CHECK(result_of(game)["end"] == "everyone_out");
        CHECK(seconds < 20);
    }
    // Each game's cgroups went with it, and the base with the last host (unless another runs
    // beside these tests).
    CHECK_NOTHING_LEFT(left_behind());
    if (!hosts_running())
        CHECK_NOTHING_LEFT(cgroups_named("bananagrams"));
}

TEST_CASE("shares: where no cgroup can be had, the host refuses to start unless told to",
          "[e2e][shares]") {
    // This machine's cgroups are v1, which only root may manage: as nobody, none can be had.
    // (On a v2 machine, nobody has no delegated cgroup either.)
    const std::vector<std::string> as_nobody = {"/usr/bin/setpriv", "--reuid=nobody",
                                                "--regid=nogroup", "--clear-groups"};
    std::vector<std::string> argv = as_nobody;
    const auto command = host_command({"--no-sandbox"}, {"exit 0", "exit 0"});
    argv.insert(argv.end(), command.begin(), command.end());
    const Run refused = run(argv, patient);
    CHECK(refused.status == 5);
    CHECK(refused.err.find("cgroups cannot be had here") != std::string::npos);
    CHECK(refused.err.find("--unfair-per-process-limits") != std::string::npos);
    CHECK(refused.out.empty());

    argv.insert(argv.end() - 2, unfair);
    const Run accepted = run(argv, patient);
    CHECK(accepted.status == 0);
    CHECK(result_of(accepted)["end"] == "everyone_out");
}

TEST_CASE("shares: a tournament pins each game to cores of its own, as many games as cores allow",
          "[e2e][shares]") {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    const std::string db = scratch("pinned.db"), logs = scratch("pinned.logs");
    const Run r = run({BG_TOURNAMENT_PATH,
                       "run",
                       "--db",
                       db,
                       "--dict",
                       two_letters,
                       "--game-timeout",
                       "0.5",
                       "--bot",
                       "a=" + hog("affinity"),
                       "--bot",
                       "b=" + hog("sleep 0"),
                       "--deals",
                       "3",
                       "--concurrency",
                       "16",
                       "--cpus-per-game",
                       "1",
                       "--logs",
                       logs},
                      patient);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.err.find(fmt::format("--cpus-per-game 1: {} games at once", cores)) !=
          std::string::npos);
    // Each game's log names the one core its players had (beside it, the players' stderr).
    for (const auto& entry : std::filesystem::directory_iterator(logs)) {
        if (entry.path().extension() != ".jsonl")
            continue;
        const auto records = log_records(entry.path().string());
        CHECK(records.front()["start"]["shares"]["cpus"].size() == 1);
    }
    for (const char* suffix : {"", "-wal", "-shm"})
        std::remove((db + suffix).c_str());
    std::filesystem::remove_all(logs);
}

TEST_CASE("shares: a tournament killed mid-run leaves cgroups that its resume removes",
          "[e2e][shares]") {
    // Its players play only once the test makes a file: the run is killed in the middle of its
    // games, and the resume's games go to their end.
    const std::string db = scratch("killed.db"), tag = scratch("killed"), go = scratch("killed.go");
    std::remove(go.c_str());
    const std::string player = hog_below("play-after " + go + " " + tag);
    const std::string logs = scratch("killed.logs");
    auto runner =
        start({BG_TOURNAMENT_PATH, "run", "--db", db, "--dict", two_letters, "--ready-timeout",
               "30", "--game-timeout", "60", "--no-sandbox", "--concurrency", "2", "--logs", logs,
               "--bot", "a=" + player, "--bot", "b=" + player});
    // Killed once both games (two at once) have dealt: every player is ready, holding its hand.
    const auto dealt = [&] {
        int games = 0;
        for (int id : {1, 2})
            games += read_file(fmt::format("{}/game-{:06}.jsonl", logs, id)).find("hands_dealt") !=
                     std::string::npos;
        return games;
    };
    for (int i = 0; i < 12000 && dealt() < 2; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(dealt() == 2);
    REQUIRE(processes_tagged(tag).size() == 4);  // two games, two players each
    ::kill(runner.pid, SIGKILL);
    runner.wait();
    CHECK(games_of(runner.pid).size() >= 2);
    CHECK(processes_tagged(tag).size() == 4);  // unsandboxed, the players' children outlive it

    // The resume starts by removing what the killed run left, then plays the two games again.
    std::ofstream{go};
    const Run resumed = run({BG_TOURNAMENT_PATH, "resume", "--db", db}, patient);
    std::remove(go.c_str());
    CHECK(resumed.status == 0);
    CHECK(resumed.err.find("removed the cgroups of 2 games left by a host that was killed") !=
          std::string::npos);
    CHECK(games_of(runner.pid).empty());
    // Its own games ran to their end; none of them is left either.
    CHECK(processes_tagged(tag).empty());
    CHECK_NOTHING_LEFT(left_behind());
    for (const char* suffix : {"", "-wal", "-shm"})
        std::remove((db + suffix).c_str());
    std::filesystem::remove_all(logs);
}

namespace {

// A CPU hog outside the host: two spinning processes a core, in this test's own cgroup (beside
// the hosts' games, never in them), for as long as it lives.
class OutsideHog {
  public:
    OutsideHog() {
        const int count = 2 * static_cast<int>(std::thread::hardware_concurrency());
        for (int i = 0; i < count; ++i) {
            const pid_t pid = ::fork();
            if (pid == 0) {
                ::execl("/bin/sh", "sh", "-c", "while :; do :; done", static_cast<char*>(nullptr));
                ::_exit(127);
            }
            REQUIRE(pid > 0);
            pids_.push_back(pid);
        }
    }
    OutsideHog(const OutsideHog&) = delete;
    OutsideHog& operator=(const OutsideHog&) = delete;
    ~OutsideHog() {
        for (const pid_t pid : pids_)
            ::kill(pid, SIGKILL);
        for (const pid_t pid : pids_)
            ::waitpid(pid, nullptr, 0);
    }

  private:
    std::vector<pid_t> pids_;
};

// Each player spins for a second once it has its hand, and the game ends at its 2 s clock: a
// race of 2 s in which each wants a core for half of it.
const std::vector<std::string> race_options = {"--game-timeout", "2"};
std::vector<std::string> race_players() {
    return {hog("spin 1"), hog("spin 1")};
}

// The longest wait for a CPU of a game's players, as a share of its race.
double longest_wait_share(const json& result) {
    double longest = 0;
    for (const auto& player : result["players"]) {
        INFO(player.dump());
        REQUIRE(player["cpu_wait_ms"].is_number());
        CHECK(player["cpu_wait_note"].is_null());  // a whole figure: none of its processes ended
        longest = std::max(longest, player["cpu_wait_ms"].get<double>());
    }
    return longest / result["race_ms"].get<double>();
}

}  // namespace

TEST_CASE(
    "shares: a game while a CPU hog runs outside the host is contended, its players' waits "
    "large, and on a quiet machine it is not",
    "[e2e][shares][cpu_wait]") {
    const Game quiet = play(race_players(), race_options);
    INFO("quiet: " << quiet.result.dump());
    CHECK(quiet.run.status == 0);
    CHECK(quiet.result["end"] == "game_timeout");
    CHECK(quiet.result["race_ms"].get<double>() >= 1900);
    // Each had a core of its own: it hardly waited.
    CHECK(quiet.result["contended"] == false);
    CHECK(longest_wait_share(quiet.result) < 0.05);

    Game crowded;
    {
        const OutsideHog outside;
        crowded = play(race_players(), race_options);
    }
    INFO("beside the hog: " << crowded.result.dump());
    CHECK(crowded.run.status == 0);
    CHECK(crowded.result["contended"] == true);
    // Each wanted a core for a second and had a fraction of one: it waited for most of that.
    for (const auto& player : crowded.result["players"])
        CHECK(player["cpu_wait_ms"].get<double>() > 300);
    CHECK(longest_wait_share(crowded.result) > 0.15);
}

TEST_CASE(
    "shares: tournament resume --replay-contended plays a contended game again, counted once in "
    "the standings, its first play kept",
    "[e2e][shares][cpu_wait][tournament]") {
    const std::string db = scratch("contended.db");
    const auto tournament = [&db](std::vector<std::string> args) {
        args.insert(args.begin(), {BG_TOURNAMENT_PATH});
        args.insert(args.begin() + 2, {"--db", db});
        const Run r = run(args, patient);
        INFO(args[1] << ": " << r.err);
        CHECK(r.status == 0);
        return r;
    };
    {
        // One deal, its two seatings, beside the hog: both contended. The players are given
        // long to get ready: beside the hog in the emulated machine of the cgroup v2 test, an
        // interpreter takes more than the default to start, and a game whose players were
        // never ready has no race to be contended in.
        const OutsideHog outside;
        tournament({"run", "--dict", two_letters, "--game-timeout", "2", "--ready-timeout", "30",
                    "--deals", "1", "--concurrency", "1", "--bot", "a=" + hog("spin 1"), "--bot",
                    "b=" + hog("spin 1")});
    }
    auto standings = json::parse(tournament({"standings", "--json"}).out);
    CHECK(standings["done"] == 2);
    CHECK(standings["contended"] == 2);
    CHECK(standings["bots"][0]["games"] == 2);
    CHECK(tournament({"standings"}).out.find("2 of them contended") != std::string::npos);
    // Left out, they leave nothing to count.
    const auto uncontended = json::parse(tournament({"standings", "--json", "--uncontended"}).out);
    CHECK(uncontended["left_out"] == 2);
    CHECK(uncontended["bots"][0]["games"] == 0);

    // On the quiet machine, again: the replays count instead of the first plays.
    const Run resumed = tournament({"resume", "--replay-contended", "--concurrency", "1"});
    CHECK(resumed.err.find("2 contended games will be played again (games 3 to 4)") !=
          std::string::npos);
    standings = json::parse(tournament({"standings", "--json"}).out);
    INFO(standings.dump());
    CHECK(standings["games"] == 2);
    CHECK(standings["done"] == 2);
    CHECK(standings["replays"] == 2);
    CHECK(standings["contended"] == 0);
    for (const auto& bot : standings["bots"])
        CHECK(bot["games"] == 2);
    const auto games = json::parse(tournament({"games", "--json"}).out);
    REQUIRE(games.size() == 4);
    for (int i = 0; i < 2; ++i) {
        const auto& first = games[i];
        const auto& replay = games[i + 2];
        // The first play is kept and shown, not counted; its replay has its deal and seats.
        CHECK(first["contended"] == true);
        CHECK(first["replayed_by"] == replay["id"]);
        CHECK(first["counts"] == false);
        CHECK(replay["replay_of"] == first["id"]);
        CHECK(replay["contended"] == false);
        CHECK(replay["counts"] == true);
        CHECK(replay["seed"] == first["seed"]);
        CHECK(replay["seats"][0]["bot"] == first["seats"][0]["bot"]);
        CHECK(replay["seats"][0]["cpu_wait_ms"].is_number());
    }
    CHECK(tournament({"games"}).out.find("(replayed by game 3: not counted)") != std::string::npos);
    // Nothing is contended now: a second resume replays nothing.
    CHECK(tournament({"resume", "--replay-contended"}).err.find("0 contended games") !=
          std::string::npos);
    for (const char* suffix : {"", "-wal", "-shm"})
        std::remove((db + suffix).c_str());
}
