// What happens to an arena (inputs) and what its core decides (effects), as values: the two
// doors of arena/core/arena_core.hpp. The shell (arena/serve.cpp and its parts) turns its
// connections, matches, timers, signals and database into inputs, and does the effects.
//
// A write (an effect that stores: a match begun, rated or voided, a bot paused, a check
// recorded) is the last effect of what the core returns, and its outcome is the next input
// (Written, or NotWritten and why): the core changes what it holds only once a write is done, so
// that it never holds what the store does not.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "arena/core/records.hpp"

namespace bg::arena {

// A connection of a remote bot or a person, as the shell names it (never one name twice).
using Connection = std::uint64_t;

// A house bot: its account, the number of its command among the venue's, its entry. Or a hosted
// bot's version (its author's code, which the arena runs as it runs a house bot's): tables are
// made for it as for a connection that came to play, one at a time, and it answers for its own
// faults.
struct House {
    int bot = 0;
    int command = 0;
    int entry = 0;
    bool hosted = false;
};

// A season's finals match (arena/core/finals.hpp): its season, stage and round, and its deal.
struct FinalsOf {
    int season = 0;
    int stage = 0;
    int round = 0;
    std::uint64_t seed = 0;
    friend bool operator==(const FinalsOf&, const FinalsOf&) = default;
};
// A finals match wanted: its seats (each a finalist's version as the season froze it, with the
// venue's command that runs it), in the order of its first rotation.
struct FinalsTable {
    FinalsOf of;
    std::vector<House> seats;
};

namespace input {
// The matchmaker's clock: a turn, and the arena's deadlines (the stop's grace, logs held back).
struct Tick {
    std::uint64_t now_ms = 0;
};
// A connection waits to play: let in at /bot or /person, or back after a match or a check. Its
// account and its entry as the store has them when the core takes it (the shell reads them
// then: not before a write of the core's that an input ahead of it brought); a person's choice
// of opponent (a house bot's name, or ""); the front node it is connected to (docs/arena.md,
// "Front nodes"), or "" for the arena's own (the node that holds the database).
struct Arrived {
    Connection connection = 0;
    Bot bot;
    Entry entry;
    std::string opponent;
    std::uint64_t now_ms = 0;
    std::string node{};
};
// A connection closed, wherever it was.
struct Left {
    Connection connection = 0;
};
// A conformance check over its connection is over: passed (`checks` of them), or failed and why;
// `told` is what the connection is told of a failure. Or cut short with no outcome (its front
// node gone, or its connection before it began there): nothing is recorded, and the bot is
// checked again as it next connects.
struct Checked {
    Connection connection = 0;
    bool passed = false;
    int checks = 0;
    std::string why;
    std::string told;
    bool cut_short = false;
};
// A match is over: every game played to its end (complete), or not, and why; `logs_failed`
// where a game's log could not be written.
struct Played {
    int match = 0;
    bool complete = false;
    std::string why;
    bool logs_failed = false;
    std::vector<StoredGame> games;
    std::uint64_t now_ms = 0;
    // How long the arena's loop stalled in each game of `games` (none: not measured), in ms.
    std::vector<std::uint64_t> stalled_ms = {};
};
// The accounts read again (SIGHUP): every account, and the house bots started since.
struct Reread {
    std::vector<Bot> accounts;
    std::vector<House> added;
    std::vector<Entry> entries;  // the added house bots' entries
};
// A hosted bot's version passed its check: it plays from now (its command the venue's), and the
// bot's version before it no longer does. Its account and entry as the store has them.
struct Hosted {
    House house;
    Bot bot;
    Entry entry;
    std::uint64_t now_ms = 0;
};
// The workers that play the arena's matches of its own players (CoreSettings::workers), as the
// store last saw them: their cores, all told, and the most of one worker (a table of more
// players than that waits for none: it is made smaller, as for the arena's own cores).
struct Workers {
    int cores = 0;
    int largest = 0;
};
// The front nodes that play the matches of the connections they seat, as the store last saw
// them: each by its name, with the cores it gives the players it runs itself (the house and
// hosted bots at those tables; 0: not limited, as CoreSettings::cores). A table of a node not
// among them waits (its connections are about to leave).
struct Fronts {
    std::map<std::string, int> cores;
};
// The finals matches the seasons want now (their present rounds' pairs not yet rated), in
// place of those told before: begun before any table of the matchmaker's, as their seats are free
// and the cores let them, whatever their bots' state (a finalist plays its finals paused).
struct Finals {
    std::vector<FinalsTable> tables;
};
// SIGTERM or SIGINT: no new match; a second one aborts the matches playing.
struct Signalled {
    int signal = 0;
    std::string name;  // "SIGTERM"
    std::uint64_t now_ms = 0;
};
// The last write is done: what the store made of it (a begun match's id; when it was written).
struct Written {
    int match = 0;
    std::string at;
};
struct NotWritten {
    std::string why;
};
}  // namespace input

using Input = std::variant<input::Tick, input::Arrived, input::Left, input::Checked, input::Played,
                           input::Reread, input::Signalled, input::Written, input::NotWritten,
                           input::Hosted, input::Workers, input::Fronts, input::Finals>;
// What an input is, in a few words (the loop's lag names its handlers so).
std::string_view input_name(const Input& input);

// A seat of a match: a connection's, or a house bot's seat (its command).
struct MatchSeat {
    Bot bot;
    Entry entry;
    std::optional<int> command;  // a house bot's or a hosted bot's
    bool hosted = false;         // a hosted bot's: its own code, run by the arena
    Connection connection = 0;   // a remote bot's or a person's
    // A remote bot's that asked for its opponent (a house bot): a sparring match, never rated.
    bool sparring = false;
    std::string node{};  // a connection's front node (input::Arrived), or "": the arena's own
};

// The accounts' names at the seats, in their order.
std::vector<std::string> names_of(const std::vector<MatchSeat>& seats);

// A match over, as its document shows it (the API's /api/matches/ID, the stream's `match`).
struct MatchRecord {
    Match match;
    std::vector<StoredGame> games;
};

namespace effect {
// Writes (the outcome is the next input).
struct BeginMatch {  // running; Written: its id, when it began
    std::vector<int> entries;
    std::optional<FinalsOf> finals{};  // a finals match: its deal is the finals', not drawn
};
struct RateMatch {  // rated, with its games and every entrant's rating before and after
    int match = 0;
    std::vector<Rated> rated;
    std::vector<StoredGame> games;
};
struct VoidMatch {
    int match = 0;
    std::string why;
};
struct Pause {
    int bot = 0;
    std::string why;
};
struct RecordCheck {  // passed: the entry checked and its bot no longer paused
    int entry = 0;
    bool passed = false;
    std::string why;
};

// Doings.
struct Play {  // a match begun: its seats, in the order of the first rotation
    int match = 0;
    std::vector<MatchSeat> seats;
    bool by_workers = false;  // played by a worker (CoreSettings::workers), not by the arena
    // Played by this front node, where its connections are (place_of), not by the holder.
    std::string node{};
};
struct Check {  // the conformance check's games over the connection
    Connection connection = 0;
    Bot bot;
    Entry entry;
};
struct CheckDone {  // the connection is queued again (passed) or sent away with `told`
    Connection connection = 0;
    bool passed = false;
    std::string told;
};
struct Release {  // a match's connections are let go: back to the lobby
    int match = 0;
};
struct TurnAway {  // waiting connections told there are no more games
    std::vector<Connection> connections;
};
struct Abort {  // every match playing: its game under way ends as aborted
    int signal = 0;
};
struct CloseDoors {};  // no one more is let in; the checks under way are cut short
struct Finish {};      // nothing plays: the arena closes once its players are gone
struct Soon {};        // a turn is wanted soon (something came to the queue)

// The stream's events (the API's documents, docs/arena.md).
struct Began {
    int match = 0;
    std::vector<std::string> bots;
};
struct Over {
    MatchRecord record;
};
struct Statuses {
    std::map<std::string, std::string> by_name;  // every account doing something
};

// A line for the arena's log.
struct Note {
    enum Level { info, warning, error } level = info;
    std::string text;
};
}  // namespace effect

using Effect = std::variant<effect::BeginMatch, effect::RateMatch, effect::VoidMatch, effect::Pause,
                            effect::RecordCheck, effect::Play, effect::Check, effect::CheckDone,
                            effect::Release, effect::TurnAway, effect::Abort, effect::CloseDoors,
                            effect::Finish, effect::Soon, effect::Began, effect::Over,
                            effect::Statuses, effect::Note>;
using Effects = std::vector<Effect>;

// Whether the effect is a write, whose outcome the next input must be.
bool is_write(const Effect& effect);

}  // namespace bg::arena
