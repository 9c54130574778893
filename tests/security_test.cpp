// End-to-end: hostile players (tests/bots/attacker.py) against the real host and its sandbox.
// Each attack is contained: the attacker is out or harmless, the honest players finish with the
// right result, the log replays, and nothing is left running. Where an attack is safe to run
// unsandboxed, it is shown to work there, so that each test can fail.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <fstream>

#include "tests/support/game.hpp"

using namespace bg::test;
using nlohmann::json;

namespace {

std::string attacker(const std::string& mode, const std::string& extra = "") {
    return python_bot("attacker", mode, extra);
}
std::string bot(const std::string& mode, const std::string& extra = "") {
    return python_bot("test_bot", mode, extra);
}

// What the attacker in seat `player` (from 0) reported of its attack.
std::vector<std::string> attack_lines(const Run& run, int player) {
    return player_lines(run, player, "attack: ");
}

bool reported(const Run& run, int player, const std::string& text) {
    for (const auto& line : attack_lines(run, player))
        if (line.find(text) != std::string::npos)
            return true;
    return false;
}

std::string hex(const std::string& text) {
    std::string out;
    for (unsigned char c : text)
        out += fmt::format("{:02x}", c);
    return out;
}

// The game's log replays to its result, and none of the tagged processes is left.
void contained(const Game& game, const std::string& log, const std::vector<std::string>& tags) {
    const Run replay = run({host, "--replay", log, "--json"});
    INFO(replay.err);
    CHECK(replay.status == 0);
    CHECK(json::parse(replay.out, nullptr, false) == game.result);
    for (const auto& tag : tags)
        CHECK(processes_tagged(tag).empty());
    std::remove(log.c_str());
}

void kill_tagged(const std::string& tag) {
    for (int pid : processes_tagged(tag))
        kill(pid, SIGKILL);
}

}  // namespace

TEST_CASE("security: a player cannot signal another player, or the host", "[e2e][security]") {
    const std::string log = scratch("signal.log"), a = scratch("attacker"), v = scratch("victim");
    const Game game = play({attacker("signal-others", "--victim " + v + " --tag " + a),
                            bot("peel-once", "--tag " + v)},
                           {"--log", log});
    CHECK(game.run.status == 0);
    CHECK(reported(game.run, 0, "0 victims"));
    CHECK(game.result["end"] == "bananas");
    CHECK(game.result["players"][1]["outcome"] != "disqualified");
    contained(game, log, {a, v});

    const std::string host_log = scratch("signal-host.log");
    const Game host_attack =
        play({attacker("signal-host", "--tag " + a), bot("staircase")}, {"--log", host_log});
    CHECK(host_attack.run.status == 0);
    CHECK(host_attack.result["end"] == "bananas");
    CHECK_FALSE(reported(host_attack.run, 0, "sending signal"));
    contained(host_attack, host_log, {a});

    const std::string everything = scratch("kill-everything.log");
    const Game kill_all =
        play({attacker("kill-everything", "--tag " + a), bot("staircase")}, {"--log", everything});
    // It kills its own sh, and so ends its own sandbox (it may win the race to bananas in the
    // moment before that): the honest player is untouched.
    CHECK(kill_all.run.status == 0);
    CHECK(kill_all.result["players"][1]["outcome"] != "disqualified");
    contained(kill_all, everything, {a});

    // Unsandboxed, the same attacker kills its victim. It does not play on (--idle): the game
    // ends when the host sees the victim gone, not by the attacker's peels, which could come
    // before that.
    const Game open = play({attacker("signal-others", "--victim " + v + " --idle --tag " + a),
                            bot("peel-once", "--tag " + v)},
                           {"--no-sandbox"});
    INFO(open.run.err);
    CHECK(reported(open.run, 0, "sending signal 9"));
    CHECK(reason(open.result, 1).find("signal 9") != std::string::npos);
    CHECK(open.result["end"] == "last_player_standing");
    kill_tagged(a);
}

