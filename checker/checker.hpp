// The conformance checker behind `host --check CMD`: it plays the host's part against one bot,
// alone, through scripted scenarios (the handshake, the deal, a peel accepted, a stale peel, a
// dump and a refused dump, the end of a game, SIGTERM), and says of each check whether it
// passed, with the bytes the bot sent, what was expected, and a hint at the usual mistake.
// The bot is started as in a game (through sh -c, in the sandbox unless told otherwise), and
// its protocol is told by its first byte, as in a game.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>

#include "compat/legacy.hpp"
#include "core/dictionary.hpp"
#include "transport/process_seat.hpp"

namespace bg::checker {

struct Options {
    std::string command;  // as given, for the report
    // A seat for the bot in each scenario, started as a game's player is (its sandbox, its
    // cgroup): a venue's (match/venue.hpp).
    std::function<std::unique_ptr<ProcessSeat>(uv_loop_t* loop)> seat;
    const Dictionary* dictionary = nullptr;
    LegacyDialect legacy_dialect = LegacyDialect::v1;  // what a legacy bot is sent
    std::uint64_t wait_ms = 10'000;                    // for its first message and for each move
    std::uint64_t grace_ms = 2'000;  // to exit at the end of a game, or after SIGTERM
};

// One check's outcome.
struct Check {
    explicit Check(std::string name) : name(std::move(name)) {}

    std::string name;
    bool passed = false;
    std::string sent;      // the bot's bytes that decided it, quoted
    std::string expected;  // on a failure
    std::string hint;      // on a failure: the likely mistake, and its cure
};

// Runs every scenario, writing each check to `out` as it is decided; the number that failed.
int run(const Options& options, std::ostream& out);

// The words the scenarios deal (in upper case): a word list without them cannot be checked.
bool has_scenario_words(const Dictionary& dictionary, std::string* missing);

}  // namespace bg::checker
