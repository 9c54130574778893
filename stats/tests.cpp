#include "stats/tests.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace bg::stats {

Interval wilson(std::uint64_t successes, std::uint64_t trials, double z) {
    if (trials == 0)
        return {0, 1};
    const double n = static_cast<double>(trials);
    return wilson_of_mean(static_cast<double>(successes) / n, n, z);
}

Interval wilson_of_mean(double p, double n, double z) {
    const double z2 = z * z;
    const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// Boost.Math's distributions: their complements keep a tail's precision where 1 - cdf would not.
double chi_square_survival(double x, int df) {
    if (x <= 0)
        return 1;
    return boost::math::cdf(boost::math::complement(boost::math::chi_squared(df), x));
}

double student_t_cdf(double t, int df) {
    return boost::math::cdf(boost::math::students_t(df), t);
}

double student_t_quantile(double p, int df) {
    return boost::math::quantile(boost::math::students_t(df), p);
}

ChiSquare chi_square_uniform(std::span<const std::uint64_t> counts) {
    ChiSquare result;
    if (counts.size() < 2)
        return result;
    double total = 0;
    for (auto c : counts)
        total += static_cast<double>(c);
    result.degrees_of_freedom = static_cast<int>(counts.size()) - 1;
    if (total == 0)
        return result;
    const double expected = total / static_cast<double>(counts.size());
    for (auto c : counts) {
        const double d = static_cast<double>(c) - expected;
        result.statistic += d * d / expected;
    }
    result.p_value = chi_square_survival(result.statistic, result.degrees_of_freedom);
    return result;
}

}  // namespace bg::stats
