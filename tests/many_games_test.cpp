// Many games in one process: 200 matches of the bench's staircase bots at once on one libuv
// loop, each with its own Referee and its own event log, all played to their end, every handle
// closed and no process left; and one game whose bot is SIGKILLed in the middle ends for that
// game alone.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "match/match.hpp"
#include "record/replay.hpp"
#include "tests/support/run.hpp"
#include "transport/handles.hpp"
#include "transport/process_seat.hpp"
#include "wordlist/word_file.hpp"

using namespace bg;

TEST_CASE("many games: 200 at once on one loop, one of them killed in the middle", "[many]") {
    constexpr int games = 200;
    constexpr int victim = 77;
    const std::string tag = "bg-many-" + std::to_string(::getpid());
    const std::string victim_tag = tag + "-victim";
    auto loaded = load_word_file(BG_SOURCE_DIR "/tests/data/two_letters.txt");
    REQUIRE(std::holds_alternative<Dictionary>(loaded));
    const Dictionary& dictionary = std::get<Dictionary>(loaded);

    char folder_template[] = "/tmp/bg-many-XXXXXX";
    REQUIRE(::mkdtemp(folder_template) != nullptr);
    const std::string folder = folder_template;
    // The logs go with the test, passed or failed.
    const std::unique_ptr<const std::string, void (*)(const std::string*)> removed(
        &folder, [](const std::string* path) { std::filesystem::remove_all(*path); });
    const auto log_path = [&](int g) { return folder + "/game" + std::to_string(g) + ".jsonl"; };

    EventLoop loop;
    std::vector<std::FILE*> files;
    std::vector<std::unique_ptr<EventLog>> logs;
    std::vector<std::unique_ptr<Match>> matches;
    int done = 0;
    for (int g = 0; g < games; ++g) {
        GameSetup setup;
        setup.game = RulesConfig{static_cast<std::uint64_t>(g), 2, 1};
        const std::string bot = "exec " BG_PEEL_BOT_PATH " play " + tag;
        // The victim's players say ready and then never move: its game is still on when one of
        // them is killed.
        const std::string idle = "printf r; exec sh -c 'sleep 1000' " + victim_tag;
        setup.commands = g == victim ? std::vector{idle, idle} : std::vector{bot, bot};
        setup.dictionary = BG_SOURCE_DIR "/tests/data/two_letters.txt";
        setup.dictionary_fingerprint = dictionary.stats().fingerprint;
        files.push_back(std::fopen(log_path(g).c_str(), "we"));
        REQUIRE(files.back() != nullptr);
        logs.push_back(std::make_unique<EventLog>(files.back()));
        Match::Options options;
        options.on_done = [&done] { ++done; };
        matches.push_back(std::make_unique<Match>(
            loop.get(), setup, dictionary, *logs.back(),
            process_seats(loop.get(), unsandboxed_launches(setup.commands)), std::move(options)));
    }
    for (auto& match : matches)
        match->start();

    // Once the victim's hands are dealt, one of its players is SIGKILLed from outside.
    bool killed = false;
    Timer watch(loop.get(), [&] {
        if (matches[victim]->referee().game().dealt() && !killed) {
            const auto pids = test::processes_tagged(victim_tag);
            if (!pids.empty()) {
                ::kill(pids.front(), SIGKILL);
                killed = true;
            }
        }
        if (!killed)
            watch.start(5);
    });
    watch.start(5);
    loop.run();
    watch.close();

    CHECK(killed);
    CHECK(done == games);
    // Every handle of every match is closed: the loop has nothing left.
    CHECK(loop.close());
    CHECK(test::processes_tagged(tag).empty());
    CHECK(test::processes_tagged(victim_tag).empty());
    for (std::FILE* file : files)
        CHECK(std::fclose(file) == 0);

    int bananas = 0;
    for (int g = 0; g < games; ++g) {
        INFO("game " << g);
        const Referee& referee = matches[static_cast<std::size_t>(g)]->referee();
        const Game& game = referee.game();
        REQUIRE(game.over());
        if (g == victim) {
            CHECK(game.end() == End::last_player_standing);
            const auto out = std::count_if(
                game.players().begin(), game.players().end(), [](const PlayerState& p) {
                    return p.reason.find("killed by signal 9") != std::string::npos;
                });
            CHECK(out == 1);
        } else {
            // Untouched by the kill: played to bananas, nobody put out.
            bananas += game.end() == End::bananas ? 1 : 0;
            for (const auto& player : game.players())
                CHECK(player.phase != PlayerState::Phase::out);
        }
        // Its own log, and it replays to the same result.
        std::ifstream in(log_path(g));
        const auto replayed =
            replay_log(in, [&](const GameSetup&) -> std::variant<const Dictionary*, std::string> {
                return &dictionary;
            });
        REQUIRE(std::holds_alternative<Replayed>(replayed));
        CHECK(to_json(std::get<Replayed>(replayed).result) == to_json(referee.result()));
    }
    CHECK(bananas == games - 1);
    matches.clear();
}
