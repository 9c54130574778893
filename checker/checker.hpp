// The conformance checker behind `host --check CMD`: it plays the host's part against one bot,
// alone, through scripted scenarios (the handshake, the deal, a peel accepted, a stale peel, a
// dump and a refused dump, the end of a game, SIGTERM), and says of each check whether it
// passed, with the bytes the bot sent, what was expected, and a hint at the usual mistake.
// The bot is started as in a game (through sh -c, in the sandbox unless told otherwise), or
// (host --check remote:) connects to a remote seat for each scenario, as it would for each game
// of a tournament; its protocol is told by its first byte, as in a game. Over a connection the
// host cannot see the bot's processes: the checks of how it ends are not made.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "compat/legacy.hpp"
#include "core/dictionary.hpp"
#include "transport/handles.hpp"
#include "transport/seat.hpp"

namespace bg::checker {

struct Options {
    std::string command;  // as given, for the report
    // A seat for the bot in each scenario: a process started as a game's player is (its
    // sandbox, its cgroup: a venue's, match/venue.hpp), or a remote seat it connects to.
    std::function<std::unique_ptr<Seat>(uv_loop_t* loop)> seat;
    // The process group of a seat's player, where the host started it (to see what it runs);
    // none for a remote seat, whose processes are not the host's to see.
    std::function<int(const Seat& seat)> group;
    // A remote seat's: how long each scenario waits for the bot to connect (0: a process).
    std::uint64_t connect_ms = 0;
    const Dictionary* dictionary = nullptr;
    LegacyDialect legacy_dialect = LegacyDialect::v1;  // what a legacy bot is sent
    std::uint64_t wait_ms = 10'000;                    // for its first message and for each move
    // For each move, where that is longer than wait_ms (a bot at a person's pace: an arena's
    // check of a bot that plays as its games allow); 0: wait_ms.
    std::uint64_t move_ms = 0;
    std::uint64_t grace_ms = 2'000;  // to exit at the end of a game, or after SIGTERM
    // Where a line the bot wrote to stderr goes (none: the checker's own stderr, "[bot] ...").
    std::function<void(std::string_view line)> bot_log;
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

// What a run found.
struct Outcome {
    int passed = 0;
    int failed = 0;
    std::optional<Check> first_failed;  // the check that failed first, if any
};

// A run of every scenario on a loop it shares with whatever else runs there (an arena's
// matches and server), writing each check to `out` as it is decided. `done` is called once, from
// the loop, when the last scenario's bot is finished; the run may be destroyed then. Destroyed
// before, it ends at once: the scenario playing is cut short and its seat closed.
class Run {
  public:
    Run(uv_loop_t* loop, Options options, std::ostream& out,
        std::function<void(const Outcome&)> done);
    ~Run();
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

  private:
    struct State;
    std::unique_ptr<State> state_;
    std::function<void(const Outcome&)> done_;
    Timer told_;
};

// Runs every scenario on `loop`, writing each check to `out` as it is decided; the number that
// failed.
int run(EventLoop& loop, const Options& options, std::ostream& out);

// The words the scenarios deal (in upper case): a word list without them cannot be checked.
bool has_scenario_words(const Dictionary& dictionary, std::string* missing);

}  // namespace bg::checker
