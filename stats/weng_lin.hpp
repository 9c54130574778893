// Ratings that move after every match: Weng and Lin's Bayesian approximation for the
// Plackett-Luce model ("A Bayesian Approximation Method for Online Ranking", JMLR 12, 2011,
// Algorithm 4), for any number of entrants and ties. Tested against simulated truth
// (tests/weng_lin_test.cpp): known strengths in, their order and the coverage of the
// uncertainty out.
//
// Each entrant's skill is a belief, normal with mean mu and deviation sigma. A match's outcome is
// a ranking of its entrants (1 best; equal ranks a tie). With c^2 the sum over the entrants of
// sigma^2 + beta^2, entrant i is placed first among those not ranked above it with probability
// exp(mu_i / c) / (the sum of exp(mu / c) over them), each tie of A entrants counted 1/A. The
// update moves each mean by its share of the surprise (Omega), and shrinks each variance by how
// much the outcome told about it (Delta, at least down to kappa of itself):
//
//   mu_i      += sigma_i^2 / c   * sum over q ranked no worse than i of (1[q = i] - p_iq) / A_q
//   sigma_i^2 *= max(1 - gamma_i * sigma_i^2 / c^2 * sum of p_iq (1 - p_iq) / A_q, kappa)
//
// where p_iq = exp(mu_i / c) / (the sum of exp(mu_s / c) over s ranked no better than q) and
// gamma_i = sigma_i / c. Before it, each variance grows by tau^2, so that a rating keeps moving.
// A fixed entrant (an anchor) enters the sums with its belief and is never changed.
//
// The arithmetic is done in one order: the same beliefs and outcomes give bit for bit the same
// results on every run, so that ratings recomputed from an archive are exactly the stored ones.
#pragma once

#include <vector>

namespace bg::stats {

struct Belief {
    double mu = 0;
    double sigma = 0;
    friend bool operator==(const Belief&, const Belief&) = default;
};

// The model's parameters (the usual scale of this family: a new entrant at 25 +- 25/3).
struct WengLin {
    double mu = 25.0;         // a new entrant's mean
    double sigma = 25.0 / 3;  // and deviation
    double beta = 25.0 / 6;   // the spread of one match's performance around the skill
    double kappa = 1e-4;      // the least share of its variance an update leaves
    double tau = 25.0 / 300;  // added to every deviation (in quadrature) before a match
    Belief initial() const { return {mu, sigma}; }
};

struct Entrant {
    Belief belief;
    int rank = 1;        // 1 best; equal for a tie
    bool fixed = false;  // an anchor: its belief is held
};

// Each entrant's belief after the match, in the order given. Fewer than two entrants, or all of
// one rank, tell nothing: the beliefs come back unchanged (but for tau).
std::vector<Belief> rate(const std::vector<Entrant>& match, const WengLin& model);

// What a leaderboard ranks by: the mean less three deviations, a value the entrant's skill is
// above with about 99.9% belief.
inline double conservative(const Belief& belief) {
    return belief.mu - 3 * belief.sigma;
}

}  // namespace bg::stats
