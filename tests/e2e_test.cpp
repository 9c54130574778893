// End-to-end: the real host, real player processes, real pipes and signals.
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "record/setup.hpp"
#include "tests/support/game.hpp"

using namespace bg::test;
using nlohmann::json;

namespace {

std::string bot(const std::string& mode, const std::string& extra = "") {
    return python_bot("test_bot", mode, extra);
}

// A Python example player on the default word list, against a player that leaves at the first
// peel's tile: the game ends once the example has peeled, however long it takes to start (the
// clock is only a safety net). Its result, once the example has won so.
json example_game(const std::string& example) {
    const Run r = run({host, "--json", "--seed", "3", "--game-timeout", "60",
                       "exec python3 " BG_SOURCE_DIR "/players/" + example + BG_EXAMPLE_WORDS,
                       "exec " + bot("leave-at-a-peel")},
                      120);
    INFO(r.err);
    REQUIRE(r.status == 0);
    json result = json::parse(r.out);
    CHECK(result["end"] == "last_player_standing");
    CHECK(result["players"][0]["outcome"] == "won");
    CHECK(result["players"][0]["peels"].get<int>() >= 1);
    return result;
}

}  // namespace

TEST_CASE("e2e: two players play to bananas, and the log replays to the same result", "[e2e]") {
    const std::string log = scratch("bananas.log");
    const Game game = play({bot("staircase"), bot("staircase")}, {"--log", log});
    CHECK(game.run.status == 0);
    CHECK(game.result["end"] == "bananas");
    REQUIRE(game.result["winner"].is_number());
    CHECK(game.result["seed"] == 7);
    const int winner = game.result["winner"];
    CHECK(game.result["players"][winner]["outcome"] == "won");
    CHECK(game.result["players"][1 - winner]["outcome"] == "lost");
    CHECK(game.result["players"][winner]["hand"].get<std::string>().size() ==
          game.result["players"][winner]["tiles"].get<std::size_t>());
    for (const auto& p : game.result["players"]) {
        CHECK(p["protocol"] == "legacy-v1");
        CHECK(p["reason"].is_null());
    }

    const Run replay = run({host, "--replay", log, "--json"});
    CHECK(replay.status == 0);
    CHECK(json::parse(replay.out) == game.result);
    // The replay prints the live lines the game printed, made by the same code, to the time.
    const auto live_lines = [](const std::string& err) {
        std::vector<std::string> lines;
        std::istringstream in(err);
        for (std::string line; std::getline(in, line);)
            if (line.rfind("[ ", 0) == 0 && line.find("s] ") != std::string::npos)
                lines.push_back(line);
        return lines;
    };
    const auto played = live_lines(game.run.err);
    CHECK(played.size() > 10);
    CHECK(live_lines(replay.err) == played);
    CHECK(run({host, "--replay", log, "--quiet"}).err.empty());
    std::remove(log.c_str());
}

TEST_CASE(
    "e2e: a log names its word list, and one played on an earlier host's default still replays",
    "[e2e]") {
    const std::string log = scratch("named.log");
    REQUIRE(run({host, "--seed", "2", "--log", log, reference_bot, reference_bot}, 60).status == 0);
    std::ifstream in(log);
    std::string first;
    std::getline(in, first);
    const json start = json::parse(first)["start"];
    CHECK(start["version"] == bg::log_version);
    CHECK(start["dictionary"] == "");
    CHECK(start["dictionary_name"] == "scowl-80");
    CHECK(start["dictionary_fingerprint"] == "13b498d63183a9a9");
    std::remove(log.c_str());

    // Played by host 1.0.0 on its built-in list, the lower-case lines of wamerican-large (a
    // version 2 log, which names the list by its fingerprint alone): read from Debian's file.
    const std::string old = BG_TESTS_DIR "/data/log-v2-wamerican-default.jsonl";
    std::ifstream old_in(old);
    std::string old_first, line, last;
    std::getline(old_in, old_first);
    while (std::getline(old_in, line))
        last = line;
    CHECK(json::parse(old_first)["start"]["dictionary_fingerprint"] == "30164250aa211910");
    const Run replayed = run({host, "--replay", old, "--json", "--quiet"});
    INFO(replayed.err);
    REQUIRE(replayed.status == 0);
    CHECK(json::parse(replayed.out) == json::parse(last)["result"]);
}

TEST_CASE("e2e: the reference bots play a real game on the default word list", "[e2e]") {
    const Run r = run({host, "--json", "--seed", "11", reference_bot, reference_bot}, 60);
    INFO(r.err);
    REQUIRE(r.status == 0);
    const json result = json::parse(r.out);
    CHECK(result["end"] == "bananas");
    REQUIRE(result["winner"].is_number());
    CHECK(result["players"][0]["outcome"] != "disqualified");
    CHECK(result["players"][1]["outcome"] != "disqualified");
}

