// What the end-to-end tests share: the programs under test, the test bots, and a game played
// by the real host with the two-letter word list, a fixed seed, short clocks and --json
// (each unless the test gives its own).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run.hpp"

namespace bg::test {

inline const std::string host = BG_HOST_PATH;
inline const std::string reference_bot = BG_REFERENCE_BOT_PATH;
inline const std::string two_letters = BG_TESTS_DIR "/data/two_letters.txt";
// The host's default word list as a bundled example player may be told it: named on its command
// line with --dict (without it, an example reads the list $BANANAGRAMS_WORDLIST names).
#define BG_EXAMPLE_WORDS " --dict " BG_SOURCE_DIR "/wordlist/scowl-80.txt"

// A command for tests/bots/NAME.py in MODE (not exec'd: sh stays in between).
std::string python_bot(const std::string& name, const std::string& mode,
                       const std::string& extra = "");
// A name of this test process's own, for files and tags.
std::string scratch(const std::string& name);

struct Game {
    Run run;
    nlohmann::json result;
};

// Plays a game to its end; the result must parse, and every libuv handle must have closed.
// `prefix` goes before the host (env NAME=VALUE, say).
Game play(const std::vector<std::string>& players, std::vector<std::string> options = {},
          const std::vector<std::string>& prefix = {});

// The lines that player `player` (from 0) wrote to its stderr starting with `marker`, without
// it, as the host passed them on ("[player N] ...").
std::vector<std::string> player_lines(const Run& run, int player, const std::string& marker);
// Player `player`'s reason for being out, or "".
std::string reason(const nlohmann::json& result, int player);
std::vector<nlohmann::json> log_records(const std::string& path);
int count_decisions(const std::vector<nlohmann::json>& records, const std::string& type,
                    int player);

}  // namespace bg::test
