// Small helpers for quoting untrusted bytes in messages.
#pragma once

#include <string>
#include <string_view>

namespace bg {

// 'A' for a printable byte, 0x0a for any other, so a reason never carries control bytes.
std::string quote_byte(char byte);

// At most `limit` bytes of `text`, with printable bytes as they are and others as \xNN, and
// "... (N bytes)" when cut.
std::string quote_bytes(std::string_view text, std::size_t limit = 40);

}  // namespace bg
