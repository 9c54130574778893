// What a --serve server makes of its command-line address and of a request, without the
// network. libwebsockets parses HTTP; these decide what a parsed request gets. No path from a
// request ever reaches the file system: a request names one of the few things served, or
// gets 404. Fuzzed (fuzz/serve_request_fuzz.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace bg::serve {

// Where to listen: --serve HOST:PORT, HOST an IPv4 address or a bracketed IPv6 one
// ([::1]:8080), PORT 0 to 65535 (0: any free port, said once listening).
struct Address {
    std::string host;  // without brackets
    int port = 0;
    bool loopback() const;
    // As a URL's authority: 127.0.0.1:8080, [::1]:8080.
    std::string authority() const;
};
std::variant<Address, std::string> parse_address(std::string_view text);

enum class Method { get, head, other };

// What a request is for.
struct Route {
    enum Kind {
        page,         // GET /: the live page
        events,       // GET /events: the event stream
        game_page,    // GET /games/N: the replay page of game N, once done
        play,         // GET /play: a person's page for a remote seat (its token after the #)
        not_found,    // 404
        not_allowed,  // a method but GET or HEAD: 405
    };
    Kind kind = not_found;
    int game = 0;
};
// `path` as the request line has it (a query string ignored).
Route route(Method method, std::string_view path);

// A Last-Event-ID header's value as an id, or nullopt (absent, or not a plain decimal number).
std::optional<std::uint64_t> parse_last_event_id(std::string_view value);

}  // namespace bg::serve
