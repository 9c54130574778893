// End-to-end: v004 bots that stay for the games of host --games, with real processes: kept from
// game to game (one process, seen by the token it writes each game), each game's log replaying
// alone, and every fault (a crash, a hang, a leak, moves sent late) started afresh with nothing
// left running.
#include <fmt/format.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "tests/support/game.hpp"

using namespace bg::test;
using nlohmann::json;

namespace {

std::string v004_bot(const std::string& mode, const std::string& tag) {
    return "exec " + python_bot("v004_bot", mode, "--tag " + tag);
}

// A series' results (one JSON line a game) and, for each player, the token of the process that
// played each of its games ("[player N] life TOKEN game G ...").
struct Series {
    Run run;
    std::vector<json> results;
    std::map<int, std::vector<std::string>> lives;  // player (from 1) -> a token a game
};

Series play_series(const std::vector<std::string>& players, int games,
                   std::vector<std::string> options = {}, const std::string& logs = "") {
    std::vector<std::string> args = {host,     "--json",    "--quiet",
                                     "--dict", two_letters, "--seed",
                                     "5",      "--games",   std::to_string(games)};
    if (!logs.empty()) {
        args.push_back("--logs");
        args.push_back(logs);
    }
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), players.begin(), players.end());
    Series series{run(args, 120), {}, {}};
    std::istringstream lines(series.run.out);
    for (std::string line; std::getline(lines, line);)
        series.results.push_back(json::parse(line));
    static const std::regex life(R"(\[player (\d+)\] life ([0-9a-f]+) game (\d+))");
    std::istringstream err(series.run.err);
    for (std::string line; std::getline(err, line);) {
        std::smatch m;
        if (std::regex_search(line, m, life))
            series.lives[std::stoi(m[1])].push_back(m[2]);
    }
    return series;
}

int process_game(const json& result, int player) {
    return result["players"][player]["process_game"].get<int>();
}

}  // namespace

TEST_CASE("v004: a bot that asks for it stays for every game of host --games, each log alone",
          "[e2e][v004]") {
    const std::string tag = scratch("v004-stay"), logs = scratch("v004-stay.logs");
    std::filesystem::remove_all(logs);
    const Series s = play_series({v004_bot("stay", tag), v004_bot("late-moves", tag)}, 4, {}, logs);
    INFO(s.run.err);
    REQUIRE(s.run.status == 0);
    REQUIRE(s.results.size() == 4);
    for (int g = 0; g < 4; ++g) {
        INFO("game " << g + 1);
        CHECK(s.results[g]["end"] == "bananas");
        for (int p = 0; p < 2; ++p) {
            CHECK(s.results[g]["players"][p]["protocol"] == "v4");
            // Its process's game g + 1: the same process all along, moves sent after E (a peel
            // cut in two among them) ignored, never judged.
            CHECK(process_game(s.results[g], p) == g + 1);
            CHECK(s.results[g]["players"][p]["reason"].is_null());
        }
        // Each game's log replays alone, its continuing players said in its start record.
        const std::string log = fmt::format("{}/game-{:06}.jsonl", logs, g + 1);
        const Run replay = run({host, "--replay", log, "--json"});
        CHECK(replay.status == 0);
        CHECK(json::parse(replay.out, nullptr, false) == s.results[g]);
        std::ifstream in(log);
        std::string first;
        std::getline(in, first);
        const json continuing = json::parse(first)["start"]["continuing"];
        CHECK(continuing[0].is_null() == (g == 0));
    }
    for (int p = 1; p <= 2; ++p) {
        REQUIRE(s.lives.at(p).size() == 4);
        CHECK(std::all_of(s.lives.at(p).begin(), s.lives.at(p).end(),
                          [&](const std::string& life) { return life == s.lives.at(p)[0]; }));
    }
    CHECK(s.lives.at(1)[0] != s.lives.at(2)[0]);
    // Told B., they left: nothing is left running.
    CHECK(processes_tagged(tag).empty());
    std::filesystem::remove_all(logs);
}