TEST_CASE("security: a player cannot write into another's output or take its input",
          "[e2e][security]") {
    const std::string log = scratch("fds.log"), a = scratch("attacker"), v = scratch("victim");
    const Game game = play(
        {attacker("steal-fds", "--victim " + v + " --tag " + a), bot("peel-once", "--tag " + v)},
        {"--log", log});
    CHECK(game.result["players"][1]["outcome"] != "disqualified");
    CHECK_FALSE(reported(game.run, 0, "writing into"));
    CHECK_FALSE(reported(game.run, 0, "got its fd"));
    contained(game, log, {a, v});

    // Unsandboxed, the victim is framed: disqualified for bytes it never wrote. (The attacker
    // does not play on, so that the game ends by that and not by its peels.)
    const Game open = play({attacker("steal-fds", "--victim " + v + " --idle --tag " + a),
                            bot("peel-once", "--tag " + v)},
                           {"--no-sandbox"});
    INFO(open.run.err);
    CHECK(reported(open.run, 0, "writing into"));
    CHECK(reason(open.result, 1).rfind("protocol error:", 0) == 0);
    CHECK(open.result["end"] == "last_player_standing");
    kill_tagged(a);
}

TEST_CASE("security: the log and other players' files are out of reach, the word list is not",
          "[e2e][security]") {
    const std::string log = scratch("files.log"), a = scratch("attacker");
    const std::string extra = scratch("inherited.txt");
    // The host inherits a descriptor (5) from whoever started it: no player may get it.
    const std::string read =
        fmt::format("--read {} {} {} {} --tag {}", hex(log), hex(two_letters), hex(reference_bot),
                    hex(BG_TESTS_DIR "/bots/test_bot.py"), a);
    const std::string forge = attacker("forge-log", "--tag " + a);
    const Game game =
        play({attacker("read-files", read), forge, "exec " + reference_bot + " --legacy"},
             {"--log", log}, {"/bin/sh", "-c", "exec 5>>" + extra + "; exec \"$@\"", "sh"});
    CHECK(game.run.status == 0);
    CHECK(reported(game.run, 0, "cannot read " + log));
    // The game's word list is every player's to read (BANANAGRAMS_WORDLIST), named or not.
    CHECK(reported(game.run, 0, "read " + two_letters));
    CHECK(reported(game.run, 0, "cannot read " + reference_bot));
    CHECK(reported(game.run, 0, "read " BG_TESTS_DIR "/bots/test_bot.py"));  // its own folder
    CHECK(reported(game.run, 1, "descriptors past stderr: none"));
    contained(game, log, {a});
    std::remove(extra.c_str());

    // Unsandboxed, the log is there for the taking (descriptors are closed at exec all the same).
    const std::string open_log = scratch("files-open.log");
    const Game open =
        play({attacker("read-files", fmt::format("--read {} --tag {}", hex(open_log), a)),
              attacker("forge-log", "--tag " + a)},
             {"--log", open_log, "--no-sandbox"},
             {"/bin/sh", "-c", "exec 5>>" + extra + "; exec \"$@\"", "sh"});
    CHECK(reported(open.run, 0, "read " + open_log));
    CHECK(reported(open.run, 1, "descriptors past stderr: none"));
    kill_tagged(a);
    std::remove(open_log.c_str());
    std::remove(extra.c_str());
}

