// Golden transcripts: every example session in protocol-v2.md is played through the host's own
// Referee (readers, rules, outbox), and must come out byte for byte as written.
//
// A transcript is a fenced block tagged `transcript`. Its first line sets the game
// ("seed 1 players 2"), with every two-letter string as the word list; then each line is
// `N> bytes` (player N sends), `N< bytes` (player N must receive exactly this next), or
// `! game_timeout` / `! ready_timeout` (a host timer fires) or `! abort` (the host is told to
// stop). Players count from 1. A match of v004 players goes on with `! next_game seed N` (the
// game is over; the next is dealt by seed N, and each player that may stay continues in its
// process, as a lineup seats it: match/lineup.hpp) and ends with `! bye` (each player that may
// stay is told there is no next game).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "referee/referee.hpp"
#include "tests/support/memory_log.hpp"
#include "tests/support/staircase.hpp"

using namespace bg;

namespace {

std::vector<std::vector<std::string>> transcripts(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<std::vector<std::string>> found;
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line == "```transcript") {
            inside = true;
            found.emplace_back();
        } else if (inside && line == "```") {
            inside = false;
        } else if (inside) {
            found.back().push_back(line);
        }
    }
    return found;
}

// Plays one transcript; with `print`, writes it out with what the host really sent instead of
// checking (to write a new example).
void play(const std::vector<std::string>& lines, bool print) {
    REQUIRE(!lines.empty());
    std::istringstream header(lines[0]);
    std::string word;
    GameSetup setup;
    while (header >> word) {
        if (word == "seed")
            header >> setup.game.seed;
        if (word == "players")
            header >> setup.game.players;
    }
    for (int p = 0; p < setup.game.players; ++p)
        setup.commands.push_back("player " + std::to_string(p + 1));
    setup.dialect = LegacyDialect::v1;
    std::deque<MemoryLog> logs(1);
    auto referee = std::make_unique<Referee>(setup, two_letter_words(), logs.back());
    std::vector<std::deque<std::string>> sent(setup.commands.size());
    const auto take = [&](const Effects& effects) {
        for (const auto& effect : effects)
            if (const auto* send = std::get_if<effect::Send>(&effect))
                sent[static_cast<std::size_t>(send->player)].push_back(send->bytes);
    };
    const auto handle = [&](Arrival arrival) { take(referee->take(std::move(arrival), 0)); };
    take(referee->start(0));
    // Which game of its process each player is in, and the readers of those that may stay.
    std::vector<int> process_games(setup.commands.size(), 1);
    const auto staying = [&] {
        std::vector<std::optional<PlayerReader>> readers;
        for (std::size_t p = 0; p < sent.size(); ++p)
            readers.push_back(referee->release_reader(static_cast<PlayerId>(p)));
        return readers;
    };
    const auto flush = [&] {
        for (std::size_t p = 0; p < sent.size(); ++p)
            for (; !sent[p].empty(); sent[p].pop_front())
                std::cout << p + 1 << "< " << sent[p].front() << "\n";
    };
    if (print)
        std::cout << lines[0] << "\n";
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        INFO("transcript line " << i + 1 << ": " << line);
        if (line == "! abort") {  // the host was told to stop (SIGTERM)
            if (print)
                std::cout << line << "\n";
            handle(arrival::Signalled{15, "SIGTERM"});
            continue;
        }
        if (line.starts_with("! next_game seed ")) {
            if (print)
                std::cout << line << "\n";
            REQUIRE(referee->over());
            auto readers = staying();
            setup.game.seed = std::stoull(line.substr(17));
            setup.game.continuing.assign(sent.size(), std::nullopt);
            for (std::size_t p = 0; p < sent.size(); ++p)
                process_games[p] = readers[p] ? process_games[p] + 1 : 1;
            for (std::size_t p = 0; p < sent.size(); ++p)
                if (readers[p])
                    setup.game.continuing[p] = Continuing{protocol_v4, process_games[p]};
            logs.emplace_back();
            referee = std::make_unique<Referee>(setup, two_letter_words(), logs.back());
            for (std::size_t p = 0; p < sent.size(); ++p)
                if (readers[p])
                    referee->continue_reader(static_cast<PlayerId>(p), std::move(*readers[p]));
            take(referee->start(0));
            continue;
        }
        if (line == "! bye") {
            if (print)
                std::cout << line << "\n";
            REQUIRE(referee->over());
            const auto readers = staying();
            for (std::size_t p = 0; p < sent.size(); ++p)
                if (readers[p])
                    sent[p].push_back("B.");
            continue;
        }
        if (line == "! game_timeout" || line == "! ready_timeout") {
            if (print)
                std::cout << line << "\n";
            handle(arrival::TimerFired{
                {line == "! game_timeout" ? GameTimer::Kind::game : GameTimer::Kind::ready, 0}});
            continue;
        }
        REQUIRE(line.size() >= 3);
        const auto player = static_cast<std::size_t>(line[0] - '1');
        REQUIRE(player < sent.size());
        const std::string bytes = line.substr(3);
        if (line[1] == '>') {
            if (print) {
                flush();
                std::cout << line << "\n";
            }
            handle(arrival::Output{static_cast<PlayerId>(player), bytes});
        } else if (!print) {
            REQUIRE(line[1] == '<');
            REQUIRE_FALSE(sent[player].empty());
            CHECK(sent[player].front() == bytes);
            sent[player].pop_front();
        }
    }
    if (print) {
        flush();
        return;
    }
    for (std::size_t p = 0; p < sent.size(); ++p) {
        INFO("player " << p + 1 << " was sent more than the transcript shows");
        CHECK(sent[p].empty());
    }
}

}  // namespace

TEST_CASE("transcripts: every example in protocol-v2.md is what the host sends", "[transcript]") {
    const auto all = transcripts(BG_SOURCE_DIR "/protocol-v2.md");
    REQUIRE(all.size() >= 2);  // the v2 race and the mixed game
    const bool print = std::getenv("BG_PRINT_TRANSCRIPTS") != nullptr;
    for (const auto& lines : all)
        play(lines, print);
}

TEST_CASE("transcripts: the examples of v002 as first published are still what the host sends",
          "[transcript][versions]") {
    // The document as published (commit c847d7a), kept whole: a published version never
    // changes (protocol-v2.md, "Versions").
    const auto all = transcripts(BG_SOURCE_DIR "/tests/data/protocol-v002-as-published.md");
    REQUIRE(all.size() == 2);
    for (const auto& lines : all)
        play(lines, false);
}
