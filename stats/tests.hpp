// Small statistics for counts of outcomes: Wilson score intervals for a proportion, and
// Pearson's chi-square test of counts against equal shares, tested against simulated truth
// (tests/stats_test.cpp: known proportions in, coverage and error rates out); Student's t for
// small samples, checked against the tables there and, in its use, against simulated truth in
// tests/pairs_test.cpp.
#pragma once

#include <cstdint>
#include <span>

namespace bg::stats {

struct Interval {
    double low = 0;
    double high = 0;
};

// The Wilson score interval for `successes` of `trials` at normal quantile z (1.96: 95%).
Interval wilson(std::uint64_t successes, std::uint64_t trials, double z = 1.96);
// The same for the mean `share` of `n` values in [0, 1] (a mean of scores, not only of 0s and
// 1s): it takes the largest variance such a mean can have, share (1 - share).
Interval wilson_of_mean(double share, double n, double z = 1.96);

struct ChiSquare {
    double statistic = 0;
    int degrees_of_freedom = 0;
    double p_value = 1;
};

// Pearson's test that the counts come from equal shares (seats worth the same).
ChiSquare chi_square_uniform(std::span<const std::uint64_t> counts);

// P(X >= x) for X chi-square distributed with `df` degrees of freedom (df >= 1): Boost.Math's.
double chi_square_survival(double x, int df);

// P(T <= t) for T Student-t distributed with `df` degrees of freedom (df >= 1): Boost.Math's.
double student_t_cdf(double t, int df);

// The t with student_t_cdf(t, df) = p, for 0 < p < 1: Boost.Math's.
double student_t_quantile(double p, int df);

}  // namespace bg::stats
