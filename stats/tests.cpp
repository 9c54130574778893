#include "stats/tests.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

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

// Even df: e^(-x/2) * sum_{k < df/2} (x/2)^k / k!. Odd df: erfc(sqrt(x/2)) plus
// e^(-x/2) * sqrt(2x/pi) * sum_{k = 1 .. (df-1)/2} x^(k-1) / (1 * 3 * ... * (2k-1)).
double chi_square_survival(double x, int df) {
    if (x <= 0)
        return 1;
    const double half = x / 2;
    double sum = 0;
    if (df % 2 == 0) {
        double term = 1;
        for (int k = 0; k < df / 2; ++k) {
            if (k > 0)
                term *= half / k;
            sum += term;
        }
        return std::min(1.0, std::exp(-half) * sum);
    }
    double term = std::sqrt(2 * x / std::numbers::pi);
    for (int k = 1; k <= (df - 1) / 2; ++k) {
        if (k > 1)
            term *= x / (2 * k - 1);
        sum += term;
    }
    return std::min(1.0, std::erfc(std::sqrt(half)) + std::exp(-half) * sum);
}

double student_t_cdf(double t, int df) {
    // P(|T| < |t|) = A, from theta = atan(|t| / sqrt(df)): for odd df,
    // (2/pi) (theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...)), the series to
    // cos^(df-3); for even df, sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...), to cos^(df-2).
    const double theta = std::atan(std::abs(t) / std::sqrt(static_cast<double>(df)));
    const double c2 = std::cos(theta) * std::cos(theta);
    double within = 0;
    if (df % 2 == 1) {
        double sum = 0;
        if (df > 1) {
            double term = 1;
            sum = 1;
            for (int k = 1; 2 * k + 1 <= df - 2; ++k) {
                term *= c2 * (2 * k) / (2 * k + 1);
                sum += term;
            }
        }
        within = 2 / std::numbers::pi * (theta + std::sin(theta) * std::cos(theta) * sum);
    } else {
        double term = 1, sum = 1;
        for (int k = 1; 2 * k <= df - 2; ++k) {
            term *= c2 * (2 * k - 1) / (2 * k);
            sum += term;
        }
        within = std::sin(theta) * sum;
    }
    within = std::clamp(within, 0.0, 1.0);
    return t < 0 ? (1 - within) / 2 : (1 + within) / 2;
}

double student_t_quantile(double p, int df) {
    if (p == 0.5)
        return 0;
    if (p < 0.5)
        return -student_t_quantile(1 - p, df);
    double low = 0, high = 1;
    while (student_t_cdf(high, df) < p && high < 1e12)
        high *= 2;
    for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
        const double mid = (low + high) / 2;
        (student_t_cdf(mid, df) < p ? low : high) = mid;
    }
    return (low + high) / 2;
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
