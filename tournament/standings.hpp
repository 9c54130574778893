// What a tournament's games say: for every bot its games, wins and win rate (Wilson 95%), mean
// standing, disqualifications by their code, timeouts, stale peels, think time, CPU time and peak
// memory (where the players' cgroups counted them) and a rating on the Elo scale (stats/rating.hpp:
// Plackett-Luce over all games' standings); a head-to-head table; and for two bots the Elo
// difference on game pairs with the SPRT's state (stats/pairs.hpp). Computed from the database's
// rows alone, so a finished, a running and a resumed tournament read the same way.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/pairs.hpp"
#include "stats/rating.hpp"
#include "stats/tests.hpp"
#include "tournament/database.hpp"

namespace bg::tournament {

struct BotStanding {
    int bot = 0;
    std::string name;
    int games = 0;
    int wins = 0;
    stats::Interval win_rate;
    double mean_standing = 0;  // a disqualified bot stands last (the game's player count)
    int disqualified = 0;
    // By why it was out: its code (core/out_code.hpp), never its sentence, so that rewording one
    // changes no count.
    std::map<OutCode, int> disqualifications;
    int timeouts = 0;  // its games that ended at the game's time limit
    int stalled = 0;   // its games that ended stalled
    int stale_peels = 0;
    std::optional<double> think_ms;  // mean, new tiles to its next peel
    // What its processes used, over the games its cgroups counted: mean CPU time a game (its
    // think time in CPU, beside think_ms's wall clock) and the highest peak memory of a game.
    std::optional<double> cpu_ms;
    std::optional<std::uint64_t> memory_peak_bytes;
    // How often its process was started afresh because the one before could not go on (a v004
    // process that crashed, hung, left or misbehaved between games, or was put out).
    int restarts = 0;
    // It plays over the network (remote:TOKEN, docs/remote.md): its race includes its network.
    bool remote = false;
    // How long its processes waited for a CPU a game, on average over its games with a figure
    // (a lower bound counted as it is), and how many of its games were contended.
    std::optional<double> cpu_wait_ms;
    int contended = 0;
    stats::Rating rating;
};

struct SprtState {
    stats::Sprt test;
    double llr = 0;
    stats::Sprt::Decision decision = stats::Sprt::Decision::undecided;
};

struct Standings {
    int total = 0;  // games scheduled
    int done = 0;   // of them, done (by their first play, or by its replay)
    // Of the games counted, those contended (docs/host.md, "Fair races"); the replays done
    // (resume --replay-contended), each counted instead of its first play; and with
    // `uncontended`, the contended games left out.
    int contended = 0;
    int replays = 0;
    bool uncontended = false;
    int left_out = 0;
    std::vector<BotStanding> bots;  // best rating first
    // head_to_head[i][j]: of the games bots i and j both played, how often i stood above j
    // (a tie counts a half); games_between[i][j] how many. Indexed by bot id.
    std::vector<std::vector<double>> head_to_head;
    std::vector<std::vector<int>> games_between;
    // Two bots in two-player games: bot 0 against bot 1, scored on the deal's two seatings.
    std::optional<stats::PairSummary> pairs;
    std::optional<SprtState> sprt;
    std::optional<std::string> stopped;  // why the run ended early
};

// Bot 0's pair results against bot 1, the two games of a deal scored together; a deal counts
// once both of its games are done. A game that does not count (replayed) is not added.
class PairTally {
  public:
    void add(const FixtureRecord& row);
    const stats::Pentanomial& results() const { return results_; }

  private:
    stats::Pentanomial results_;
    std::map<int, int> open_;  // deal -> bot 0's half-points in its first game done
};

// The games that count (a replay in its first play's place); with `uncontended`, not those
// contended either.
Standings standings(const TournamentSpec& spec, const std::vector<FixtureRecord>& rows,
                    std::optional<std::string> stopped, bool uncontended = false);
// What the two ratings are, in a line each: the table's Elo, and the pair line's. The table
// says them; the report page too.
extern const char* const elo_note;
extern const char* const pairs_note;
std::string standings_table(const Standings& standings);
nlohmann::json standings_json(const Standings& standings);

}  // namespace bg::tournament
