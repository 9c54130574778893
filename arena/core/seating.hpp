// Who sits where in the arena's core (arena/core/arena_core.hpp): the tables the matchmaker
// (arena/core/matchmaker.hpp) makes now of the queue and the house bots' free seats, and what a
// match's rotations come to. Pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arena/core/deciding.hpp"
#include "arena/core/lounge.hpp"
#include "core/out_code.hpp"

namespace bg::arena {

// A house bot's seats: how many of them are in use; a hosted bot's one, and since when it is free.
struct HouseSeats {
    House house;
    int in_use = 0;
    std::uint64_t free_since_ms = 0;
};

// The house bots' and hosted bots' seats, each bot's in use or free.
class Houses {
  public:
    void add(const std::vector<House>& houses, std::uint64_t now_ms);
    // A hosted bot's version in place of the bot's version before it (its seat's use kept).
    void host(const House& house, std::uint64_t now_ms);
    // A seat of a match begun, or let go: a house's taken (false: not a house's), or free again.
    bool seated(const MatchSeat& seat);
    void freed(const MatchSeat& seat, std::uint64_t now_ms);
    const std::vector<HouseSeats>& all() const { return houses_; }

  private:
    HouseSeats* of(int bot);
    std::vector<HouseSeats> houses_;
};

// The tables to begin now, at most `room`, each its seats in the order of its first rotation
// (first the seat it was made for): the queue's connections and the free seats of the house bots
// that play now; a person who chose a house bot wants that bot's entry (one that does not play
// now: never matched); the connections at a table are one node's (the holder's or one front's),
// and those of a front not among `fronts` wait, taking no one's seat.
std::vector<std::vector<MatchSeat>> tables_now(
    const Roster& roster, const std::map<std::uint64_t, Lounge::Queued>& queue,
    const std::vector<HouseSeats>& houses, const CoreSettings& settings,
    const input::Fronts& fronts, const std::vector<RecentMatch>& recent, std::uint64_t now_ms,
    std::uint64_t seed, std::size_t room);

// The seats of `seats` that the arena's machine runs (house and hosted bots').
int local_seats(const std::vector<MatchSeat>& seats);
// Whether a table may begin beside `local_in_play` seats the machine runs already (counted on
// when it may): where the arena has `cores` (CoreSettings::cores; 0: not limited), those
// players at most one a core. A table with more of them than that first sheds its house bots'
// seats from its end, down to two seats (the seat it was made for is never shed). False: it
// waits.
bool fits_cores(std::vector<MatchSeat>& seats, int cores, int& local_in_play);
// Whether the match of `seats` is played by a worker: where the arena has workers, every seat
// one the arena runs (a house or hosted bot's, no connection).
bool by_workers(const std::vector<MatchSeat>& seats, bool workers);
// fits_cores for a worker's table: where no worker is seen, none fits; a table of more of the
// arena's players than the largest worker's cores first sheds house seats to fit it; then the
// workers' players at most one a core, all told.
bool fits_workers(std::vector<MatchSeat>& seats, const input::Workers& workers,
                  int& workers_in_play);
// Where the match of `seats` is played: the front node its connections are on (the matchmaker
// seats one node's connections at a table), or "": by the arena that holds the database (or its
// workers).
std::string place_of(const std::vector<MatchSeat>& seats);
// The players the arena runs itself (house and hosted bots) at once: those of the matches it
// plays (against its cores), those of the matches its workers play (against theirs), and those
// of each front node's (against that node's).
struct InPlay {
    int local = 0, workers = 0;
    std::map<std::string, int> fronts;  // by node
    // A match playing at `node` (place_of).
    void add(const std::vector<MatchSeat>& seats, bool by_workers, const std::string& node);
    // Whether a table of `seats` may begin beside them (fits_cores, fits_workers; a front's
    // table only where that node is seen, fits_cores against its cores); counted on when it
    // may.
    bool fits(std::vector<MatchSeat>& seats, const CoreSettings& settings,
              const input::Workers& workers_seen, const input::Fronts& fronts_seen);
};

// What a match's games come to: entrant e sat in seat (e - r) mod K of rotation r; its places
// summed into its rank (match_ranks), each entrant rated through the one rating step from the
// ratings the roster holds, and its first out code (its fault, unless it is `other`).
struct MatchResult {
    std::vector<Rated> rated;
    std::vector<std::optional<OutCode>> faults;
};
MatchResult result_of(const std::vector<MatchSeat>& seats, const std::vector<StoredGame>& games,
                      const Roster& roster);

// A rated match's faults counted: `streaks` holds each bot's matches in a row out of a game for
// its own fault (a fault that is not `other`), started again by a match without one; a person is
// never counted. The bots whose count reaches `after` now, each with why it is paused (and its
// count started again): not matched again until the organiser enables it.
// Why the arena's machine, not the bots, decided the match, or "": any player out of a game
// before it was ready or could start, in a game in which the arena's own loop stalled
// `stall_bar_ms` or more (`stalled_ms`, a game's each: its messages waited as long, the ready
// timeout's timer not); a house bot, which the arena starts on its own machine and which its
// organiser vouches for, out so; or any player out so in a game whose race was contended (its
// players waited for a CPU past the host's bar, record/result.hpp). Such a match is void: rated
// for no one, and no one's fault. (A contended race whose players were all ready is rated, and
// its result says it was contended, as a tournament's is.)
std::string machine_fault(const std::vector<MatchSeat>& seats, const std::vector<StoredGame>& games,
                          const std::vector<std::uint64_t>& stalled_ms = {},
                          std::uint64_t stall_bar_ms = 0);
// Why a match played is void, not rated, or "": incomplete, a sparring match, or decided by the
// machine rather than the bots (no one's fault, each).
std::string void_reason(const std::vector<MatchSeat>& seats, const input::Played& played,
                        const CoreSettings& settings);
// Why the match is not rated for being a sparring one (a remote bot asked for its opponent, a
// house bot, to try itself against: never rated, no one's fault), or "".
std::string sparring(const std::vector<MatchSeat>& seats);
// The clock of a match's games: `people_ms` where a person sits at the table and it is the
// longer, else `bots_ms` (0, no clock, stays so).
std::uint64_t game_clock(const std::vector<MatchSeat>& seats, std::uint64_t bots_ms,
                         std::uint64_t people_ms);
std::vector<std::pair<int, std::string>> to_pause(const MatchResult& result, const Roster& roster,
                                                  std::map<int, int>& streaks, int after);

}  // namespace bg::arena
