// End-to-end: `host --check` against real bots. Every bundled bot passes; a bot broken in one
// way fails, and the hint names that way. The checker shares its loop: two checks run at once
// on one, and one ended early leaves nothing running.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "checker/checker.hpp"
#include "core/dictionary.hpp"
#include "tests/support/game.hpp"
#include "transport/handles.hpp"
#include "transport/process_seat.hpp"

using namespace bg;
using namespace bg::test;

namespace {

Run check(const std::string& command, const std::vector<std::string>& options = {}) {
    std::vector<std::string> argv = {host, "--check"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back(command);
    return run(argv, 90);
}

std::string checker_bot(const std::string& mode, const std::string& protocol) {
    return python_bot("checker_bot", mode, protocol);
}

// The processes whose command line holds `tag`, by pid.
std::string processes_named(const std::string& tag) {
    std::string found;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        const std::string line((std::istreambuf_iterator<char>(in)), {});
        if (line.find(tag) != std::string::npos)
            found += pid + " ";
    }
    return found;
}

}  // namespace

TEST_CASE("check: every bundled bot passes every check", "[e2e][check]") {
    for (const std::string& bot : std::vector<std::string>{
             reference_bot, reference_bot + " --legacy",
             "python3 " BG_SOURCE_DIR "/players/example_player.py" BG_EXAMPLE_WORDS,
             "python3 " BG_SOURCE_DIR "/players/example_player_v2.py" BG_EXAMPLE_WORDS,
             BG_EXAMPLE_CPP_PATH BG_EXAMPLE_WORDS, BG_EXAMPLE_GO_PATH BG_EXAMPLE_WORDS,
             BG_NODE " " BG_SOURCE_DIR "/players/example_player.js" BG_EXAMPLE_WORDS}) {
        INFO(bot);
        const Run r = check(bot);
        INFO(r.out << r.err);
        CHECK(r.status == 0);
        CHECK(r.out.find("FAIL") == std::string::npos);
        // The reference bot and the Python and C++ examples stay for a match: their second game
        // is checked too.
        const bool stays = r.out.find("(protocol v004)") != std::string::npos;
        CHECK(stays ==
              (bot == reference_bot || bot.find("example_player_v2") != std::string::npos ||
               bot.find("example_player_cpp") != std::string::npos));
        CHECK(r.out.find(stays
                             ? "11 of 11 checks passed. It is ready to play."
                             : "9 of 9 checks passed. It is ready to play.") != std::string::npos);
        CHECK(r.err.find("libuv handles left open") == std::string::npos);
    }
}

TEST_CASE("check: a bot strict to v002 as first published passes, and so does one of v003",
          "[e2e][check][versions]") {
    // strict_v002.py leaves at the first byte its version does not allow; the checker answers
    // each in its own version.
    for (const std::string version : {"v002", "v003"}) {
        const Run r = check(python_bot("strict_v002", version, "checker"));
        INFO(r.out << r.err);
        CHECK(r.status == 0);
        CHECK(r.out.find(fmt::format("(protocol {})", version)) != std::string::npos);
        CHECK(r.out.find("9 of 9 checks passed. It is ready to play.") != std::string::npos);
        // Its stderr, shown as [bot] lines: the v003 bot learnt its seat.
        const std::string shown = r.out + r.err;
        CHECK(shown.find("strict: " + version + " ends W") != std::string::npos);
        CHECK((shown.find("strict: seat 01 of 02") != std::string::npos) == (version == "v003"));
    }
}