TEST_CASE("e2e: every player reads the game's word list at $BANANAGRAMS_WORDLIST", "[e2e]") {
    namespace fs = std::filesystem;
    // The organiser's list, which only the host's user may read, in a folder that player 1's
    // command names (the sandbox hides such a folder from the other players).
    const std::string dir = fs::absolute(scratch("words")).string();
    const std::string tmp = fs::absolute(scratch("tmp")).string();
    fs::create_directories(dir);
    fs::create_directories(tmp);
    const std::string words = dir + "/words.txt";
    fs::copy_file(two_letters, words, fs::copy_options::overwrite_existing);
    fs::permissions(words, fs::perms::owner_read | fs::perms::owner_write);
    // Each player says how many words it can read at the path it was given, then plays.
    const std::string report =
        R"(n=$(grep -c . "$BANANAGRAMS_WORDLIST") && echo "words $n $BANANAGRAMS_WORDLIST" >&2; )";
    const std::vector<std::string> players = {": " + dir + "/; " + report + bot("staircase"),
                                              report + bot("staircase")};
    for (const bool sandboxed : {true, false}) {
        INFO((sandboxed ? "sandboxed" : "unsandboxed"));
        std::vector<std::string> options = {"--dict", words};
        if (!sandboxed)
            options.push_back("--no-sandbox");
        const Game game = play(players, options, {"/usr/bin/env", "TMPDIR=" + tmp});
        INFO(game.run.err);
        CHECK(game.result["end"] == "bananas");
        for (int player = 0; player < 2; ++player) {
            const auto said = player_lines(game.run, player, "words ");
            REQUIRE(said.size() == 1);
            CHECK(said[0].rfind("676 /", 0) == 0);
            // As root a sandboxed player is nobody, who cannot read the organiser's file: it
            // reads the host's copy; otherwise the file itself.
            const bool copy = sandboxed && ::geteuid() == 0;
            CHECK((said[0] == "676 " + words) == !copy);
            CHECK((said[0].rfind("676 " + tmp + "/bananagrams-words-", 0) == 0) == copy);
        }
        // The copy goes with the game.
        CHECK(fs::is_empty(tmp));
    }
    // The default list, from its file.
    const Run r = run({host, "--json", "--seed", "11", report + "exec " + reference_bot,
                       report + "exec " + reference_bot},
                      60);
    INFO(r.err);
    CHECK(r.status == 0);
    for (int player = 0; player < 2; ++player)
        CHECK(player_lines(r, player, "words ") ==
              std::vector<std::string>{"242788 " BG_SOURCE_DIR "/wordlist/scowl-80.txt"});
    fs::remove_all(dir);
    fs::remove_all(tmp);
}

TEST_CASE("e2e: the same seed deals the same hands", "[e2e]") {
    const std::string a = scratch("deal-a.log"), b = scratch("deal-b.log");
    play({bot("sleep"), bot("sleep")}, {"--log", a, "--game-timeout", "0.3"});
    play({bot("sleep"), bot("sleep")}, {"--log", b, "--game-timeout", "0.3"});
    const auto hands = [](const std::string& path) {
        for (const auto& r : log_records(path))
            if (r.contains("decision") && r["decision"]["type"] == "hands_dealt")
                return r["decision"]["hands"];
        return json();
    };
    CHECK(hands(a) == hands(b));
    CHECK(hands(a)[0].get<std::string>().size() == 21);
    std::remove(a.c_str());
    std::remove(b.c_str());
}

// The hands a log's deal gave.
json dealt_hands(const std::string& log) {
    for (const auto& r : log_records(log))
        if (r.contains("decision") && r["decision"]["type"] == "hands_dealt")
            return r["decision"]["hands"];
    return json();
}

