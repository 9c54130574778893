// Reading a value of an expected type out of untrusted JSON (an event log that may have been
// edited): nlohmann's get<int>() of 1e40 is undefined behaviour, so numbers are checked first.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace bg {

template <class T>
std::optional<T> json_value(const nlohmann::json& value) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (value.is_number_unsigned()) {
            const auto v = value.get<std::uint64_t>();
            if (v > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
                return std::nullopt;
            return static_cast<T>(v);
        }
        if (value.is_number_integer()) {
            const auto v = value.get<std::int64_t>();
            if constexpr (std::is_unsigned_v<T>) {
                return std::nullopt;  // negative
            } else {
                if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
                    return std::nullopt;
                return static_cast<T>(v);
            }
        }
        return std::nullopt;
    } else {
        try {
            return value.get<T>();
        } catch (const nlohmann::json::exception&) {
            return std::nullopt;
        }
    }
}

}  // namespace bg
