#include "connect/seat_url.hpp"

#include <charconv>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg {

std::string SeatUrl::authority() const {
    return host.find(':') == std::string::npos ? fmt::format("{}:{}", host, port)
                                               : fmt::format("[{}]:{}", host, port);
}

std::variant<SeatUrl, std::string> parse_seat_url(std::string_view text) {
    const std::string shown = escape_for_terminal(text);
    constexpr std::string_view scheme = "ws://";
    if (text.starts_with("wss://"))
        return fmt::format(
            "{}: the host serves ws://, not wss:// (put it behind a TLS proxy, and "
            "connect to the proxy's ws:// side from its machine)",
            shown);
    if (!text.starts_with(scheme))
        return fmt::format("{}: a seat's URL begins with ws://", shown);
    SeatUrl url;
    url.text = std::string(text);
    std::string_view rest = text.substr(scheme.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos)
        return fmt::format("{}: no path (/seat/TOKEN)", shown);
    std::string_view authority = rest.substr(0, slash);
    url.path = std::string(rest.substr(slash));
    std::string_view port;
    if (authority.starts_with('[')) {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos)
            return fmt::format("{}: an IPv6 address without its closing ]", shown);
        url.host = std::string(authority.substr(1, close - 1));
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty() && !after.starts_with(':'))
            return fmt::format("{}: what follows the IPv6 address is not :PORT", shown);
        if (!after.empty())
            port = after.substr(1);
    } else {
        const std::size_t colon = authority.rfind(':');
        url.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos)
            port = authority.substr(colon + 1);
    }
    if (url.host.empty())
        return fmt::format("{}: no host", shown);
    if (!port.empty()) {
        int value = 0;
        const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
        if (error != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535)
            return fmt::format("{}: the port must be a number from 1 to 65535", shown);
        url.port = value;
    }
    if (url.path == "/bot")
        return url;  // an arena's: its token goes in a header, never in the URL
    if (!url.path.starts_with("/seat/") || url.path.size() == 6 ||
        url.path.find_first_of("?# ") != std::string::npos)
        return fmt::format("{}: the path of a seat is /seat/TOKEN (or an arena's, /bot)", shown);
    return url;
}

}  // namespace bg