TEST_CASE("e2e: --games N plays N games of the same players, each logged, replayed and dealt alone",
          "[e2e]") {
    const std::string logs = scratch("series.logs");
    std::filesystem::remove_all(logs);
    const Run series =
        run({host, "--json", "--quiet", "--dict", two_letters, "--seed", "7", "--games", "3",
             "--logs", logs, "exec " + bot("staircase"), "exec " + bot("staircase")},
            120);
    INFO(series.err);
    REQUIRE(series.status == 0);
    std::vector<json> results;
    std::istringstream lines(series.out);
    for (std::string line; std::getline(lines, line);)
        results.push_back(json::parse(line));
    REQUIRE(results.size() == 3);
    // The first game is --seed's own; each later one is dealt by a seed of its own.
    CHECK(results[0]["seed"] == 7);
    CHECK(results[1]["seed"] != results[0]["seed"]);
    CHECK(results[2]["seed"] != results[1]["seed"]);
    for (int g = 0; g < 3; ++g) {
        INFO("game " << g + 1);
        CHECK(results[g]["end"] == "bananas");
        const std::string log = fmt::format("{}/game-{:06}.jsonl", logs, g + 1);
        // Each log replays alone to its game's result...
        const Run replay = run({host, "--replay", log, "--json"});
        CHECK(replay.status == 0);
        CHECK(json::parse(replay.out, nullptr, false) == results[g]);
        // ... and its seed, given alone, deals its hands again.
        const std::string alone = scratch("series-alone.log");
        play({bot("sleep"), bot("sleep")},
             {"--seed", std::to_string(results[g]["seed"].get<std::uint64_t>()), "--log", alone,
              "--game-timeout", "0.3"});
        CHECK(dealt_hands(alone) == dealt_hands(log));
        std::remove(alone.c_str());
    }
    CHECK_FALSE(std::filesystem::exists(fmt::format("{}/game-{:06}.jsonl", logs, 4)));

    // As text: each game's table, then each player's wins.
    const Run text = run({host, "--quiet", "--dict", two_letters, "--seed", "7", "--games", "2",
                          bot("staircase"), bot("staircase")},
                         120);
    REQUIRE(text.status == 0);
    const auto tables = [&] {
        int n = 0;
        for (std::size_t at = 0;
             (at = text.out.find(": bananas, player ", at)) != std::string::npos; ++at)
            ++n;
        return n;
    };
    CHECK(tables() == 2);
    const auto totals = text.out.rfind("2 games: player 1 won ");
    REQUIRE(totals != std::string::npos);
    int first = -1, second = -1, none = -1;
    REQUIRE(std::sscanf(text.out.c_str() + totals,
                        "2 games: player 1 won %d, player 2 won %d; no winner %d", &first, &second,
                        &none) == 3);
    CHECK(first + second + none == 2);
    CHECK(none == 0);
    std::filesystem::remove_all(logs);
}

TEST_CASE("e2e: a signal during --games ends the game it comes in, and no game starts after it",
          "[e2e]") {
    const std::string logs = scratch("series-stopped.logs"), tag = scratch("series-stopped");
    std::filesystem::remove_all(logs);
    auto background = start({host, "--json", "--dict", two_letters, "--games", "5", "--logs", logs,
                             "--kill-grace", "300", bot("sleep", "--tag " + tag), bot("sleep")});
    REQUIRE(wait_for_tagged(tag));
    ::kill(background.pid, SIGTERM);
    const Run r = background.wait(60);
    CHECK(r.status == 128 + SIGTERM);
    const json result = json::parse(r.out, nullptr, false);  // one line: one game
    REQUIRE_FALSE(result.is_discarded());
    CHECK(result["end"] == "aborted");
    CHECK(std::filesystem::exists(fmt::format("{}/game-{:06}.jsonl", logs, 1)));
    CHECK_FALSE(std::filesystem::exists(fmt::format("{}/game-{:06}.jsonl", logs, 2)));
    CHECK(processes_tagged(tag).empty());
    std::filesystem::remove_all(logs);
}

TEST_CASE("e2e: both legacy dialects", "[e2e]") {
    // The bot exits with an error if a v0 host sends '.' or a v1 host does not.
    const Game v0 =
        play({bot("staircase", "--v0"), bot("staircase", "--v0")}, {"--legacy-dialect", "v0"});
    CHECK(v0.result["end"] == "bananas");
    CHECK(v0.result["players"][0]["protocol"] == "legacy-v0");
    const Game wrong = play({bot("staircase", "--v0"), bot("sleep")});
    CHECK(wrong.result["players"][0]["outcome"] == "disqualified");
}

TEST_CASE("e2e: illegal moves disqualify with a precise reason, and the game goes on", "[e2e]") {
    struct Case {
        const char* mode;
        const char* reason_start;
    };
    for (const auto& c :
         {Case{"bad-word", "illegal peel: not in the word list: "},
          Case{"wrong-tiles", "illegal peel: grid tiles are not the hand; not in the hand: Q (1)"},
          Case{"bad-grid", "illegal peel: grid cell at column 1, row 0 is 'b', not A-Z or '.'"},
          Case{"dump-absent", "illegal dump: "}}) {
        INFO(c.mode);
        const Game game = play({bot(c.mode), bot("sleep")});
        CHECK(game.run.status == 0);
        CHECK(game.result["players"][0]["outcome"] == "disqualified");
        CHECK(reason(game.result, 0).rfind(c.reason_start, 0) == 0);
        CHECK(game.result["players"][1]["outcome"] == "won");
        CHECK(game.result["end"] == "last_player_standing");
    }
}

TEST_CASE("e2e: protocol errors disqualify with a precise reason", "[e2e]") {
    struct Case {
        const char* mode;
        const char* reason;
    };
    for (const auto& c : {
             Case{"whitespace",
                  "protocol error: byte 1 of its output is a newline (0x0a), where a message (r, p "
                  "or d) "
                  "should start"},
             Case{"garbage",
                  "protocol error: byte 1 of its output is 'x', where a message (r, p or d) "
                  "should start"},
             Case{"ready-twice", "protocol error: sent r (ready) a second time"},
             Case{"peel-before-ready",
                  "protocol error: byte 0 of its output is 'p', where r (legacy ready) or v (v2 "
                  "handshake) should start"},
         }) {
        INFO(c.mode);
        const Game game = play({bot(c.mode), bot("staircase"), bot("staircase")});
        CHECK(reason(game.result, 0) == c.reason);
        CHECK(game.result["end"] == "bananas");
    }
}