TEST_CASE("v004: a kept process's CPU time is each game's own, and so is its peak where it resets",
          "[e2e][v004]") {
    const std::string tag = scratch("v004-usage"), logs = scratch("v004-usage.logs");
    std::filesystem::remove_all(logs);
    // Its first game alone spends 0.3 s of CPU and holds 64 MiB for a moment, before its first
    // peel; its opponent never moves, so that no game ends before it has.
    const Series s = play_series({v004_bot("spike", tag), v004_bot("idle", tag)}, 3,
                                 {"--game-timeout", "3"}, logs);
    INFO(s.run.err);
    REQUIRE(s.run.status == 0);
    REQUIRE(s.results.size() == 3);
    const auto used = [&](int game, const char* what) {
        return s.results[game]["players"][0][what].get<double>();
    };
    CHECK(used(0, "cpu_ms") >= 250);
    CHECK(used(1, "cpu_ms") < 150);
    CHECK(used(2, "cpu_ms") < 150);
    CHECK(used(0, "memory_peak_bytes") >= 64 << 20);
    // cgroup v1 resets a peak at each game's start; v2 cannot (docs/host.md, "Bots that stay").
    std::ifstream in(logs + "/game-000002.jsonl");
    std::string first;
    std::getline(in, first);
    const std::string kind = json::parse(first)["start"]["shares"]["kind"];
    INFO("cgroups: " << kind);
    if (kind == "cgroup v1")
        CHECK(used(1, "memory_peak_bytes") < 48 << 20);
    else if (kind == "cgroup v2")
        CHECK(used(1, "memory_peak_bytes") >= 64 << 20);
    CHECK(processes_tagged(tag).empty());
    std::filesystem::remove_all(logs);
}

TEST_CASE("v004: a signal mid-series ends the game it comes in and every kept process",
          "[e2e][v004]") {
    const std::string tag = scratch("v004-signal");
    auto background = start({host, "--json", "--quiet", "--dict", two_letters, "--games", "5",
                             "--game-timeout", "1", v004_bot("idle", tag), v004_bot("idle", tag)});
    // Into its second game: the processes kept from the first.
    REQUIRE(wait_for_tagged(tag));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ::kill(background.pid, SIGINT);
    const Run r = background.wait(60);
    CHECK(r.status == 128 + SIGINT);
    std::istringstream lines(r.out);
    std::vector<json> results;
    for (std::string line; std::getline(lines, line);)
        results.push_back(json::parse(line));
    REQUIRE(results.size() >= 2);
    CHECK(results.back()["end"] == "aborted");
    CHECK(process_game(results.back(), 0) == static_cast<int>(results.size()));
    CHECK(processes_tagged(tag).empty());
}

TEST_CASE("v004: a bot that crashes, hangs or leaks between games is started afresh",
          "[e2e][v004]") {
    struct Case {
        const char* mode;
        std::vector<std::string> options;
    };
    for (const auto& c : {Case{"crash-after-1", {}}, Case{"hang-after-1", {"--ready-timeout", "1"}},
                          Case{"leak", {"--memory", "100"}}}) {
        INFO(c.mode);
        const std::string tag = scratch(std::string("v004-") + c.mode);
        const int games = 7;
        const Series s =
            play_series({v004_bot(c.mode, tag), v004_bot("stay", tag)}, games, c.options);
        INFO(s.run.err);
        CHECK(s.run.status == 0);
        REQUIRE(s.results.size() == games);
        // The faulty bot is out of at most one game a fault (the one whose G its process could
        // not answer), and a fresh process (its process's game 1) plays a later game.
        int out = 0, fresh_later = 0;
        for (int g = 0; g < games; ++g) {
            const auto& faulty = s.results[g]["players"][0];
            if (faulty["outcome"] == "disqualified") {
                ++out;
                CHECK(process_game(s.results[g], 0) > 1);
            }
            if (g > 0 && process_game(s.results[g], 0) == 1)
                ++fresh_later;
            // The other bot stays throughout.
            CHECK(process_game(s.results[g], 1) == g + 1);
        }
        CHECK(fresh_later >= 1);
        CHECK(out <= fresh_later + 1);
        // A crash or a hang ends a process's first game, a leak its fifth at the latest (24 MiB
        // more a game, under 100 MiB).
        if (std::string(c.mode) != "leak")
            CHECK(fresh_later >= 2);
        CHECK(s.lives.at(1).size() >= static_cast<std::size_t>(games - out));
        CHECK(processes_tagged(tag).empty());
    }
}

