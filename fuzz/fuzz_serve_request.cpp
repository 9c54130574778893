// libFuzzer: what --serve makes of bytes it did not choose: a request's path (libwebsockets
// parses the request; serve/request.hpp decides what the path names), a Last-Event-ID header and
// the --serve argument. Only "/", "/events" and "/games/N" (N a positive decimal without a
// leading zero) are ever served; an address that parses prints and parses back to itself; an
// id that parses is the header's digits (leading zeros aside).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "serve/request.hpp"

using namespace bg::serve;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const auto method = data[0] % 3 == 0   ? Method::get
                        : data[0] % 3 == 1 ? Method::head
                                           : Method::other;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    const Route found = route(method, text);
    const std::string_view path = text.substr(0, text.find('?'));
    if (found.kind == Route::page && path != "/")
        std::abort();
    if (found.kind == Route::events && path != "/events")
        std::abort();
    if (found.kind == Route::game_page &&
        (found.game <= 0 || path != "/games/" + std::to_string(found.game)))
        std::abort();
    if (found.kind != Route::not_found && path.find("..") != std::string_view::npos)
        std::abort();
    if (found.kind == Route::not_allowed && method != Method::other)
        std::abort();

    const auto address = parse_address(text);
    if (const auto* parsed = std::get_if<Address>(&address)) {
        if (parsed->port < 0 || parsed->port > 65535)
            std::abort();
        const auto again = parse_address(parsed->authority());
        const auto* same = std::get_if<Address>(&again);
        if (!same || same->host != parsed->host || same->port != parsed->port)
            std::abort();
    }

    if (const auto id = parse_last_event_id(text)) {
        std::string_view digits = text;
        while (!digits.empty() && digits.front() == ' ')
            digits.remove_prefix(1);
        while (!digits.empty() && digits.back() == ' ')
            digits.remove_suffix(1);
        while (digits.size() > 1 && digits.front() == '0')
            digits.remove_prefix(1);
        if (std::to_string(*id) != digits)
            std::abort();
    }
    return 0;
}
