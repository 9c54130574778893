#include "serve/request.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::serve {

bool Address::loopback() const {
    in_addr v4{};
    if (inet_pton(AF_INET, host.c_str(), &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    return host == "::1";
}

std::string Address::authority() const {
    return host.find(':') == std::string::npos ? fmt::format("{}:{}", host, port)
                                               : fmt::format("[{}]:{}", host, port);
}

std::variant<Address, std::string> parse_address(std::string_view text) {
    const std::string shown = escape_for_terminal(text);
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos)
        return fmt::format("--serve {}: HOST:PORT is needed (127.0.0.1:8080, [::1]:8080)", shown);
    std::string_view host = text.substr(0, colon);
    const bool bracketed = host.size() >= 2 && host.front() == '[' && host.back() == ']';
    if (bracketed)
        host = host.substr(1, host.size() - 2);
    const std::string host_text(host);
    // Only what an address is written with (inet_pton would stop at a NUL, and take less).
    const bool plain = std::all_of(host.begin(), host.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) || c == '.' || c == ':';
    });
    in_addr v4{};
    in6_addr v6{};
    const bool is_v4 = plain && !bracketed && inet_pton(AF_INET, host_text.c_str(), &v4) == 1;
    const bool is_v6 = plain && bracketed && inet_pton(AF_INET6, host_text.c_str(), &v6) == 1;
    if (!is_v4 && !is_v6)
        return fmt::format(
            "--serve {}: the host must be an IPv4 address or a bracketed IPv6 one (127.0.0.1, "
            "0.0.0.0, [::1]), not a name",
            shown);
    const auto port = parse_number<int>(text.substr(colon + 1));
    if (!port || *port < 0 || *port > 65535)
        return fmt::format("--serve {}: the port must be a number from 0 to 65535", shown);
    return Address{host_text, *port};
}

Route route(Method method, std::string_view path) {
    path = path.substr(0, path.find('?'));
    Route found;
    if (path == "/")
        found.kind = Route::page;
    else if (path == "/events")
        found.kind = Route::events;
    else if (path == "/play")
        found.kind = Route::play;
    else if (path.starts_with("/games/")) {
        const std::string_view number = path.substr(7);
        const auto game = parse_number<int>(number);
        // Digits only, no sign and no leading zero: one name for one game.
        if (game && *game > 0 && std::isdigit(static_cast<unsigned char>(number.front())) &&
            number.front() != '0') {
            found.kind = Route::game_page;
            found.game = *game;
        }
    }
    if (found.kind != Route::not_found && method == Method::other)
        found.kind = Route::not_allowed;
    return found;
}

std::optional<std::uint64_t> parse_last_event_id(std::string_view value) {
    while (!value.empty() && value.front() == ' ')
        value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ')
        value.remove_suffix(1);
    if (value.empty() ||
        !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return parse_number<std::uint64_t>(value);
}

}  // namespace bg::serve
