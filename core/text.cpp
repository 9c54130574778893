#include "core/text.hpp"

#include <fmt/format.h>

namespace bg {

namespace {
bool printable(unsigned char c) {
    return c >= 0x21 && c <= 0x7e;
}
}  // namespace

std::string quote_byte(char byte, ByteNames names) {
    const auto c = static_cast<unsigned char>(byte);
    if (printable(c))
        return fmt::format("'{}'", byte);
    if (names == ByteNames::codes)
        return fmt::format("0x{:02x}", c);
    const char* name = c == '\n'   ? "a newline"
                       : c == '\r' ? "a carriage return"
                       : c == '\t' ? "a tab"
                       : c == ' '  ? "a space"
                       : c == 0    ? "a NUL byte"
                       : c >= 0x80 ? "a byte outside ASCII"
                                   : "a control character";
    return fmt::format("{} (0x{:02x})", name, c);
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

namespace {

// The length of the UTF-8 sequence at the start of `text` and its code point, or 0 when the
// bytes there are not a well-formed sequence.
std::size_t utf8_sequence(std::string_view text, char32_t& code_point) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    char32_t min = 0;
    if (lead < 0x80) {
        code_point = lead;
        return 1;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2, min = 0x80, code_point = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, min = 0x800, code_point = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, min = 0x10000, code_point = lead & 0x07;
    } else {
        return 0;
    }
    if (text.size() < length)
        return 0;
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80)
            return 0;
        code_point = (code_point << 6) | (byte(i) & 0x3F);
    }
    if (code_point < min || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF))
        return 0;
    return length;
}

bool shown_as_is(char32_t c) {
    if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F))
        return false;  // C0 and C1 controls, DEL: escape sequences start with these
    if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069))
        return false;  // bidirectional embeddings, overrides and isolates
    return c != 0x200E && c != 0x200F && c != 0x061C;  // direction marks
}

}  // namespace

bool valid_utf8(std::string_view text) {
    while (!text.empty()) {
        char32_t c = 0;
        const std::size_t length = utf8_sequence(text, c);
        if (length == 0)
            return false;
        text.remove_prefix(length);
    }
    return true;
}

std::string memory_amount(std::uint64_t bytes) {
    if (bytes >= (1ULL << 30) && bytes % (1ULL << 30) == 0)
        return fmt::format("{} GiB", bytes >> 30);
    if (bytes >= (1ULL << 20) && bytes % (1ULL << 20) == 0)
        return fmt::format("{} MiB", bytes >> 20);
    return fmt::format("{} bytes", bytes);
}

std::string escape_for_terminal(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        char32_t c = 0;
        const std::size_t length = utf8_sequence(text, c);
        if (length == 0) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[0]));
            text.remove_prefix(1);
            continue;
        }
        if (c == '\\')
            out += "\\\\";
        else if (!shown_as_is(c))
            out += c < 0x100 ? fmt::format("\\x{:02x}", static_cast<unsigned>(c))
                             : fmt::format("\\u{{{:04x}}}", static_cast<unsigned>(c));
        else
            out.append(text.substr(0, length));
        text.remove_prefix(length);
    }
    return out;
}

}  // namespace bg
