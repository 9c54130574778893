// A season's finals (arena/core/season.hpp): the best of its board at its close, settled by
// paired deals. Pure: the finals' state is a fold of the rules, the finalists and the finals
// matches rated so far, so that an arena killed mid-finals goes on where it was.
//
// The finals are played in stages, each a field of the finalists (the first all of them, each
// next the best of the one before: SeasonRules::fields) and in rounds: a round is one deal
// (finals_deal) played by every pair of the field, each pair a match of its two seatings (a
// game each way), so that every pair meets the same luck. After each round the field is
// ordered by its share of points against the field (every finals game between two of its
// members, of any stage: a win 1, no winner 1/2, a loss 0), an equal share by the board's
// order, and each place is judged against the next below by their head-to-head pairs of games
// (stats::Sprt, the tournament's test): settled ahead (H1), or not to be told apart (H0 both
// ways), or not yet. A stage ends when every neighbour of its field is settled, or after
// `deals` rounds; the finals then end if everything of the next field is settled (or there is
// no next stage), else the next stage plays its field, the places below it kept as they stand.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arena/core/records.hpp"
#include "arena/core/season.hpp"

namespace bg::arena {

// A finals match rated: its stage and round, its two entries in the order of their first seats,
// and the first's half-points in each of its two games (2 won, 1 no winner, 0 lost).
struct FinalsGame {
    int stage = 0;
    int round = 0;
    int first = 0;
    int second = 0;
    std::array<int, 2> first_points{1, 1};
    friend bool operator==(const FinalsGame&, const FinalsGame&) = default;
};
// What a rated finals match's games come to: seat s of rotation r holds the entrant of first
// seat (s + r) mod 2, as in every arena match (arena/core/seating.hpp's result_of); the better
// place wins a game (out of it: last).
FinalsGame finals_game(int stage, int round, int first, int second,
                       const std::vector<StoredGame>& games);

// A pair the present round wants played: its entries in seat order, and its deal.
struct FinalsPair {
    int stage = 0;
    int round = 0;
    int first = 0;
    int second = 0;
    std::uint64_t seed = 0;
    friend bool operator==(const FinalsPair&, const FinalsPair&) = default;
};
// The fields the stages play with `finalists` (fewer than the rules' first, where the board had
// fewer to choose from): all of them first, then each of the rules' narrower than the one before.
std::vector<int> stage_fields(const SeasonRules& rules, std::size_t finalists);
// The deal of a round: the same for every pair of it, and none the same as another round's.
std::uint64_t finals_deal(std::uint64_t seed, int stage, int round);

// A finalist's place, and how sure it is against the next below.
struct FinalsPlace {
    int place = 0;  // from 1
    int entry = 0;
    int stage = 0;     // the last stage it played in
    double share = 0;  // of its points against the field of that stage
    int games = 0;     // its finals games against that field
    enum class Verdict { ahead, even, unsettled, last };
    Verdict verdict = Verdict::last;
    // The head-to-head pairs with the next below: how many, the test's log-likelihood ratio for
    // this one ahead by elo1, and the likelihood that it is the stronger (stats::summarize).
    std::uint64_t pairs = 0;
    double llr = 0;
    double los = 0.5;
};
const char* verdict_name(FinalsPlace::Verdict verdict);

struct FinalsState {
    int stage = 0;                    // the stage playing (from 0), or the last played when over
    int round = 0;                    // the rounds of it finished
    std::vector<FinalsPlace> places;  // every finalist, in their order now
    std::vector<FinalsPair> wanted;   // the present round's pairs not yet played; none when over
    bool over = false;
};
// `finalists`: the entries, in the board's order at the close; `played`: the finals matches
// rated, in the order they were (a pair's second match of one round counts for nothing).
FinalsState finals_state(const SeasonRules& rules, const std::vector<int>& finalists,
                         const std::vector<FinalsGame>& played);

}  // namespace bg::arena
