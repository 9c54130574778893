#include "record/json_value.hpp"

#include "core/text.hpp"

namespace bg {

nlohmann::json bytes_to_json(std::string_view bytes) {
    if (valid_utf8(bytes))
        return std::string(bytes);
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes.size() * 2);
    for (char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        hex += digits[byte >> 4];
        hex += digits[byte & 0xF];
    }
    return {{"hex", std::move(hex)}};
}

std::optional<std::string> bytes_from_json(const nlohmann::json& value) {
    if (value.is_string())
        return value.get<std::string>();
    if (!value.is_object() || value.size() != 1 || !value.contains("hex") ||
        !value["hex"].is_string())
        return std::nullopt;
    const auto& hex = value["hex"].get_ref<const std::string&>();
    if (hex.size() % 2 != 0)
        return std::nullopt;
    const auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        return -1;
    };
    std::string bytes;
    bytes.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int high = nibble(hex[i]), low = nibble(hex[i + 1]);
        if (high < 0 || low < 0)
            return std::nullopt;
        bytes += static_cast<char>(high << 4 | low);
    }
    // One form per value: bytes that are UTF-8 are written as a string, so that a log reads
    // back to exactly the records it was written with.
    if (valid_utf8(bytes))
        return std::nullopt;
    return bytes;
}

}  // namespace bg