TEST_CASE("check: a broken bot fails, with the hint for what is wrong", "[e2e][check]") {
    struct Case {
        std::string command;
        std::vector<std::string> options;
        std::string failed;  // the check that fails
        std::string hint;
    };
    // A short grace where the check waits out a bot that ignores SIGTERM; a ready timeout
    // only where the check is that it runs out, for a bot that never answers before it.
    const std::vector<std::string> quick = {"--kill-grace", "1000"};
    const std::vector<std::string> ends_in_3_s = {"--ready-timeout", "3", "--kill-grace", "1000"};
    for (const std::string& protocol : {std::string("v2"), std::string("legacy")}) {
        const std::vector<Case> cases = {
            {checker_bot("newline", protocol), quick, "answers the deal (ACT) with a peel",
             "a newline after a message"},
            {checker_bot("noflush", protocol),
             {"--ready-timeout", "1"},
             "says it is ready",
             "it does not flush its output"},
            // The check waits twice the ready timeout more for a late first message: the slow
            // bot's comes in the middle of that window (2 s to 6 s), a second after the timeout
            // at least and three before the window closes, less the bot's own start.
            {checker_bot("slow", protocol),
             {"--ready-timeout", "2"},
             "says it is ready",
             "A slow start"},
            {checker_bot("wronggrid", protocol), quick, "answers the deal (ACT) with a peel",
             "A grid must hold exactly the hand, every tile and no other: grid tiles are not the "
             "hand; missing from the grid: T (1)"},
            {"exec " + checker_bot("ignoreterm", protocol), quick, "exits at SIGTERM",
             "Ignoring SIGTERM: python3"},
            {"trap '' TERM; " + checker_bot("ok", protocol), quick, "exits at SIGTERM",
             "start your bot with exec"},
            {protocol == "v2" ? "printf v001; exec sleep 600" : "printf v002; exec sleep 600",
             ends_in_3_s, "says it is ready",
             protocol == "v2" ? "It asked for version 1" : "but said no R in 3 s"},
        };
        for (const auto& c : cases) {
            INFO(c.command);
            const Run r = check(c.command, c.options);
            INFO(r.out << r.err);
            CHECK(r.status == 1);
            const auto fail = r.out.find("FAIL  ");
            REQUIRE(fail != std::string::npos);
            const std::string failed_line = r.out.substr(fail, r.out.find('\n', fail) - fail);
            CHECK(failed_line.find(c.failed) != std::string::npos);
            CHECK(r.out.find("hint:     ") != std::string::npos);
            CHECK(r.out.find(c.hint, fail) != std::string::npos);
        }
    }
    // The end of a game is E only in v2: a legacy bot is ended by SIGTERM.
    const Run noexit = check(checker_bot("noexit", "v2"), quick);
    INFO(noexit.out);
    CHECK(noexit.status == 1);
    CHECK(noexit.out.find("FAIL  exits by itself at the end of the game") != std::string::npos);
    CHECK(noexit.out.find("Not exiting at E") != std::string::npos);
    CHECK(check(checker_bot("noexit", "legacy"), quick).status == 0);
    CHECK(check(checker_bot("ok", "v2"), quick).status == 0);
}

TEST_CASE(
    "check: a bot that dumps again at every refusal, without end, is watched for a while "
    "and passes",
    "[e2e][check]") {
    // Refused again each time, as is its right; the check watches it for its 1.5 s and goes
    // on, where it once answered every dump and never ended (an arena's check held open).
    for (const std::string protocol : {"v2", "legacy"}) {
        INFO(protocol);
        const Run r = check(checker_bot("redump", protocol), {"--kill-grace", "1000"});
        INFO(r.out << r.err);
        CHECK(r.status == 0);
        CHECK(r.out.find("pass  after a refused dump, keeps its tile and plays on by the rules") !=
              std::string::npos);
    }
}

TEST_CASE("check: a v004 bot is checked across two games", "[e2e][check][v004]") {
    const std::vector<std::string> quick = {"--ready-timeout", "2", "--kill-grace", "500"};
    const Run ok = check(checker_bot("ok", "v4"), quick);
    INFO(ok.out);
    CHECK(ok.status == 0);
    CHECK(ok.out.find("pass  stays after E, and answers G (its next game) with R") !=
          std::string::npos);
    CHECK(ok.out.find("pass  plays its next game from its new hand") != std::string::npos);
    CHECK(ok.out.find("pass  exits by itself when told there is no next game") !=
          std::string::npos);
    CHECK(ok.out.find("11 of 11 checks passed.") != std::string::npos);
    // One that leaves at E, as v002 and v003 bots do, and one that numbers its next game's peels
    // on from the last.
    const Run leaves = check(checker_bot("leave", "v4"), quick);
    INFO(leaves.out);
    CHECK(leaves.status == 1);
    CHECK(leaves.out.find("FAIL  stays after E") != std::string::npos);
    CHECK(leaves.out.find("It exited after E: a v004 bot stays until it is told B.") !=
          std::string::npos);
    const Run old = check(checker_bot("oldnumbers", "v4"), quick);
    INFO(old.out);
    CHECK(old.status == 1);
    CHECK(old.out.find("FAIL  plays its next game from its new hand") != std::string::npos);
    CHECK(old.out.find("forget the last game's hand and peel numbers at G") != std::string::npos);
}

TEST_CASE("check: the example players in four languages play one whole game", "[e2e][check]") {
    // On the default word list, as a bot author would run them: the same play in Python, C++,
    // Go and JavaScript, beside the reference bot.
    const Run r = run(
        {host, "--json", "--seed", "11", "--game-timeout", "60",
         "python3 " BG_SOURCE_DIR "/players/example_player_v2.py" BG_EXAMPLE_WORDS,
         BG_EXAMPLE_CPP_PATH BG_EXAMPLE_WORDS, BG_EXAMPLE_GO_PATH BG_EXAMPLE_WORDS,
         BG_NODE " " BG_SOURCE_DIR "/players/example_player.js" BG_EXAMPLE_WORDS, reference_bot},
        120);
    INFO(r.err);
    REQUIRE(r.status == 0);
    const nlohmann::json result = nlohmann::json::parse(r.out);
    CHECK((result["end"] == "bananas" || result["end"] == "game_timeout"));
    int peels = 0;
    for (const auto& p : result["players"]) {
        INFO(p.dump());
        CHECK(p["outcome"] != "disqualified");
        // The Python and C++ examples and the reference bot ask for v004, the others v002.
        CHECK((p["protocol"] == "v2" || p["protocol"] == "v4"));
        peels += p["peels"].get<int>();
    }
    CHECK(peels > 0);
}

