// Two bots compared on game pairs: the two seatings of one deal, scored together, as chess
// testers score a pair of games of one opening with both colours (fastchess's pentanomial model).
// A pair's score for bot A is its share of the pair's points: a win is 1, a loss 0, a game
// without a winner 1/2, so a pair scores 0, 1/4, 1/2, 3/4 or 1. Scoring pairs instead of games
// takes the luck of the deal out of the variance.
//
// - The Elo difference: -400 log10(1/s - 1) for the mean pair score s, with an interval from
//   Student's t on the pair scores (the standard error from their sample variance, n - 1
//   degrees of freedom) mapped through the same function, and the likelihood of superiority
//   P(T <= (s - 1/2) / se): the normal approximation is overconfident over a few pairs. When
//   every pair scored the same, so that the spread is nil, Wilson's interval for a score in
//   [0, 1] and its score test at 1/2.
// - The SPRT (Wald's sequential test) of H0: Elo = elo0 against H1: Elo = elo1, in the
//   generalised form for pentanomial results (Van den Bergh; as fishtest and fastchess): the
//   log-likelihood ratio of the multinomial distributions nearest the observed one with the
//   mean scores of elo1 and of elo0 (their maximum-likelihood estimates under each hypothesis);
//   it stops at ln((1 - beta) / alpha) for H1 and ln(beta / (1 - alpha)) for H0.
#pragma once

#include <array>
#include <cstdint>

namespace bg::stats {

// How many pairs bot A scored 0, 1/4, 1/2, 3/4 and 1 in (indexed by its half-points, 0-4).
struct Pentanomial {
    std::array<std::uint64_t, 5> pairs{};
    // One pair: A's half-points in its two games (2 a win, 1 no winner, 0 a loss).
    void add(int first_game, int second_game) {
        ++pairs[static_cast<std::size_t>(first_game + second_game)];
    }
    std::uint64_t total() const;
    double mean() const;      // the mean pair score, 0-1
    double variance() const;  // of one pair's score
};

struct PairSummary {
    std::uint64_t pairs = 0;
    double score = 0.5;
    double elo = 0;
    double elo_low = 0;
    double elo_high = 0;
    double los = 0.5;  // likelihood of superiority
};

// z: the normal quantile of the level (1.96: 95%); t is taken at the same level.
PairSummary summarize(const Pentanomial& results, double z = 1.96);

// The Elo difference that a score stands for, and back (the logistic Elo model).
double elo_of_score(double score);
double score_of_elo(double elo);

struct Sprt {
    double elo0 = 0;
    double elo1 = 5;
    double alpha = 0.05;
    double beta = 0.05;

    enum class Decision { undecided, h0, h1 };

    double lower_bound() const;  // accept H0 at or below
    double upper_bound() const;  // accept H1 at or above
    double llr(const Pentanomial& results) const;
    Decision decide(const Pentanomial& results) const;
};

}  // namespace bg::stats