TEST_CASE("e2e: a player that is never ready is disqualified at the ready timeout", "[e2e]") {
    const Game game =
        play({bot("never-ready"), bot("staircase"), bot("staircase")}, {"--ready-timeout", "2"});
    CHECK(reason(game.result, 0) == "not ready (no r, nor v002R in v2) before the ready timeout");
    CHECK(game.result["end"] == "bananas");
}

TEST_CASE("e2e: players that crash, exit or close their output are out, with why", "[e2e]") {
    // Against a player that never moves, the game waits for theirs.
    const Game crash = play({bot("crash"), bot("sleep")});
    CHECK(reason(crash.result, 0) ==
          "exited with status 139 (its command was killed by signal 11: Segmentation fault)");
    CHECK(crash.result["winner"] == 1);
    const Game exits = play({bot("exit"), bot("sleep")});
    CHECK(reason(exits.result, 0) == "exited with status 3");
    // sh keeps its own copy of the pipe unless the command takes its place. (In a sandbox,
    // bwrap's own processes hold it as well: there the end of a player's output is seen when
    // the player exits.)
    const Game closes = play({"exec " + bot("close-stdout"), bot("sleep")}, {"--no-sandbox"});
    CHECK(reason(closes.result, 0) == "closed its output (stdout)");
}

TEST_CASE("e2e: a player ignoring SIGTERM is killed after the grace", "[e2e]") {
    // The host's own clock says when the game ended and when every player's processes were
    // gone (the usage records); a host that never sent SIGKILL would not end at all, and run()
    // would stop it.
    for (const char* sandbox : {"--sandbox-user=nobody", "--no-sandbox"}) {
        INFO(sandbox);
        const std::string tag = scratch("ignore-term"), log = scratch("ignore-term.log");
        // exec: nothing but the bot in its group (or its sandbox) outlives the SIGTERM.
        const Game game = play({"exec " + bot("ignore-term", "--tag " + tag), bot("staircase")},
                               {sandbox, "--kill-grace", "700", "--log", log});
        CHECK(game.run.status == 0);
        CHECK(game.result["end"] == "bananas");
        CHECK(bg::test::processes_tagged(tag).empty());
        std::int64_t over = -1, gone = -1;
        for (const auto& record : log_records(log)) {
            if (record.contains("decision") && record["decision"]["type"] == "game_over")
                over = record["t"];
            if (record.contains("usage"))
                gone = std::max(gone, record["t"].get<std::int64_t>());
        }
        REQUIRE(over >= 0);
        CHECK(gone - over >= 700'000'000);  // it waited out the whole grace
        std::remove(log.c_str());
    }
}

TEST_CASE("e2e: a player that forks a child and exits leaves nothing behind", "[e2e]") {
    for (const char* sandbox : {"--sandbox-user=nobody", "--no-sandbox"}) {
        INFO(sandbox);
        const std::string tag = scratch("fork");
        const Game game = play({bot("fork-and-exit", "--tag " + tag), bot("sleep")}, {sandbox});
        CHECK(reason(game.result, 0) == "exited with status 0");
        CHECK(bg::test::processes_tagged(tag).empty());
    }
}

TEST_CASE("e2e: floods and silence cannot stall the host", "[e2e]") {
    SECTION("a flood on stdout: one endless grid") {
        const Game game = play({bot("flood-stdout"), bot("sleep")});
        CHECK(game.result["players"][0]["outcome"] == "disqualified");
        CHECK(game.result["players"][1]["outcome"] == "won");
    }
    SECTION("a flood on stderr") {
        const Game game = play({bot("flood-stderr"), bot("sleep")}, {"--game-timeout", "1"});
        CHECK(game.result["end"] == "game_timeout");
        CHECK(game.run.err.find("[player 1] (more stderr dropped)") != std::string::npos);
        CHECK(game.run.err.size() < 3u << 20);
    }
    SECTION("a player that never reads") {
        const Game game = play({bot("never-read"), bot("staircase")});
        CHECK(game.result["end"] == "bananas");
        CHECK(game.result["winner"] == 1);
    }
}

TEST_CASE("e2e: a racing peel is stale, dropped, and then made good", "[e2e]") {
    const std::string log = scratch("stale.log");
    const Game game = play({bot("peel-once"), bot("stale-racer")}, {"--log", log});
    const auto records = log_records(log);
    CHECK(count_decisions(records, "peel_stale", 1) >= 1);
    CHECK(count_decisions(records, "disqualified", 1) == 0);
    CHECK(game.result["winner"] == 1);
    CHECK(game.result["end"] == "bananas");
    CHECK(run({host, "--replay", log, "--json"}).status == 0);
    std::remove(log.c_str());
}