TEST_CASE("security: a player gets a clean environment, no network and a read-only system",
          "[e2e][security]") {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(listen(listener, 4) == 0);
    socklen_t length = sizeof address;
    getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
    const std::string port = std::to_string(ntohs(address.sin_port));
    const std::string a = scratch("attacker");

    const Game game = play({attacker("environment", "--tag " + a),
                            attacker("network", "--port " + port + " --tag " + a),
                            attacker("write-files", "--tag " + a)},
                           {"--env", "BG_PASSED", "--tmp-size", "8"},
                           {"/usr/bin/env", "BG_SECRET=hunter2", "BG_PASSED=yes"});
    CHECK(game.run.status == 0);
    CHECK(reported(game.run, 0, "env BG_PASSED=yes"));
    CHECK(reported(game.run, 0, "env HOME=/tmp"));
    CHECK_FALSE(reported(game.run, 0, "BG_SECRET"));
    CHECK(reported(game.run, 1, "cannot connect"));
    CHECK(reported(game.run, 2, "cannot write " BG_TESTS_DIR "/bots/attacker-was-here"));
    CHECK(reported(game.run, 2, "cannot write /var/tmp/attacker-was-here"));
    const auto took = attack_lines(game.run, 2).back();  // "/tmp took N MiB: No space left..."
    CHECK(took.rfind("/tmp took ", 0) == 0);
    CHECK(std::stoi(took.substr(10)) <= 8);
    struct stat st;
    CHECK(stat(BG_TESTS_DIR "/bots/attacker-was-here", &st) != 0);
    CHECK(processes_tagged(a).empty());

    // Unsandboxed, all of it is the host's.
    const Game open = play({attacker("environment", "--tag " + a),
                            attacker("network", "--port " + port + " --tag " + a)},
                           {"--no-sandbox"}, {"/usr/bin/env", "BG_SECRET=hunter2"});
    CHECK(reported(open.run, 0, "env BG_SECRET=hunter2"));
    CHECK(reported(open.run, 1, "connected"));
    close(listener);
    kill_tagged(a);
}

TEST_CASE("security: a fork bomb stops at the limit and harms no other player", "[e2e][security]") {
    const std::string log = scratch("bomb.log"), a = scratch("attacker"), v = scratch("victim");
    // The honest player starts processes (sleep, then python) while the bomb holds its limit.
    const Game game =
        play({attacker("fork-bomb", "--tag " + a), "sleep 0.5; " + bot("staircase", "--tag " + v)},
             {"--log", log, "--max-processes", "24"});
    CHECK(game.run.status == 0);
    CHECK(reported(game.run, 0, "then: Resource temporarily unavailable"));
    CHECK(game.result["players"][1]["outcome"] != "disqualified");
    CHECK(game.result["end"] == "bananas");
    contained(game, log, {a, v});
}

TEST_CASE("security: memory, descriptors, file size and CPU time are limited", "[e2e][security]") {
    const std::string log = scratch("limits.log");
    const Game game = play({attacker("files"), bot("staircase")},
                           {"--log", log, "--max-open-files", "64", "--max-file-size", "1"});
    CHECK(reported(game.run, 0, "then: Too many open files"));
    CHECK(reported(game.run, 0, "a 4 MiB file: File too large"));
    CHECK(game.result["end"] == "bananas");
    contained(game, log, {});

    // Filling 1 GiB under --memory 256: its cgroup's limit puts it out (tests/shares_test.cpp
    // has more); with per-process limits only, its address space refuses the allocation.
    const std::string memory = scratch("memory.log");
    const Game filled =
        play({attacker("memory"), bot("staircase")}, {"--log", memory, "--memory", "256"});
    CHECK(reason(filled.result, 0) == "used more than 256 MiB of memory (its processes together)");
    CHECK(filled.result["players"][1]["outcome"] == "won");
    contained(filled, memory, {});
    const Game refused = play({attacker("memory"), bot("staircase")},
                              {"--memory", "256", "--unfair-per-process-limits"});
    CHECK(reported(refused.run, 0, "1 GiB of memory: refused"));
    CHECK(refused.result["end"] == "bananas");

    const std::string burn = scratch("burn.log");
    const Game spin =
        play({attacker("burn-cpu"), bot("sleep")}, {"--log", burn, "--cpu-time", "1"});
    CHECK(reason(spin.result, 0) ==
          "exited with status 152 (its command was killed by signal 24: CPU time limit exceeded)");
    CHECK(spin.result["winner"] == 1);
    contained(spin, burn, {});
}

