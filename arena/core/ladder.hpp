// The arena's ladder: what a match's games come to as one result, the one rating step that
// moves its entrants' ratings, the ratings that follow from the archive, and the leaderboard.
// Pure: values in, figures out.
//
// A match is one deal played in every seat rotation; its result ranks its entrants by the sum of
// their places over its games (a place is a game's standing, 1 best, a tie shared; out of a game
// is last place), fewest first, an equal sum a tie: the deal's luck falls on every entrant in
// every seat, and is taken out of the ranking. That ranking is what the rating step reads.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "arena/core/records.hpp"
#include "stats/rating.hpp"
#include "stats/weng_lin.hpp"

namespace bg::arena {

// `places[g][e]`: entrant e's place in game g (0: out of it). Each entrant's rank, 1 best.
std::vector<int> match_ranks(const std::vector<std::vector<int>>& places);

// An entry's rating as a match finds it: its belief, and whether it is held there (the anchor's).
struct Standing {
    stats::Belief belief;
    bool fixed = false;
};
// An entry's standing before its first match: the model's first belief, or its anchor's rating,
// held.
Standing start_of(const Bot& bot, const stats::WengLin& model);
std::map<int, Standing> starts(const std::vector<Entry>& entries, const std::vector<Bot>& bots,
                               const stats::WengLin& model);

// The one rating step (Weng and Lin's update, stats::rate): a match's entrants, their entries in
// the order of their first seats, and their ranks; each one's standing before the match as
// `standing` says it. Each entrant rated: its seat, rank, rating before and after. The live
// arena and `arena rerate` both rate every match through this, so that the two cannot drift
// apart.
std::vector<Rated> rating_step(const std::vector<int>& entries, const std::vector<int>& ranks,
                               const std::function<Standing(int entry)>& standing,
                               const stats::WengLin& model);

// Every rating recomputed from the archive: the rated matches in the order they were rated,
// each entry from its start, each match through rating_step.
struct Rerated {
    std::map<int, stats::Belief> beliefs;  // by entry
    int matches = 0;
    // The matches whose stored ratings before or after differ from the recomputed, by id (none,
    // when the stored ratings are the archive's).
    std::vector<int> differing;
};
Rerated rerate(const std::vector<Match>& rated, const std::map<int, Standing>& from,
               const stats::WengLin& model);

// The order-free maximum-likelihood fit of the archive (stats::fit_ratings) by entry, on the Elo
// scale; empty when it did not converge or there is nothing to fit.
using Fit = std::map<int, stats::Rating>;
// Each rated match's entries and ranks, as the fit reads them: flat, so that a copy of the
// archive for a fit elsewhere (another thread) is a few arrays, not a vector a match.
struct Rankings {
    std::vector<int> entries, ranks;
    std::vector<std::size_t> ends;  // where each match's entrants end in entries and ranks
    void add(const std::vector<Rated>& rated);
    std::size_t matches() const { return ends.size(); }
};
// The fit of `rankings` over `entry_ids` (every entry, each one a strength of the fit).
Fit fit_of(const Rankings& rankings, const std::vector<int>& entry_ids);

// A leaderboard row: an account's present entry (its latest version let play: a house bot's, a
// person's, or a remote bot's that passed the conformance check).
struct Row {
    int rank = 0;  // by the conservative rating, from 1
    Bot bot;
    Entry entry;
    // What it is ranked by: the mean less three deviations; the anchor's, whose deviation is
    // nought by the organiser's choice and not by evidence, less three of a new bot's.
    double conservative = 0;
    bool provisional = false;
    std::optional<stats::Rating> fit;
};
inline constexpr int provisional_matches = 10;
// The bots' leaderboard, or the people's, apart (a match may seat both: each is rated on its
// own board, on one scale).
enum class Board { bots, people };
// Rows for every account of `board` not removed that has an entry let play, best first, `fit`
// beside each; `model` gives a new bot's deviation, which the anchor is ranked with.
std::vector<Row> leaderboard(const std::vector<Bot>& bots, const std::vector<Entry>& entries,
                             const Fit& fit, const stats::WengLin& model,
                             Board board = Board::bots);

}  // namespace bg::arena
