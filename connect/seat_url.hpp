// A remote seat's URL, as the host says it: ws://HOST:PORT/seat/TOKEN; or an arena's,
// ws://HOST:PORT/bot (its token in a header).
#pragma once

#include <string>
#include <string_view>
#include <variant>

namespace bg {

struct SeatUrl {
    std::string text;  // as given
    std::string host;  // a name, an IPv4 address, or an IPv6 one without its brackets
    int port = 80;
    std::string path;  // /seat/TOKEN, or /bot
    bool arena() const { return path == "/bot"; }
    // HOST:PORT, as a Host header says it.
    std::string authority() const;
};

// The URL, or why it is not a seat's.
std::variant<SeatUrl, std::string> parse_seat_url(std::string_view text);

}  // namespace bg
