// Reading a value of an expected type out of untrusted JSON (an event log that may have been
// edited): nlohmann's get<int>() of 1e40 is undefined behaviour, so numbers are checked first.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bg {

// An optional value as JSON: the value, or null.
template <class T>
nlohmann::json json_or_null(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
// A text that may be missing ("" where a database keeps NULL) as JSON: the text, or null.
inline nlohmann::json json_or_null(const std::string& text) {
    return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

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

// Reads the fields of one JSON object (a log record), remembering the first problem: each
// getter returns a default once something is wrong, and error() says what.
class JsonFields {
  public:
    explicit JsonFields(const nlohmann::json& object) : object_(object) {}

    template <class T>
    T get(const char* key) {
        if (!error_.empty())
            return T{};
        const auto it = object_.find(key);
        if (it == object_.end()) {
            error_ = fmt::format("no \"{}\"", key);
            return T{};
        }
        auto value = json_value<T>(*it);
        if (!value) {
            error_ = fmt::format("\"{}\" has the wrong type", key);
            return T{};
        }
        return std::move(*value);
    }
    // Bytes written with bytes_to_json.
    std::string bytes(const char* key) {
        if (!error_.empty())
            return {};
        const auto it = object_.find(key);
        auto value = it == object_.end() ? std::nullopt : bytes_from_json(*it);
        if (!value) {
            error_ = fmt::format("no \"{}\", or not a string of bytes", key);
            return {};
        }
        return std::move(*value);
    }
    char letter(const char* key) {
        const auto text = get<std::string>(key);
        if (error_.empty() && text.size() != 1)
            error_ = fmt::format("\"{}\" is not one letter", key);
        return text.empty() ? '\0' : text[0];
    }
    std::optional<int> optional_int(const char* key) {
        const auto it = object_.find(key);
        if (it != object_.end() && it->is_null())
            return std::nullopt;
        return get<int>(key);
    }
    const std::string& error() const { return error_; }
    // A problem the reader found in a value it read (the first is kept).
    void fail(std::string why) {
        if (error_.empty())
            error_ = std::move(why);
    }
    // Nothing but the fields read may be there: an added field is an edit.
    void expect_size(std::size_t fields) {
        if (error_.empty() && object_.size() != fields)
            error_ = fmt::format("{} fields where {} were expected", object_.size(), fields);
    }

  private:
    const nlohmann::json& object_;
    std::string error_;
};

}  // namespace bg