TEST_CASE("v004: --fresh-bots starts every bot for each game, --games-per-process recycles",
          "[e2e][v004]") {
    const std::string tag = scratch("v004-fresh");
    const Series fresh =
        play_series({v004_bot("stay", tag), v004_bot("stay", tag)}, 3, {"--fresh-bots"});
    INFO(fresh.run.err);
    REQUIRE(fresh.results.size() == 3);
    for (const auto& result : fresh.results)
        for (int p = 0; p < 2; ++p)
            CHECK(process_game(result, p) == 1);
    std::set<std::string> lives(fresh.lives.at(1).begin(), fresh.lives.at(1).end());
    CHECK(lives.size() == 3);

    const Series recycled = play_series({v004_bot("stay", tag), v004_bot("stay", tag)}, 5,
                                        {"--games-per-process", "2"});
    INFO(recycled.run.err);
    REQUIRE(recycled.results.size() == 5);
    for (int g = 0; g < 5; ++g)
        for (int p = 0; p < 2; ++p)
            CHECK(process_game(recycled.results[g], p) == g % 2 + 1);
    CHECK(std::set<std::string>(recycled.lives.at(2).begin(), recycled.lives.at(2).end()).size() ==
          3);
    CHECK(processes_tagged(tag).empty());

    const Run refused =
        run({host, "--fresh-bots", "--games-per-process", "2", "--games", "2", "true", "true"});
    CHECK(refused.status == 2);
    CHECK(refused.err.find("--games-per-process does not go with it") != std::string::npos);
}

TEST_CASE("v004: a one-game host tells a v004 bot B. after its E, and v003 bots play as before",
          "[e2e][v004]") {
    const std::string tag = scratch("v004-one");
    // The bot leaves at B. (or the end of its input) with status 0: its exit is no fault.
    const Series one =
        play_series({v004_bot("stay", tag), "exec " + python_bot("v2_bot", "staircase")}, 1);
    INFO(one.run.err);
    REQUIRE(one.results.size() == 1);
    CHECK(one.results[0]["end"] == "bananas");
    CHECK(one.results[0]["players"][0]["protocol"] == "v4");
    CHECK(one.results[0]["players"][1]["protocol"] == "v3");
    // The v003 bot is started afresh for each game; the v004 one stays.
    const Series mixed =
        play_series({v004_bot("stay", tag), "exec " + python_bot("v2_bot", "staircase")}, 3);
    REQUIRE(mixed.results.size() == 3);
    for (int g = 0; g < 3; ++g) {
        CHECK(process_game(mixed.results[g], 0) == g + 1);
        CHECK(process_game(mixed.results[g], 1) == 1);
    }
    CHECK(processes_tagged(tag).empty());
}

