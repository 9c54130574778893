// One arena match, played on the loop: one deal, in every rotation of its seats, one game after
// another at one table (match/table.hpp), each game with its own event log. Entrant e sits in
// seat (e - r) mod K of rotation r (seat i holds entrant (i + r) mod K), so that every entrant
// plays the deal from every seat. No process plays the deal twice: the table's lineup starts a
// kept v004 player afresh for each rotation (a house bot's process, a remote bot's session told
// its bot is fresh), for it would know the hands and tiles of the seat its opponent now holds.
//
// A match that does not play every game to its end (the arena stopped, a log that could not be
// written) is over as incomplete: it is voided, never rated.
#pragma once

#include <uv.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arena/store.hpp"
#include "match/table.hpp"
#include "match/venue.hpp"
#include "record/game_files.hpp"
#include "record/setup.hpp"
#include "transport/handles.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

struct Entrant {
    Bot bot;
    Entry entry;
    int command = 0;         // its command in the arena's seat source
    std::string seat_token;  // a remote bot's, its seats' at the desk; "" for a house bot
};

class MatchPlay {
  public:
    struct Plan {
        int id = 0;
        std::uint64_t seed = 0;
        std::vector<Entrant> entrants;
        GameSetup base;    // the rules' clocks, the word list; the seed and players are the match's
        std::string logs;  // the folder of its games' logs ("": none)
        // The arena's loop, whose stalls (LoopLag::stalled_ns) are read as each game begins and
        // ends; none: not measured.
        const LoopLag* loop = nullptr;
    };
    // Called once from the loop when the match is over (every game played, or not).
    MatchPlay(uv_loop_t* loop, const Venue& venue, const SeatSource& seats, Plan plan,
              std::function<void()> over);
    MatchPlay(const MatchPlay&) = delete;
    MatchPlay& operator=(const MatchPlay&) = delete;
    ~MatchPlay();

    // Opens its table and plays its first game; why not, if it cannot (no cgroup: it is then
    // over, incomplete).
    std::string start();
    // The game under way ends as aborted: the match is incomplete.
    void abort(int signal);
    // The arena stops: a next game begins only where it would end by `deadline_ms` (the loop's
    // clock), judged by the longest of the match's games so far; otherwise the match is over,
    // incomplete, at once, rather than begun and voided.
    void stop_by(std::uint64_t deadline_ms) { deadline_ms_ = deadline_ms; }

    const Plan& plan() const { return plan_; }
    bool over() const { return over_; }
    // Every game played to its end, and kept.
    bool complete() const;
    // Why it is incomplete (for the void), or "".
    const std::string& why() const { return why_; }
    // Whether it ended because a game's log could not be opened or written (a full disk).
    bool logs_failed() const { return logs_failed_; }
    const std::vector<StoredGame>& games() const { return games_; }
    // How long the arena's loop stalled in each game of games(), in ms (none: not measured).
    const std::vector<std::uint64_t>& stalled_ms() const { return stalled_ms_; }
    // Each entrant's place in each game (0: out of it).
    std::vector<std::vector<int>> places() const;
    // Each entrant out of some game, and its out code there (the first), or none.
    std::vector<std::optional<OutCode>> faults() const;
    // Lets its players go; then finished() once nothing of them is left.
    void dismiss();
    bool finished();

  private:
    void play(int rotation);
    // The entrant in `seat` of game `rotation`.
    int entrant_at(int seat, int rotation) const;
    // Each player of each game played: f(its game, the entrant it was, its result).
    void each_player(
        const std::function<void(std::size_t game, int entrant, const PlayerResult&)>& f) const;
    void ended(Table::Ended ended);

    uv_loop_t* loop_;
    const Venue& venue_;
    const SeatSource& seats_;
    Plan plan_;
    std::function<void()> over_cb_;
    std::unique_ptr<Table> table_;
    std::unique_ptr<GameFiles> files_;
    std::vector<StoredGame> games_;
    std::vector<std::uint64_t> stalled_ms_;
    Timer next_;
    int rotation_ = 0;
    std::uint64_t deadline_ms_ = 0;          // the arena's stop's (0: none)
    std::uint64_t game_began_ms_ = 0;        // the loop's clock as the game under way began
    std::uint64_t stalled_at_began_ns_ = 0;  // the loop's stalls as it began
    std::uint64_t longest_game_ms_ = 0;
    bool over_ = false;
    std::string why_;
    bool logs_failed_ = false;
};

// Where a match's game keeps its log: DIR/match-NNNNNN-R.jsonl (R its rotation, from 0).
std::string match_log_path(const std::string& dir, int match, int rotation);

}  // namespace bg::arena
