// The arena's rules, pure: one value with two doors, as a game's referee (referee/referee.hpp)
// is. What happens to the arena comes in (arena/core/inputs.hpp: a connection waiting or gone, a
// check over, a match over with its games, the clock, the accounts read again, a signal, a
// write's outcome, a hosted bot's version checked); what it decides comes out as effects (begin a
// match at a table with these seats, rate or void a match, pause a bot, send a connection away,
// publish an event, a line for the log). Everything the arena decides is here: who plays whom (the
// matchmaker), when a match may begin (the tables free, the store writable, the logs writable), a
// match's rating (the one rating step), a bot paused after its own faults, a version checked before
// it is queued, the house bots' seats, a person's chosen opponent, what each account is doing, the
// stop. No libuv, no sockets, no database, no clock of its own: time comes with the inputs, and the
// shell (arena/shell.hpp) does the effects. Its parts: the connections (lounge.hpp), the matches
// (tables.hpp, seating.hpp), and what they share as it decides (deciding.hpp). Unit-tested
// (tests/arena_core_test.cpp), property-tested over random inputs (props/arena_core_props.cpp)
// and fuzzed (fuzz/fuzz_arena_core.cpp).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "arena/core/deciding.hpp"
#include "arena/core/inputs.hpp"
#include "arena/core/lounge.hpp"
#include "arena/core/roster.hpp"
#include "arena/core/tables.hpp"

namespace bg::arena {

class ArenaCore {
  public:
    using Settings = CoreSettings;
    // What the arena knows as it starts: the roster (from the store), its house bots, the last
    // rated matches' groups (oldest first), the last matches over (newest first), and a seed
    // for the matchmaker's blur.
    struct Start {
        Roster roster;
        std::vector<House> houses;
        std::vector<RecentMatch> recent;
        std::vector<Match> last_over;
        std::uint64_t seed = 0;
    };
    static constexpr std::size_t last_over_kept = Tables::last_over_kept;
    ArenaCore(Settings settings, Start start);
    ArenaCore(const ArenaCore&) = delete;
    ArenaCore& operator=(const ArenaCore&) = delete;

    // One input; what to do about it. After a write effect (is_write), the next input is its
    // outcome (input::Written or input::NotWritten): any other throws std::logic_error.
    Effects take(const Input& input);

    // What it holds.
    const Roster& roster() const { return roster_; }
    const Settings& settings() const { return settings_; }
    using Queued = Lounge::Queued;
    // The connections waiting, in the order they came.
    std::vector<Queued> queue() const;
    std::size_t queued() const { return lounge_.queue().size(); }
    std::size_t checking() const { return lounge_.checking(); }
    using Playing = Tables::Playing;
    const std::map<int, Playing>& playing() const { return tables_.playing(); }
    // What each account doing something is doing now (playing, checking, queued), by id.
    std::map<int, std::string> statuses() const { return deciding_.doings.statuses(); }
    const std::vector<HouseSeats>& houses() const { return tables_.houses(); }
    std::size_t unrecorded() const { return tables_.unrecorded(); }
    bool writable() const { return deciding_.writable(); }
    bool stopping() const { return tables_.stopping(); }
    std::uint64_t now_ms() const { return deciding_.now_ms; }
    // The last matches over (rated or void), the newest first, without their games.
    const std::deque<Match>& last_over() const { return tables_.last_over(); }

  private:
    void handle(const input::Tick& in);
    void handle(const input::Arrived& in);
    void handle(const input::Left& in);
    void handle(const input::Checked& in);
    void handle(const input::Played& in);
    void handle(const input::Reread& in);
    void handle(const input::Signalled& in);
    void handle(const input::Written& in);
    void handle(const input::NotWritten& in);
    void handle(const input::Hosted& in);
    void handle(const input::Workers& in);
    void handle(const input::Fronts& in);
    void handle(const input::Finals& in);

    Settings settings_;
    Roster roster_;
    Deciding deciding_;
    Lounge lounge_;
    Tables tables_;
};

}  // namespace bg::arena
