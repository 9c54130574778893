// Reading a value of an expected type out of untrusted JSON (an event log that may have been
// edited): nlohmann's get<int>() of 1e40 is undefined behaviour, so numbers are checked first.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
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

namespace bg {

// Untrusted bytes (a player's grid, a command line) in JSON without loss: a string when they
// are well-formed UTF-8, else {"hex": "..."} with two lower-case hex digits a byte. JSON
// strings cannot hold other bytes, and a writer that meets one throws.
nlohmann::json bytes_to_json(std::string_view bytes);
// The bytes back from either form; nullopt for anything else.
std::optional<std::string> bytes_from_json(const nlohmann::json& value);

}  // namespace bg
