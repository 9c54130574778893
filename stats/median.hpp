// The median of some figures (a connection's round trips, a bot's games'), or none of none.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

namespace bg::stats {

inline std::optional<double> median(std::vector<double> values) {
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace bg::stats
