#include "stats/pairs.hpp"

#include <algorithm>
#include <cmath>

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
    const double se = std::sqrt(results.variance() / static_cast<double>(out.pairs));
    out.elo = elo_of_score(out.score);
    out.elo_low = elo_of_score(out.score - z * se);
    out.elo_high = elo_of_score(out.score + z * se);
    out.los = se > 0 ? normal_cdf((out.score - 0.5) / se)
                     : (out.score > 0.5   ? 1.0
                        : out.score < 0.5 ? 0.0
                                          : 0.5);
    return out;
}

double Sprt::lower_bound() const {
    return std::log(beta / (1 - alpha));
}

double Sprt::upper_bound() const {
    return std::log((1 - beta) / alpha);
}

double Sprt::llr(const Pentanomial& results) const {
    const auto n = results.total();
    const double variance = results.variance();
    if (n == 0 || variance <= 0)
        return 0;
    const double s0 = score_of_elo(elo0), s1 = score_of_elo(elo1);
    return static_cast<double>(n) * (s1 - s0) * (2 * results.mean() - s0 - s1) / (2 * variance);
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
