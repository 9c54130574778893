// Random draws for the simulations that test the statistics against known truth, from the
// project's one generator (core/random.hpp).
#pragma once

#include <cmath>
#include <numbers>

#include "core/random.hpp"

namespace bg::test {

// Uniform in (0, 1): the top 53 bits of one output, centred in their interval (never 0, so its
// logarithm is finite).
inline double uniform(SplitMix64& rng) {
    return (static_cast<double>(rng.next() >> 11) + 0.5) / 9007199254740992.0;
}

// Standard normal (Box-Muller).
inline double normal(SplitMix64& rng) {
    return std::sqrt(-2 * std::log(uniform(rng))) * std::cos(2 * std::numbers::pi * uniform(rng));
}

}  // namespace bg::test
