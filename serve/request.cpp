#include "serve/request.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/text.hpp"
#include "core/tiles.hpp"

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
    else if (path == "/rules")
        found.kind = Route::rules;
    else if (path.starts_with("/wordlist/") && path.ends_with(".txt") && path.size() == 30) {
        const std::string_view fingerprint = path.substr(10, 16);
        if (std::all_of(fingerprint.begin(), fingerprint.end(),
                        [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); })) {
            found.kind = Route::word_list_text;
            found.fingerprint = std::string(fingerprint);
        }
    } else if (path.starts_with("/games/")) {
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

ForPlayers for_players(const GameSetup& setup, int players, const Dictionary& dictionary,
                       std::string_view list_name, std::uint64_t remote_grace_ms) {
    ForPlayers served;
    served.rules = {players,
                    setup.game.sets,
                    setup.ready_timeout_ms,
                    setup.stall_timeout_ms,
                    setup.game_timeout_ms,
                    remote_grace_ms};
    WordList& words = served.word_list;
    std::string_view name = list_name;
    name = name.substr(name.rfind('/') == std::string_view::npos ? 0 : name.rfind('/') + 1);
    for (const char c : name.substr(0, 120))
        words.name += c >= 0x21 && c <= 0x7e ? c : '_';
    if (words.name.empty())
        words.name = "unnamed";
    words.fingerprint = dictionary.stats().fingerprint;
    words.words = dictionary.stats().words;
    for (const auto& word : dictionary.words()) {
        for (const char c : word)
            words.text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        words.text += '\n';
    }
    return served;
}

std::string word_list_path(std::uint64_t fingerprint) {
    return fmt::format("/wordlist/{:016x}.txt", fingerprint);
}

namespace {

// A table's tiles: how many sets, tiles in all, a hand, and the bunch after the deal.
nlohmann::json table_json(int players, int sets) {
    std::string ignored;
    const auto tiles = tile_rules_for(players, sets, &ignored);
    const int total = tiles ? static_cast<int>(tiles->tiles().total()) : 0;
    const int hand = tiles ? tiles->hand_size : 0;
    return {{"players", players},
            {"sets", tiles ? tiles->sets : sets},
            {"tiles", total},
            {"hand", hand},
            {"bunch", total - players * hand}};
}

}  // namespace

nlohmann::json rules_json(const ForPlayers& served) {
    const GameRules& rules = served.rules;
    const WordList& words = served.word_list;
    nlohmann::json answer = table_json(rules.players, rules.sets);
    if (rules.fewest_players > 0 && rules.fewest_players < rules.players) {
        answer["tables"] = nlohmann::json::array();
        for (int players = rules.fewest_players; players <= rules.players; ++players)
            answer["tables"].push_back(table_json(players, rules.sets));
    }
    answer.update(nlohmann::json{{"ready_timeout_ms", rules.ready_timeout_ms},
                                 {"stall_timeout_ms", rules.stall_timeout_ms},
                                 {"game_timeout_ms", rules.game_timeout_ms},
                                 {"remote_grace_ms", rules.remote_grace_ms},
                                 {"word_list",
                                  {{"name", words.name},
                                   {"fingerprint", fmt::format("{:016x}", words.fingerprint)},
                                   {"words", words.words},
                                   {"url", word_list_path(words.fingerprint)}}}});
    if (rules.people_game_timeout_ms > 0)
        answer["people_game_timeout_ms"] = rules.people_game_timeout_ms;
    return answer;
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
