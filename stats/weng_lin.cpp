#include "stats/weng_lin.hpp"

#include <algorithm>
#include <cmath>

namespace bg::stats {

std::vector<Belief> rate(const std::vector<Entrant>& match, const WengLin& model) {
    std::vector<Belief> after;
    after.reserve(match.size());
    for (const Entrant& e : match)
        after.push_back(e.fixed ? e.belief
                                : Belief{e.belief.mu, std::sqrt(e.belief.sigma * e.belief.sigma +
                                                                model.tau * model.tau)});
    const std::size_t n = match.size();
    const bool informative = n >= 2 && std::any_of(match.begin(), match.end(), [&](const auto& e) {
                                 return e.rank != match.front().rank;
                             });
    if (!informative)
        return after;

    double c2 = 0;
    for (const Belief& b : after)
        c2 += b.sigma * b.sigma + model.beta * model.beta;
    const double c = std::sqrt(c2);
    // exp(mu / c), taken relative to the largest mean so that no term overflows (the ratios are
    // the same).
    double top = after.front().mu;
    for (const Belief& b : after)
        top = std::max(top, b.mu);
    std::vector<double> strength(n);
    for (std::size_t i = 0; i < n; ++i)
        strength[i] = std::exp((after[i].mu - top) / c);
    // For each q: the sum of strengths of those ranked no better than q (C_q), and how many
    // share q's rank (A_q).
    std::vector<double> below(n, 0);
    std::vector<int> tied(n, 0);
    for (std::size_t q = 0; q < n; ++q)
        for (std::size_t s = 0; s < n; ++s) {
            if (match[s].rank >= match[q].rank)
                below[q] += strength[s];
            tied[q] += match[s].rank == match[q].rank;
        }

    std::vector<Belief> rated = after;
    for (std::size_t i = 0; i < n; ++i) {
        if (match[i].fixed)
            continue;
        double omega = 0, delta = 0;
        for (std::size_t q = 0; q < n; ++q) {
            if (match[q].rank > match[i].rank)
                continue;  // i is not among those q was placed above
            const double p = strength[i] / below[q];
            omega += ((q == i ? 1.0 : 0.0) - p) / tied[q];
            delta += p * (1 - p) / tied[q];
        }
        const double variance = after[i].sigma * after[i].sigma;
        const double gamma = after[i].sigma / c;
        rated[i].mu = after[i].mu + variance / c * omega;
        rated[i].sigma =
            std::sqrt(variance * std::max(1 - gamma * variance / c2 * delta, model.kappa));
    }
    return rated;
}

}  // namespace bg::stats
