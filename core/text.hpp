// Small helpers for quoting untrusted bytes in messages and on terminals, and for reading
// numbers out of text.
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace bg {

// How a reason names a byte that is not a printable character: in words and by its code ("a
// newline (0x0a)", since log version 8), or by its code alone ("0x0a", as logs before version 8
// have it, and as their replays must).
enum class ByteNames { words, codes };

// 'A' for a printable byte; any other named so that a reason never carries control bytes: "a
// newline (0x0a)", "a space (0x20)", "a byte outside ASCII (0xff)" (or with `codes`, 0x0a).
std::string quote_byte(char byte, ByteNames names = ByteNames::words);

// At most `limit` bytes of `text`, with printable bytes as they are and others as \xNN, and
// "... (N bytes)" when cut.
std::string quote_bytes(std::string_view text, std::size_t limit = 40);

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF): what JSON strings and terminals may carry as they are.
bool valid_utf8(std::string_view text);

// Untrusted text made safe for a terminal: control characters (C0, DEL, C1), invalid UTF-8 and
// the bidirectional controls that reorder what is shown become \xNN or \u{NNNN}, and a
// backslash becomes \\, so that no line can move the cursor, erase, recolour, write the
// clipboard or pose as another line.
std::string escape_for_terminal(std::string_view text);

// An amount of memory as people read it: "256 MiB", "3 GiB", "1000 bytes" (whole units only).
std::string memory_amount(std::uint64_t bytes);

// The whole of `text` as a T, or nullopt: nothing before or after the number (no spaces, no
// '+'), no sign for an unsigned T, nothing out of T's range (std::from_chars's rules).
template <class T>
std::optional<T> parse_number(std::string_view text) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

}  // namespace bg
