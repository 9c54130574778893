#include "core/text.hpp"

#include <fmt/format.h>

namespace bg {

namespace {
bool printable(unsigned char c) {
    return c >= 0x21 && c <= 0x7e;
}
}  // namespace

std::string quote_byte(char byte) {
    const auto c = static_cast<unsigned char>(byte);
    if (printable(c))
        return fmt::format("'{}'", byte);
    return fmt::format("0x{:02x}", c);
}

std::string quote_bytes(std::string_view text, std::size_t limit) {
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (printable(c) && c != '"' && c != '\\')
            out += static_cast<char>(c);
        else
            out += fmt::format("\\x{:02x}", c);
    }
    out += '"';
    if (text.size() > limit)
        out += fmt::format("... ({} bytes)", text.size());
    return out;
}

}  // namespace bg