TEST_CASE("check: one bot at a time", "[e2e][check]") {
    const Run two = run({host, "--check", "true", "true"});
    CHECK(two.status == 2);
    CHECK(two.err.find("--check checks one bot: give one command, not 2") != std::string::npos);
    // What only a game uses is refused, not ignored.
    const Run seeded = run({host, "--check", "--seed", "3", "true"});
    CHECK(seeded.status == 2);
    CHECK(seeded.err.find("--check plays scripted scenarios, not a game: --seed does not apply") !=
          std::string::npos);
    CHECK(run({host, "--check", "--json", "true"}).status == 2);
    CHECK(run({host, "--check", "--replay", "x.log"}).status == 2);
}

TEST_CASE(
    "check: two checks share one loop, each with its own outcome, and one ended early "
    "leaves no process",
    "[e2e][check]") {
    const Dictionary words = Dictionary::from_text("cat\ncats\nact\nacts\n");
    EventLoop loop;
    const auto options = [&](const std::string& command) {
        checker::Options o;
        o.command = command;
        o.dictionary = &words;
        o.wait_ms = 5'000;
        o.grace_ms = 1'000;
        o.seat = [command](uv_loop_t* l) {
            Launch launch;
            launch.argv = {"/bin/sh", "-c", command};
            return std::move(process_seats(l, {launch})[0]);
        };
        o.group = [](const Seat& seat) { return static_cast<const ProcessSeat&>(seat).group(); };
        return o;
    };
    // A good bot and a broken one, at once: their reports are their own.
    std::ostringstream good_report, broken_report;
    std::optional<checker::Outcome> good, broken;
    const std::string silent = "exec python3 -c 'import time; time.sleep(30)' " + scratch("silent");
    checker::Run good_run(loop.get(), options(reference_bot), good_report,
                          [&](const checker::Outcome& o) { good = o; });
    checker::Run broken_run(loop.get(), options(checker_bot("wronggrid", "v2")), broken_report,
                            [&](const checker::Outcome& o) { broken = o; });
    // A third, of a bot that says nothing, ended as soon as the others are done.
    std::ostringstream silent_report;
    auto cut = std::make_unique<checker::Run>(loop.get(), options(silent), silent_report,
                                              [](const checker::Outcome&) { FAIL("not cut"); });
    while (!good || !broken)
        loop.run_once();
    INFO(good_report.str());
    INFO(broken_report.str());
    CHECK(good->failed == 0);
    CHECK(good->passed >= 10);
    CHECK(good_report.str().find("It is ready to play.") != std::string::npos);
    CHECK(broken->failed > 0);
    REQUIRE(broken->first_failed);
    CHECK(broken_report.str().find("FAIL") != std::string::npos);
    CHECK(good_report.str().find("FAIL") == std::string::npos);
    // Still waiting for the silent bot's first word (it has 5 s): ended now, its process too.
    CHECK(silent_report.str().find("checks passed") == std::string::npos);
    CHECK(!processes_named(scratch("silent")).empty());
    cut.reset();
    for (int turns = 0; turns < 400 && !processes_named(scratch("silent")).empty(); ++turns)
        loop.run_once();  // the loop ends what the seat closed
    CHECK(processes_named(scratch("silent")).empty());
}

TEST_CASE(
    "check: a bot at a person's pace fails a check that waits for its moves as for its first "
    "word, and passes one that waits for them longer",
    "[e2e][check]") {
    // The reference bot at level 3 takes 3 s over its first grid: within the arena's wait for a
    // move (move_ms), not within the ready timeout (wait_ms).
    const Dictionary words = Dictionary::from_text("cat\ncats\nact\nacts\n");
    const auto check_with = [&](std::uint64_t move_ms) {
        EventLoop loop;
        checker::Options o;
        o.command = reference_bot + " --level 3";
        o.dictionary = &words;
        o.wait_ms = 2'000;
        o.move_ms = move_ms;
        o.grace_ms = 1'000;
        o.seat = [command = o.command](uv_loop_t* l) {
            Launch launch;
            launch.argv = {"/bin/sh", "-c", command};
            return std::move(process_seats(l, {launch})[0]);
        };
        o.group = [](const Seat& seat) { return static_cast<const ProcessSeat&>(seat).group(); };
        std::ostringstream report;
        std::optional<checker::Outcome> outcome;
        checker::Run run(loop.get(), o, report,
                         [&](const checker::Outcome& got) { outcome = got; });
        while (!outcome)
            loop.run_once();
        INFO(report.str());
        return std::pair{*outcome, report.str()};
    };
    const auto [hurried, hurried_report] = check_with(0);
    CHECK(hurried.failed > 0);
    CHECK(hurried_report.find("It made no move in 2 s.") != std::string::npos);
    const auto [waited, waited_report] = check_with(10'000);
    INFO(waited_report);
    CHECK(waited.failed == 0);
    CHECK(waited.passed >= 7);
}