TEST_CASE("security: nothing a player starts outlives it, setsid or not", "[e2e][security]") {
    const std::string log = scratch("daemon.log"), a = scratch("daemon");
    const Game game = play({attacker("daemon", "--tag " + a), bot("staircase")}, {"--log", log});
    CHECK(game.result["end"] == "bananas");
    contained(game, log, {a});

    // Unsandboxed, its cgroup holds it still: it goes with the player.
    play({attacker("daemon", "--tag " + a), bot("staircase")}, {"--no-sandbox"});
    CHECK(processes_tagged(a).empty());

    // Without a sandbox or a cgroup, the daemon escapes the group kill.
    play({attacker("daemon", "--tag " + a), bot("staircase")},
         {"--no-sandbox", "--unfair-per-process-limits"});
    CHECK_FALSE(processes_tagged(a).empty());
    kill_tagged(a);
}

TEST_CASE("security: every sandbox dies with the host, even when the host is killed",
          "[e2e][security]") {
    const std::string a = scratch("orphan"), v = scratch("orphan-ignoring-term");
    auto background = start({host, "--json", attacker("daemon", "--idle --tag " + a),
                             bot("ignore-term", "--tag " + v)});
    REQUIRE(wait_for_tagged(a));
    REQUIRE(wait_for_tagged(v));
    kill(background.pid, SIGKILL);
    background.wait();
    // The kernel ends them once the host is gone; a kept sandbox would be there for good.
    CHECK(wait_until_untagged(a));
    CHECK(wait_until_untagged(v));
    kill_tagged(a);
    kill_tagged(v);
}

TEST_CASE("security: a player's stderr cannot drive the organiser's terminal", "[e2e][security]") {
    const Game game = play({attacker("terminal"), bot("staircase")});
    CHECK(game.run.err.find('\x1b') == std::string::npos);
    CHECK(game.run.err.find('\x07') == std::string::npos);
    CHECK(game.run.err.find('\x9b') == std::string::npos);
    CHECK(game.run.err.find("\n[player 1] \\x1b[2K\\x0d[  99.000s] game over: bananas, player 2 "
                            "won\n") != std::string::npos);
    CHECK(game.run.err.find("\n[player 1] \\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b31m\\xff\\xfe\n") !=
          std::string::npos);
}

TEST_CASE("security: any byte in a grid or a command is logged and replays", "[e2e][security]") {
    const std::string log = scratch("bytes.log");
    // The honest player says it is ready and then waits: the game cannot end before the
    // attacker's peel is judged (a staircase could reach bananas first).
    const std::string odd = bot("sleep", "--tag \xff\xfe-odd");
    const Game game = play({attacker("bad-byte-peel"), odd}, {"--log", log});
    CHECK(game.run.status == 0);
    CHECK(reason(game.result, 0) ==
          "illegal peel: grid cell at column 1, row 0 is a byte outside ASCII (0xff), not A-Z or "
          "'.'");
    CHECK(game.result["winner"] == 1);
    CHECK(game.result["players"][1]["command"]["hex"] == hex(odd));
    contained(game, log, {});
}

TEST_CASE("security: a player that floods the log is out, and the log stays bounded",
          "[e2e][security]") {
    for (const char* mode : {"stale-flood", "big-stale-flood"}) {
        INFO(mode);
        const std::string log = scratch(std::string(mode) + ".log"), a = scratch("flooder");
        const Game game =
            play({attacker(mode, "--tag " + a), bot("peel-once")}, {"--log", log}, {});
        CHECK(game.run.status == 0);
        CHECK(reason(game.result, 0).rfind("flooded the host: more than ", 0) == 0);
        CHECK(game.result["winner"] == 1);
        struct stat st;
        REQUIRE(stat(log.c_str(), &st) == 0);
        // docs/host.md, "The event log": at most 67 MiB a player, and far less for small messages.
        CHECK(st.st_size < (std::string(mode) == "stale-flood" ? 8 << 20 : 67 << 20));
        CHECK(game.run.err.size() < 2u << 20);  // 10,000 live lines at most
        contained(game, log, {a});
    }
}

