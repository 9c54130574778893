// Ratings on the Elo scale from the standings of games of any number of players: a
// Plackett-Luce model fitted by maximum likelihood (for two players it is Bradley-Terry, the
// logistic Elo model). Tested against simulated tournaments of known strengths
// (tests/rating_test.cpp).
//
// The model. Bot i has a strength g_i = 10^(r_i / 400) (r_i its rating). A game's standings are
// read as a sequence of choices: of the bots still unplaced, those at the best remaining
// standing are chosen, each with probability g_i / (sum of the unplaced g). Bots that share a
// standing are a tie, counted as all chosen from the same set (Breslow's approximation); the
// last place, or a tie of everyone still unplaced, carries no information and is skipped.
// Disqualified bots (standing 0) share the last place.
//
// The fit. Hunter's MM algorithm ("MM algorithms for generalized Bradley-Terry models", 2004):
// g_i <- wins_i / sum over the choices i took part in of (count chosen) / (sum of g there).
// A weak prior keeps a bot that always wins or always loses finite: each bot has one virtual win
// and one virtual loss against the next bot (in a ring). Ratings are reported centred (their
// mean is 0), with 95% intervals from the observed information: the pseudo-inverse of the
// negative Hessian of the log-likelihood in natural units, which is the covariance of the
// centred ratings.
#pragma once

#include <string>
#include <vector>

namespace bg::stats {

// One game: the bots at its seats (indices from 0) and their standings (1 best, equal for a
// tie, 0 for disqualified).
struct RankedGame {
    std::vector<int> bots;
    std::vector<int> standings;
};

struct Rating {
    double elo = 0;  // centred: the mean of all ratings is 0
    double low = 0;  // 95% interval
    double high = 0;
    double standard_error = 0;  // in Elo
};

struct RatingFit {
    std::vector<Rating> ratings;
    int iterations = 0;
    bool converged = false;
};

// Fits `bots` ratings to the games. `z` is the normal quantile of the intervals (1.96: 95%).
RatingFit fit_ratings(int bots, const std::vector<RankedGame>& games, double z = 1.96);

}  // namespace bg::stats
