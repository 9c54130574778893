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
#include <vector>

#include <nlohmann/json.hpp>

#include "core/dictionary.hpp"
#include "record/setup.hpp"

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

enum class Method { get, head, post, other };

// What a request is for.
struct Route {
    enum Kind {
        page,            // GET /: the live page
        events,          // GET /events: the event stream
        game_page,       // GET /games/N: the replay page of game N, once done
        play,            // GET /play: a person's page for a remote seat (its token after the #)
        rules,           // GET /rules: the games' rules and word list, for their remote players
        word_list_text,  // GET /wordlist/FINGERPRINT.txt: the word list, one word a line
        not_found,       // 404
        not_allowed,     // a method but GET or HEAD: 405
    };
    Kind kind = not_found;
    int game = 0;
    std::string fingerprint;  // word_list_text's: 16 lower-case hex digits (as logs write it)
};
// `path` as the request line has it (a query string ignored).
Route route(Method method, std::string_view path);

// The rules of the games whose remote seats a server takes, as their players read them (GET
// /rules): what every player knows from the start, and nothing of anyone's tiles.
struct GameRules {
    int players = 2;
    int sets = 1;  // as asked for: more are used when the players need them
    std::uint64_t ready_timeout_ms = 0;
    std::uint64_t stall_timeout_ms = 0;
    std::uint64_t game_timeout_ms = 0;
    std::uint64_t remote_grace_ms = 0;
    // Where tables of several sizes are seated (an arena's, from 2 to `players`), the fewest
    // players at one; 0: every table has `players`.
    int fewest_players = 0;
    // Where a game with a person at it has a longer clock (an arena's), that clock; 0: none.
    std::uint64_t people_game_timeout_ms = 0;
};

// The word list the games are judged by, as remote players fetch it.
struct WordList {
    std::string name;
    std::uint64_t fingerprint = 0;
    std::size_t words = 0;
    std::string text;
};

// What a server with remote seats serves their players beside the seats.
struct ForPlayers {
    GameRules rules;
    WordList word_list;
};
// For the remote players of games of `players` set up as `setup`, judged by `dictionary` (named
// `list_name` in their logs): the rules, and the word list as it is served (every word in lower
// case, one a line, in the list's order; its name without folders, which are the host's
// business).
ForPlayers for_players(const GameSetup& setup, int players, const Dictionary& dictionary,
                       std::string_view list_name, std::uint64_t remote_grace_ms);

// Where the word list with this fingerprint is served: /wordlist/FP.txt (16 hex digits).
std::string word_list_path(std::uint64_t fingerprint);

// GET /rules' answer: the rules (the sets used, the tiles, each hand and the bunch at the deal
// worked out from them), and the word list's name, fingerprint, size and path.
nlohmann::json rules_json(const ForPlayers& served);

// A Last-Event-ID header's value as an id, or nullopt (absent, or not a plain decimal number).
std::optional<std::uint64_t> parse_last_event_id(std::string_view value);

}  // namespace bg::serve