TEST_CASE("e2e: dumps", "[e2e]") {
    const Game game = play({bot("dump-then-play"), bot("sleep")});
    CHECK(game.result["players"][0]["dumps"] == 1);
    CHECK(game.result["winner"] == 0);
}

TEST_CASE("e2e: the game timeout ranks by tiles left", "[e2e]") {
    const Game game = play({bot("sleep"), bot("sleep")}, {"--game-timeout", "0.3"});
    CHECK(game.run.status == 0);
    CHECK(game.result["end"] == "game_timeout");
    CHECK(game.result["winner"].is_null());  // 21 tiles each: a tie
}

TEST_CASE("e2e: the host stopped by a signal ends the game and its players", "[e2e]") {
    // A closed terminal (SIGHUP) and ^\\ (SIGQUIT) end a game as SIGTERM and ^C do.
    for (const int signal : {SIGTERM, SIGINT, SIGHUP, SIGQUIT}) {
        INFO(strsignal(signal));
        const std::string tag = scratch("abort");
        auto background = bg::test::start({host, "--json", "--kill-grace", "300",
                                           bot("ignore-term", "--tag " + tag), bot("sleep")});
        REQUIRE(bg::test::wait_for_tagged(tag));
        // SIGUSR1 and SIGUSR2, whose default would end the host with no result, are ignored.
        kill(background.pid, SIGUSR1);
        kill(background.pid, SIGUSR2);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        REQUIRE(bg::test::process_alive(background.pid));
        kill(background.pid, signal);
        const Run r = background.wait();
        CHECK(r.status == 128 + signal);
        const json result = json::parse(r.out);
        CHECK(result["end"] == "aborted");
        CHECK(result["winner"].is_null());
        CHECK(bg::test::processes_tagged(tag).empty());
    }
}

TEST_CASE("e2e: a signal at any point of a game's end never costs its result", "[e2e]") {
    // SIGTERM as the host says the game is over, and a few milliseconds later: while the players
    // leave, as the host's signal watches close, as it prints the result. Every time the result
    // is printed: the game's, status 0, when the game was over (a signal then stops nothing);
    // aborted, status 143, when it came first.
    int played = 0;
    for (int attempt = 0; attempt < 16; ++attempt) {
        Background game = start({host, "--json", "--dict", two_letters, "--seed", "7",
                                 "--kill-grace", "300", bot("staircase"), bot("staircase")});
        std::string err;
        char buffer[4096];
        for (ssize_t n; err.find("game over") == std::string::npos &&
                        (n = ::read(game.err_fd, buffer, sizeof buffer)) > 0;)
            err.append(buffer, static_cast<std::size_t>(n));
        std::this_thread::sleep_for(std::chrono::microseconds(400 * (attempt % 8)));
        ::kill(game.pid, SIGTERM);
        const Run r = game.wait(60);
        INFO("attempt " << attempt << ", status " << r.status << "\nstdout: " << r.out);
        const json result = json::parse(r.out, nullptr, false);
        REQUIRE_FALSE(result.is_discarded());
        if (r.status == 0) {
            ++played;
            CHECK(result["end"] == "bananas");
        } else {
            CHECK(r.status == 128 + SIGTERM);
            CHECK(result["end"] == "aborted");
        }
    }
    // The game's end was on the screen before each signal: most were played to it.
    CHECK(played > 0);
}