namespace {

const std::string tournament = BG_TOURNAMENT_PATH;

// A tournament's games, as games --json lists them.
json tournament_games(const std::string& db) {
    const Run r = run({tournament, "games", "--db", db, "--json"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    return json::parse(r.out);
}

void remove_db(const std::string& db) {
    for (const char* suffix : {"", "-wal", "-shm"})
        std::remove((db + suffix).c_str());
    std::filesystem::remove_all(db + ".logs");
}

}  // namespace

// Each game's hands by seat with the process that was dealt each (LIFE): the hands as its log
// says they were dealt, the process from the line its player wrote before it said it was ready
// ("life LIFE game N seat ...", in the game's file: the host passes on what a kept process
// wrote in a game with that game). Not from its "life LIFE hand" line: a player may write that
// one after its game has ended, when an opponent that peels everything ends it first.
std::vector<std::vector<std::pair<std::string, std::string>>> dealt(const json& games) {
    static const std::regex line(R"(life ([0-9a-f]+) game )");
    std::vector<std::vector<std::pair<std::string, std::string>>> all;
    for (const auto& game : games) {
        const std::string log = game["log"].get<std::string>();
        json hands;
        std::ifstream events(log);
        for (std::string text; std::getline(events, text);) {
            const json event = json::parse(text);
            if (event.contains("decision") && event["decision"]["type"] == "hands_dealt")
                hands = event["decision"]["hands"];
        }
        const std::string stem = log.substr(0, log.size() - std::string(".jsonl").size());
        auto& seats = all.emplace_back();
        for (std::size_t seat = 0; seat < game["seats"].size() && seat < hands.size(); ++seat) {
            std::ifstream err(fmt::format("{}.player-{}.stderr", stem, seat + 1));
            for (std::string text; std::getline(err, text);) {
                std::smatch m;
                if (std::regex_search(text, m, line)) {
                    seats.emplace_back(m[1], hands[seat].get<std::string>());
                    break;
                }
            }
        }
    }
    return all;
}

TEST_CASE(
    "v004: a tournament keeps a table's v004 bots from game to game, each game alone, and no "
    "process plays a deal twice",
    "[e2e][v004][tournament]") {
    const std::string db = scratch("v004-tournament.db"), tag = scratch("v004-tournament");
    remove_db(db);
    const Run r = run({tournament, "run", "--db", db, "--dict", two_letters, "--deals", "3",
                       "--concurrency", "1", "--logs", db + ".logs", "--json", "--bot",
                       "a=" + v004_bot("stay", tag), "--bot", "b=" + v004_bot("late-moves", tag)},
                      120);
    INFO(r.err);
    REQUIRE(r.status == 0);
    const json games = tournament_games(db);
    REQUIRE(games.size() == 6);
    // One lane plays the table's six games: the three deals' first rotations by one process of
    // each bot, then their second rotations by a fresh one (told B., not restarted): a process
    // that played a deal would know the hand its opponent now holds and the tiles it is to get.
    for (std::size_t g = 0; g < games.size(); ++g) {
        INFO("game " << g + 1);
        CHECK(games[g]["end"] == "bananas");
        for (const auto& seat : games[g]["seats"]) {
            CHECK(seat["process_game"] == games[g]["deal"].get<int>() + 1);
            CHECK(seat["restarted"] == false);
            CHECK(seat["reason"].is_null());
        }
        // Its log replays alone to its result.
        const Run replay = run({host, "--replay", games[g]["log"].get<std::string>(), "--json"});
        CHECK(replay.status == 0);
        const json result = json::parse(replay.out, nullptr, false);
        CHECK(result["winner"] == games[g]["winner_seat"]);
    }
    for (const auto& bot : json::parse(r.out)["bots"])
        CHECK(bot["restarts"] == 0);
    // What a process remembers: no hand it was dealt is one that an opponent of it held in any
    // game it played (another rotation of a deal deals that deal's hands to other seats).
    std::map<std::string, std::set<std::string>> own, opponents;
    for (const auto& seats : dealt(games)) {
        REQUIRE(seats.size() == 2);
        for (const auto& [life, hand] : seats) {
            own[life].insert(hand);
            for (const auto& other : seats)
                if (other.first != life)
                    opponents[life].insert(other.second);
        }
    }
    CHECK(own.size() == 4);  // two processes a bot, each dealt three hands
    for (const auto& [life, hands] : own) {
        INFO("process " << life);
        CHECK(hands.size() == 3);
        for (const std::string& hand : hands)
            CHECK(opponents[life].count(hand) == 0);
    }
    CHECK(processes_tagged(tag).empty());

    // --fresh-bots: a process a game.
    remove_db(db);
    const Run fresh = run({tournament, "run", "--db", db, "--dict", two_letters, "--deals", "2",
                           "--concurrency", "1", "--fresh-bots", "--bot",
                           "a=" + v004_bot("stay", tag), "--bot", "b=" + v004_bot("stay", tag)},
                          120);
    INFO(fresh.err);
    REQUIRE(fresh.status == 0);
    for (const auto& game : tournament_games(db))
        for (const auto& seat : game["seats"])
            CHECK(seat["process_game"] == 1);
    CHECK(processes_tagged(tag).empty());
    remove_db(db);
}

TEST_CASE("v004: a tournament restarts a bot that crashes, hangs or leaks, and counts it",
          "[e2e][v004][tournament]") {
    for (const std::string mode : {"crash-after-1", "hang-after-1", "leak"}) {
        INFO(mode);
        const std::string db = scratch("v004-faults.db"), tag = scratch("v004-faults");
        remove_db(db);
        const Run r =
            run({tournament, "run", "--db", db, "--dict", two_letters, "--deals", "6",
                 "--concurrency", "1", "--ready-timeout", "1", "--memory", "100", "--json", "--bot",
                 "ok=" + v004_bot("stay", tag), "--bot", "faulty=" + v004_bot(mode, tag)},
                180);
        INFO(r.err);
        REQUIRE(r.status == 0);
        const json games = tournament_games(db);
        REQUIRE(games.size() == 12);
        int restarts = 0;
        for (std::size_t g = 0; g < games.size(); ++g)
            for (const auto& seat : games[g]["seats"]) {
                if (seat["bot"] == "ok")  // each deal's rotations by processes of their own
                    CHECK(seat["process_game"] == games[g]["deal"].get<int>() + 1);
                else if (seat["restarted"] == true) {
                    ++restarts;
                    CHECK(seat["process_game"] == 1);
                }
            }
        CHECK(restarts >= 1);
        // The standings count them, in the database as on the terminal.
        for (const auto& bot : json::parse(r.out)["bots"])
            CHECK(bot["restarts"] == (bot["name"] == "faulty" ? restarts : 0));
        const Run standings = run({tournament, "standings", "--db", db});
        CHECK(standings.out.find(fmt::format("faulty restarted {} time", restarts)) !=
              std::string::npos);
        CHECK(processes_tagged(tag).empty());
        remove_db(db);
    }
}

TEST_CASE(
    "v004: a runner stopped by SIGINT or killed by SIGKILL mid-match leaves nothing, and "
    "its resume plays on",
    "[e2e][v004][tournament]") {
    for (const int signal : {SIGINT, SIGKILL}) {
        INFO("signal " << signal);
        const std::string db = scratch("v004-killed.db"), tag = scratch("v004-killed");
        remove_db(db);
        // Idle bots stay, each game running to its time limit: the signal comes mid-match.
        Background runner =
            start({tournament, "run", "--db", db, "--dict", two_letters, "--deals", "3",
                   "--concurrency", "1", "--game-timeout", "1", "--bot",
                   "a=" + v004_bot("idle", tag), "--bot", "b=" + v004_bot("idle", tag)});
        bool two_done = false;
        for (int i = 0; i < 800 && !two_done; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
            const Run listed = run({tournament, "games", "--db", db, "--json"});
            if (listed.status != 0)
                continue;
            int done = 0;
            for (const auto& g : json::parse(listed.out))
                done += g["state"] == "done";
            two_done = done >= 2;
        }
        REQUIRE(two_done);
        REQUIRE(::kill(runner.pid, signal) == 0);
        const Run stopped = runner.wait(30);
        if (signal == SIGINT)  // stopped: the standings, and every kept process told B. and gone
            CHECK(processes_tagged(tag).empty());
        // Killed, its kept processes die with it (each sandbox dies with its parent).
        CHECK(wait_until_untagged(tag));
        const Run resumed = run({tournament, "resume", "--db", db, "--json"}, 120);
        INFO(stopped.err << resumed.err);
        REQUIRE(resumed.status == 0);
        CHECK(json::parse(resumed.out)["done"] == 6);
        // The kept processes went with the stopped run: the resume's are started afresh (its
        // first game is the first of their processes), and none of them counts as a restart.
        for (const auto& g : tournament_games(db)) {
            INFO("game " << g["id"]);
            CHECK(g["state"] == "done");
            for (const auto& seat : g["seats"])
                CHECK(seat["restarted"] == false);
        }
        for (const auto& bot : json::parse(resumed.out)["bots"])
            CHECK(bot["restarts"] == 0);
        CHECK(processes_tagged(tag).empty());
        remove_db(db);
    }
}
