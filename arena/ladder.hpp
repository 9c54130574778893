// The arena's ladder: what a match's games come to as one result, the ratings that follow from
// the archive, and the leaderboard. Pure: the database's rows in, figures out.
//
// A match is one deal played in every seat rotation; its result ranks its entrants by the sum of
// their places over its games (a place is a game's standing, 1 best, a tie shared; out of a game
// is last place), fewest first, an equal sum a tie: the deal's luck falls on every entrant in
// every seat, and is taken out of the ranking. That ranking is what the rating update reads.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/store.hpp"
#include "stats/rating.hpp"
#include "stats/weng_lin.hpp"

namespace bg::arena {

// `places[g][e]`: entrant e's place in game g (0: out of it). Each entrant's rank, 1 best.
std::vector<int> match_ranks(const std::vector<std::vector<int>>& places);

// An entry's rating before its first match: the model's first belief, or its anchor's rating,
// held.
struct Start {
    stats::Belief belief;
    bool fixed = false;
};
std::map<int, Start> starts(const std::vector<Entry>& entries, const std::vector<Bot>& bots,
                            const stats::WengLin& model);

// Every rating recomputed from the archive: the rated matches in the order they were rated,
// each entry from its start.
struct Rerated {
    std::map<int, stats::Belief> beliefs;  // by entry
    int matches = 0;
    // The matches whose stored ratings after differ from the recomputed, by id (none, when the
    // stored ratings are the archive's).
    std::vector<int> differing;
};
Rerated rerate(const std::vector<Match>& rated, const std::map<int, Start>& from,
               const stats::WengLin& model);

// A leaderboard row: a bot's present entry (its latest version let play: a house bot's, or one that
// passed the conformance check).
struct Row {
    int rank = 0;  // by the conservative rating, from 1
    Bot bot;
    Entry entry;
    double conservative = 0;  // mean less three deviations
    bool provisional = false;
    std::optional<stats::Rating> fit;  // the order-free maximum-likelihood fit, on the Elo scale
};
inline constexpr int provisional_matches = 10;
// The bots' leaderboard, or the people's, apart (a match may seat both: each is rated on its
// own board, on one scale).
enum class Board { bots, people };
// Rows for every account of `board` not removed that has an entry, best first; `fit` beside
// each from the archive's games (everyone's).
std::vector<Row> leaderboard(const std::vector<Bot>& bots, const std::vector<Entry>& entries,
                             const std::vector<Match>& rated, Board board = Board::bots);
// An account's kind as the API says it: house, remote or person.
const char* kind(const Bot& bot);
nlohmann::json to_json(const Row& row);
nlohmann::json to_json(const stats::Belief& belief);

}  // namespace bg::arena
