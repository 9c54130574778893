#include "stats/pairs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "stats/tests.hpp"

namespace bg::stats {

namespace {

double score_of_index(std::size_t half_points) {
    return static_cast<double>(half_points) / 4;
}

double normal_cdf(double x) {
    return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

}  // namespace

std::uint64_t Pentanomial::total() const {
    std::uint64_t n = 0;
    for (auto c : pairs)
        n += c;
    return n;
}

double Pentanomial::mean() const {
    const auto n = total();
    if (n == 0)
        return 0.5;
    double sum = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        sum += score_of_index(i) * static_cast<double>(pairs[i]);
    return sum / static_cast<double>(n);
}

double Pentanomial::variance() const {
    const auto n = total();
    if (n == 0)
        return 0;
    const double m = mean();
    double sum = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const double d = score_of_index(i) - m;
        sum += d * d * static_cast<double>(pairs[i]);
    }
    return sum / static_cast<double>(n);
}

double elo_of_score(double score) {
    // Scores of 0 and 1 are infinitely far apart: they are kept a hair inside.
    const double s = std::clamp(score, 1e-6, 1 - 1e-6);
    return -400 * std::log10(1 / s - 1);
}

double score_of_elo(double elo) {
    return 1 / (1 + std::pow(10.0, -elo / 400));
}

PairSummary summarize(const Pentanomial& results, double z) {
    PairSummary out;
    out.pairs = results.total();
    if (out.pairs == 0)
        return out;
    out.score = results.mean();
    const auto n = static_cast<double>(out.pairs);
    out.elo = elo_of_score(out.score);
    if (results.variance() > 0) {
        // Student's t on the pairs' scores (the sample variance, n - 1 degrees of freedom), at
        // the level z stands for: over a few pairs the normal approximation calls equal bots
        // unequal several times too often; over hundreds the two agree (past 10,000 degrees of
        // freedom t's quantile differs from the normal's in the fifth digit, and is taken there).
        const int df = static_cast<int>(std::min<std::uint64_t>(out.pairs - 1, 10'000));
        const double se = std::sqrt(results.variance() / (n - 1));
        const double t = student_t_quantile(normal_cdf(z), df);
        out.elo_low = elo_of_score(out.score - t * se);
        out.elo_high = elo_of_score(out.score + t * se);
        out.los = student_t_cdf((out.score - 0.5) / se, df);
        return out;
    }
    // Every pair scored the same: the sample has no spread to measure, and an interval from it
    // would shrink to a point. Wilson's interval takes the largest variance a score in [0, 1]
    // with mean p can have, p(1 - p), and so holds the truth at least as often as it says; the
    // likelihood of superiority is the score test it inverts, at an even score (variance 1/4):
    // below 2.5% exactly when the 95% interval lies below 0 Elo, and never 0% or 100% from a
    // few pairs.
    const Interval interval = wilson_of_mean(out.score, n, z);
    out.elo_low = elo_of_score(interval.low);
    out.elo_high = elo_of_score(interval.high);
    out.los = normal_cdf((out.score - 0.5) / std::sqrt(0.25 / n));
    return out;
}

double Sprt::lower_bound() const {
    return std::log(beta / (1 - alpha));
}

double Sprt::upper_bound() const {
    return std::log((1 - beta) / alpha);
}

namespace {

using Distribution = std::array<double, 5>;

// The distribution nearest the observed one (least Kullback-Leibler divergence from it) whose
// mean pair score is `mean`: p_i = q_i / (1 + lambda (x_i - mean)), lambda the root of
// sum q_i (x_i - mean) / (1 + lambda (x_i - mean)) = 0, found by bisection (the sum falls as
// lambda grows, from +infinity to -infinity across the interval where every p_i > 0).
Distribution nearest_with_mean(const Distribution& q, double mean) {
    const auto sum = [&](double lambda) {
        double total = 0;
        for (std::size_t i = 0; i < q.size(); ++i) {
            const double d = score_of_index(i) - mean;
            total += q[i] * d / (1 + lambda * d);
        }
        return total;
    };
    double low = -1 / (1 - mean), high = 1 / mean;
    for (int step = 0; step < 200; ++step) {
        const double middle = (low + high) / 2;
        (sum(middle) > 0 ? low : high) = middle;
    }
    const double lambda = (low + high) / 2;
    Distribution p{};
    for (std::size_t i = 0; i < q.size(); ++i)
        p[i] = q[i] / (1 + lambda * (score_of_index(i) - mean));
    return p;
}

}  // namespace

// The generalised SPRT's log-likelihood ratio (Van den Bergh), as fishtest and fastchess
// compute it: N sum q_i log(p1_i / p0_i), q the observed pair frequencies and p0, p1 the
// distributions nearest them with the mean scores of elo0 and elo1. Cells never seen count
// 1e-3 of a pair, so that a run where one bot wins every pair has a finite ratio that grows
// with the pairs (a normal approximation would see no variance, and never stop).
double Sprt::llr(const Pentanomial& results) const {
    const auto n = results.total();
    if (n == 0)
        return 0;
    Distribution q{};
    double total = 0;
    for (std::size_t i = 0; i < q.size(); ++i) {
        q[i] = results.pairs[i] == 0 ? 1e-3 : static_cast<double>(results.pairs[i]);
        total += q[i];
    }
    for (auto& p : q)
        p /= total;
    const Distribution p0 = nearest_with_mean(q, score_of_elo(elo0));
    const Distribution p1 = nearest_with_mean(q, score_of_elo(elo1));
    double sum = 0;
    for (std::size_t i = 0; i < q.size(); ++i)
        sum += q[i] * std::log(p1[i] / p0[i]);
    return static_cast<double>(n) * sum;
}

Sprt::Decision Sprt::decide(const Pentanomial& results) const {
    const double value = llr(results);
    if (value >= upper_bound())
        return Decision::h1;
    if (value <= lower_bound())
        return Decision::h0;
    return Decision::undecided;
}

}  // namespace bg::stats