TEST_CASE("security: a refused-dump loop is cut off, and the live lines stay bounded",
          "[e2e][security]") {
    const std::string log = scratch("dump-flood.log");
    const Game game = play({attacker("dump-flood"), bot("sleep")}, {"--log", log});
    CHECK(reason(game.result, 0) ==
          "flooded the host: more than 10000 messages (the limit for a game)");
    CHECK(game.result["players"][0]["dumps"] == 50);  // 102 tiles, two fewer a dump, then refused
    CHECK(game.result["winner"] == 1);
    CHECK(game.run.err.size() < 2u << 20);
    contained(game, log, {});
}

TEST_CASE("security: when nobody is ready, nobody wins", "[e2e][security]") {
    const Game game = play({bot("never-ready"), bot("never-ready"), bot("never-ready")},
                           {"--ready-timeout", "0.5"});
    CHECK(game.result["end"] == "everyone_out");
    CHECK(game.result["winner"].is_null());
    for (int p = 0; p < 3; ++p)
        CHECK(reason(game.result, p) ==
              "not ready (no r, nor v002R in v2) before the ready timeout");
}

TEST_CASE("security: a log that cannot be written aborts the game before anyone plays",
          "[e2e][security]") {
    const std::string a = scratch("unlogged");
    const Run r = run({host, "--json", "--log", "/dev/full", bot("staircase", "--tag " + a),
                       bot("staircase", "--tag " + a)});
    CHECK(r.status == 1);
    CHECK(json::parse(r.out)["end"] == "aborted");
    CHECK(r.err.find("the event log /dev/full could not be written (No space left on device): "
                     "the game was aborted") != std::string::npos);
    CHECK(processes_tagged(a).empty());
}

TEST_CASE("security: a closed stdout or a full stderr never stops a game or its log",
          "[e2e][security]") {
    const std::string log = scratch("no-output.log");
    const Run r = run({"/bin/sh", "-c", "exec \"$@\" >&- 2>/dev/full", "sh", host, "--seed", "7",
                       "--dict", two_letters, "--log", log, bot("staircase"), bot("staircase")});
    CHECK(r.status == 4);
    const Run replay = run({host, "--replay", log, "--json"});
    CHECK(replay.status == 0);
    CHECK(json::parse(replay.out)["end"] == "bananas");
    // Only the live lines lost: the result is there, and the status says what was not written.
    const Run live = run({"/bin/sh", "-c", "exec \"$@\" 2>/dev/full", "sh", host, "--seed", "7",
                          "--dict", two_letters, "--json", bot("staircase"), bot("staircase")});
    CHECK(live.status == 6);
    CHECK(json::parse(live.out)["end"] == "bananas");
    std::remove(log.c_str());
}

TEST_CASE("security: where the sandbox cannot be had, the host refuses to start",
          "[e2e][security]") {
    Run r = run({"/usr/bin/env", "PATH=/nonexistent", host, "x"});
    CHECK(r.status == 5);
    CHECK(r.err.find("the player sandbox needs bubblewrap (bwrap), which is not installed: "
                     "apt-get install bubblewrap, or pass --no-sandbox") != std::string::npos);
    if (geteuid() == 0) {
        r = run({host, "--sandbox-user", "no-such-user", "x"});
        CHECK(r.status == 5);
        CHECK(r.err.find("the sandbox user no-such-user does not exist") != std::string::npos);
        r = run({host, "--sandbox-user", "root", "x"});
        CHECK(r.status == 5);
        CHECK(r.err.find("may not be root") != std::string::npos);
        // The log it opened is taken back only when it made it: a file that was there before
        // stays (once, this removed /dev/full, given as --log).
        const std::string made = scratch("unsandboxed-new.log");
        const std::string kept = scratch("unsandboxed-kept.log");
        std::ofstream(kept) << "an earlier game\n";
        for (const auto& log : {made, kept})
            CHECK(run({host, "--sandbox-user", "no-such-user", "--log", log, "x"}).status == 5);
        CHECK_FALSE(std::ifstream(made).good());
        CHECK(std::ifstream(kept).good());
        std::remove(kept.c_str());
    }
}