TEST_CASE("e2e: bad command lines, dictionaries and logs are refused clearly", "[e2e]") {
    Run r = run({host});
    CHECK(r.status == 2);
    CHECK(r.err == "host: no player commands given\nTry 'host --help'.\n");
    r = run({host, "--legacy-dialect", "v7", "x"});
    CHECK(r.status == 2);
    CHECK(r.err.find("--legacy-dialect must be v1 or v0") != std::string::npos);
    r = run({host, "--seed", "banana", "x"});
    CHECK(r.status == 2);
    // Nothing wraps around or silently means "no limit"; 5 MB of random bytes is no word list.
    const std::string noise = scratch("noise.bin");
    {
        std::ifstream random("/dev/urandom", std::ios::binary);
        std::ofstream out(noise, std::ios::binary);
        std::vector<char> bytes(5 << 20);
        random.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    struct Refused {
        std::vector<std::string> options;
        int status;
        const char* message;
    };
    for (const auto& c : {
             Refused{{"--seed", "-1"},
                     2,
                     "--seed must be a whole number from 0 to 18446744073709551615, not '-1'"},
             Refused{{"--kill-grace", "-1"},
                     2,
                     "--kill-grace must be a whole number from 0 to "
                     "600000"},
             Refused{{"--game-timeout", "0.0005"},
                     2,
                     "--game-timeout must be between 0.001 and 1000000 seconds (or 0 for none)"},
             Refused{{"--ready-timeout", "nan"}, 2, "--ready-timeout must be between 0.001"},
             Refused{{"--env", "A=B"}, 2, "--env takes a variable's name, not 'A=B'"},
             Refused{{"--dict", "/dev/zero"},
                     1,
                     "host: word list /dev/zero is larger than 64 MiB: is it a word list?\n"},
             Refused{{"--dict", noise}, 1, "is mostly not words"},
             Refused{{"--games", "0"}, 2, "--games must be a whole number from 1 to 100000"},
             Refused{{"--games", "2", "--log", "x.log"},
                     2,
                     "--log writes one game's log: with --games, give --logs DIR"},
             Refused{{"--games", "2", "--html", "x.html"}, 2, "--html writes one game's page"},
             Refused{{"--games", "2", "--serve", "127.0.0.1:0"}, 2, "--serve follows one game"},
             Refused{{"--log", "x.log", "--logs", "x.logs"},
                     2,
                     "--log writes one file, --logs a folder of them: give one of them"},
             Refused{{"--check", "--games", "2"}, 2, "--games does not apply"},
             Refused{{"--logs", "/proc/x"}, 1, "host: cannot make the log folder /proc/x"},
         }) {
        std::vector<std::string> argv = {host};
        argv.insert(argv.end(), c.options.begin(), c.options.end());
        argv.push_back("x");
        r = run(argv);
        INFO(c.message);
        CHECK(r.status == c.status);
        CHECK(r.err.find(c.message) != std::string::npos);
    }
    std::remove(noise.c_str());
    r = run({host, "--dict", "/nonexistent/words", "x"});
    CHECK(r.status == 1);
    CHECK(r.err == "host: cannot open word list /nonexistent/words: No such file or directory\n");
    r = run({host, "--replay", "/nonexistent/log"});
    CHECK(r.status == 1);
    r = run({host, "--replay", "/nonexistent/log", "--games", "2"});
    CHECK(r.status == 2);
    CHECK(r.err.find("--replay rebuilds one game from its log: --games does not apply") !=
          std::string::npos);
    r = run({host, "--help"});
    CHECK(r.status == 0);
    CHECK(r.out.find("--kill-grace") != std::string::npos);
}

TEST_CASE("e2e: a player command that cannot start", "[e2e]") {
    const Game game = play({"/nonexistent/bot", bot("sleep")});
    CHECK(game.run.status == 3);
    CHECK(reason(game.result, 0) ==
          "could not start: sh exited with status 127 (command not found)");
    CHECK(game.result["end"] == "last_player_standing");
}

TEST_CASE("e2e: an edited or cut-off log is reported", "[e2e]") {
    const std::string log = scratch("edit.log");
    play({bot("staircase"), bot("staircase")}, {"--log", log});
    const std::string text = bg::test::read_file(log);
    const auto write = [&](const std::string& contents) {
        std::ofstream(log, std::ios::trunc) << contents;
        return run({host, "--replay", log});
    };
    Run r = write(text.substr(0, text.size() / 2));
    CHECK(r.status == 1);
    CHECK(r.err.find("cut off") != std::string::npos);

    std::string edited = text;
    const auto at = edited.find("\"type\":\"hands_dealt\"");
    REQUIRE(at != std::string::npos);
    const auto hand = edited.find("\"hands\":[\"", at > 200 ? at - 200 : 0) + 10;
    edited[hand] = edited[hand] == 'A' ? 'B' : 'A';
    r = write(edited);
    CHECK(r.status == 1);
    CHECK(r.err.find("the log says") != std::string::npos);

    r = write(text.substr(0, text.rfind("{\"result\"")));
    CHECK(r.status == 1);
    CHECK(r.err.find("before the game's result") != std::string::npos);

    r = write(text);
    CHECK(r.status == 0);
    std::remove(log.c_str());
}

TEST_CASE("e2e: the Python example player makes legal peels on the default word list", "[e2e]") {
    example_game("example_player.py");
}

namespace {

std::string v2_bot(const std::string& mode, bool record = false) {
    return "exec python3 " BG_TESTS_DIR "/bots/v2_bot.py " + mode + (record ? " --record" : "");
}

// The host messages a v2_bot --record in seat `player` (from 0) received.
std::vector<std::string> recorded(const Run& run, int player) {
    return player_lines(run, player, "got ");
}

}  // namespace

TEST_CASE("e2e: v2 and legacy reference bots share games, in every seat order", "[e2e][v2]") {
    const std::string legacy = reference_bot + " --legacy";
    for (int seat = 0; seat < 3; ++seat) {
        std::vector<std::string> players(3, reference_bot);
        players[seat] = legacy;
        std::vector<std::string> argv = {host, "--json", "--seed", std::to_string(20 + seat)};
        argv.insert(argv.end(), players.begin(), players.end());
        const Run r = run(argv, 60);
        INFO("legacy bot in seat " << seat + 1 << "\n" << r.err);
        REQUIRE(r.status == 0);
        const json result = json::parse(r.out);
        CHECK(result["end"] == "bananas");
        for (int p = 0; p < 3; ++p) {
            CHECK(result["players"][p]["protocol"] == (p == seat ? "legacy-v1" : "v4"));
            CHECK(result["players"][p]["outcome"] != "disqualified");
        }
    }
}

TEST_CASE(
    "e2e: a bot written to v002 as first published, a v003 bot and a legacy bot play "
    "one game, each held to its version byte for byte",
    "[e2e][v2][versions]") {
    // strict_v002.py leaves the game (status 3, "strict: ...") at the first byte its version's
    // document does not allow, and says how it ended when it reaches E. (How far each gets
    // before a faster one ends the game is the race's; `host --check` takes both through
    // every message deterministically.)
    const std::string strict = "exec python3 " BG_TESTS_DIR "/bots/strict_v002.py ";
    for (int seed = 1; seed <= 4; ++seed) {
        const Game game = play({strict + "v002", strict + "v003", bot("staircase")},
                               {"--seed", std::to_string(seed)});
        INFO(game.run.err);
        CHECK(game.result["end"] == "bananas");
        const std::vector<std::string> protocols = {"v2", "v3", "legacy-v1"};
        for (int p = 0; p < 3; ++p) {
            CHECK(game.result["players"][p]["protocol"] == protocols[p]);
            CHECK(game.result["players"][p]["outcome"] != "disqualified");
        }
        CHECK(player_lines(game.run, 1, "strict: seat ") == std::vector<std::string>{"02 of 03"});
        for (int p = 0; p < 2; ++p) {
            const auto ends = player_lines(game.run, p, "strict: ");
            REQUIRE_FALSE(ends.empty());
            CHECK(ends.back().rfind(p == 0 ? "v002 ends " : "v003 ends ", 0) == 0);
        }
    }
}

TEST_CASE("e2e: a v2 handshake is answered in the highest version both know",
          "[e2e][v2][versions]") {
    // Player 1 writes the first bytes it reads to its stderr (the host shows them as
    // "[player 1] ..."), and leaves; player 2 wins.
    const auto answer = [](const std::string& hello) {
        const Game game = play({"printf " + hello + "; exec dd bs=64 count=1 status=none >&2",
                                "printf v002R; exec cat >/dev/null"});
        return player_lines(game.run, 0, "");
    };
    CHECK(answer("v002") == std::vector<std::string>{"V002."});
    CHECK(answer("v003") == std::vector<std::string>{"V0030102."});
    CHECK(answer("v042") == std::vector<std::string>{"V0030102."});
}

TEST_CASE(
    "e2e: a bot that knows v002 alone asks for a later version, reads V by the rule and plays",
    "[e2e][v2][versions]") {
    // protocol-v2.md, "Versions": the three digits after V are the version, the rest up to the
    // first '.' belongs to V. The bot skips the seat it cannot know of and plays v002's messages.
    const Game game =
        play({"exec python3 " BG_TESTS_DIR "/bots/forward_v002.py 009", bot("sleep")});
    INFO(game.run.err);
    CHECK(player_lines(game.run, 0, "version ") == std::vector<std::string>{"003, skipped 0102"});
    CHECK(game.result["players"][0]["protocol"] == "v3");
    CHECK(game.result["end"] == "bananas");
    CHECK(game.result["winner"] == 0);
    CHECK(game.result["players"][0]["peels"].get<int>() > 0);
}

TEST_CASE("e2e: a stale v2 peel is NAKed with what it lacks, then made good", "[e2e][v2]") {
    const std::string log = scratch("v2-stale.log");
    // The racer checks its NAK byte for byte and leaves (and so loses) if it is wrong.
    const Game game = play({v2_bot("racer", true), bot("peel-once")}, {"--log", log});
    CHECK(count_decisions(log_records(log), "peel_stale", 0) == 1);
    CHECK(game.result["players"][0]["outcome"] == "won");
    CHECK(game.result["players"][0]["protocol"] == "v3");
    CHECK(game.result["players"][1]["protocol"] == "legacy-v1");
    const auto messages = recorded(game.run, 0);
    CHECK(std::count_if(messages.begin(), messages.end(),
                        [](const std::string& m) { return m.rfind("N0001", 0) == 0; }) == 1);
    CHECK(run({host, "--replay", log}).status == 0);
    std::remove(log.c_str());
}

TEST_CASE("e2e: a v2 dump is refused when the bunch is short", "[e2e][v2]") {
    const Game game = play({v2_bot("dump-when-short", true), bot("sleep")});
    CHECK(game.result["winner"] == 0);
    const auto messages = recorded(game.run, 0);
    const auto refusal = std::find_if(messages.begin(), messages.end(),
                                      [](const std::string& m) { return m[0] == 'X'; });
    REQUIRE(refusal != messages.end());
    CHECK(refusal->size() == 6);
    CHECK(refusal->substr(2) == "0002");  // two players, 102 tiles: 2 are left after 50 peels
}

TEST_CASE("e2e: a game that can change no more ends as stalled, by fewest tiles, and replays",
          "[e2e][v2]") {
    // Both bots play until the bunch cannot serve a dump, then make no move; the second dumped
    // once, and holds two tiles more. The game's clock (ten minutes) is far away.
    const std::string log = scratch("stalled.log");
    const Game game = play({v2_bot("stuck-when-short", true), v2_bot("dump-then-stuck")},
                           {"--log", log, "--stall-timeout", "1", "--game-timeout", "600"});
    CHECK(game.run.status == 0);
    CHECK(game.result["end"] == "stalled");
    CHECK(game.result["bunch"].get<int>() < 3);
    CHECK(game.result["winner"] == 0);
    CHECK(game.result["players"][1]["tiles"].get<int>() ==
          game.result["players"][0]["tiles"].get<int>() + 2);
    // Told as the game timeout would tell it: won, with the winner's seat.
    const auto messages = recorded(game.run, 0);
    REQUIRE_FALSE(messages.empty());
    CHECK(messages.back() == "EW01010000");
    const auto records = log_records(log);
    CHECK(std::count_if(records.begin(), records.end(), [](const json& r) {
              return r.contains("input") && r["input"]["type"] == "stall_timeout";
          }) == 1);
    CHECK(records.front()["start"]["stall_timeout_ms"] == 1000);
    const Run replay = run({host, "--replay", log, "--json"});
    CHECK(replay.status == 0);
    CHECK(json::parse(replay.out) == game.result);
    std::remove(log.c_str());

    // While the bunch can serve dumps the stall clock does not run: idle players wait for the
    // game's.
    const Game idle =
        play({bot("sleep"), bot("sleep")}, {"--stall-timeout", "0.2", "--game-timeout", "2"});
    CHECK(idle.result["end"] == "game_timeout");
}

TEST_CASE("e2e: a peel sent before a dump's tiles were read is stale, never out", "[e2e][v2]") {
    // The bot checks its NAK (the newest peel, and the three tiles it lacked) byte for byte.
    const Game game = play({v2_bot("dump-race", true), bot("sleep")});
    CHECK(game.result["players"][0]["outcome"] == "won");
    const auto messages = recorded(game.run, 0);
    CHECK(std::count_if(messages.begin(), messages.end(), [](const std::string& m) {
              return m.rfind("N00000000", 0) == 0 && m.size() == 12;
          }) == 1);
}

TEST_CASE("e2e: a v2 handshake for version 1 is answered with E, and the result says v2",
          "[e2e][v2]") {
    const Game game = play({v2_bot("v001", true), bot("sleep")});
    CHECK(reason(game.result, 0) ==
          "protocol error: handshake v001 asks for a version before 2 (legacy players start "
          "with r instead)");
    CHECK(game.result["players"][0]["protocol"] == "v2");
    const auto messages = recorded(game.run, 0);
    REQUIRE(messages.size() == 1);
    CHECK(messages[0].rfind("EQ00", 0) == 0);
    CHECK(messages[0].find("handshake_v001") != std::string::npos);
}

TEST_CASE("e2e: v2 bots are told the end, who won, and why they were out", "[e2e][v2]") {
    const Game won = play({v2_bot("staircase", true), v2_bot("future")});
    REQUIRE_FALSE(recorded(won.run, 0).empty());
    // The v003 handshake's answer says its seat and the number of seats.
    CHECK(recorded(won.run, 0).front() == "V0030102");
    CHECK(recorded(won.run, 0).back() == "EW0101" + std::string("0000"));
    // Against a player that never moves, so that the newest peel is surely 0000.
    const Game out = play({v2_bot("future", true), bot("sleep")});
    const std::string reason =
        "protocol_error:_its_peel_says_it_reflects_peel_0099,_which_is_from_the_future_(the_"
        "newest_is_0000)";
    // Its disqualification ended the game, so it is told who won: seat 2.
    REQUIRE_FALSE(recorded(out.run, 0).empty());
    CHECK(recorded(out.run, 0).back() == fmt::format("EQ0002{:04}{}", reason.size(), reason));
}

TEST_CASE("e2e: v2 protocol errors have precise reasons", "[e2e][v2]") {
    struct Case {
        const char* mode;
        const char* reason;
    };
    for (const auto& c : {
             Case{"future",
                  "protocol error: its peel says it reflects peel 0099, which is from the future "
                  "(the newest is 0000)"},
             Case{"old",
                  "protocol error: its peel says it reflects peel 0000, older than peel 0001, "
                  "which its earlier peels showed it had seen"},
             Case{"legacy-after-handshake",
                  "protocol error: byte 5 of its output is the legacy message 'p' after a v2 "
                  "handshake (v2 speaks R, P and D)"},
         }) {
        INFO(c.mode);
        const Game game = play({v2_bot(c.mode), bot("sleep")});
        CHECK(reason(game.result, 0) == c.reason);
        CHECK(game.result["winner"] == 1);
    }
}

TEST_CASE("e2e: the Python v2 example player makes legal peels", "[e2e][v2]") {
    CHECK(example_game("example_player_v2.py")["players"][0]["protocol"] == "v4");
}
