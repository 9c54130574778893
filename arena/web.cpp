#include "arena/web.hpp"

#include <fstream>
#include <sstream>
#include <variant>

#include "arena/api.hpp"
#include "arena/seasons.hpp"
#include "serve/records.hpp"
#include "viewer/pages.hpp"

namespace bg::arena {

const char* const spectator_rule =
    "A match is shown once every rotation of it is over: while it plays, its deal is played "
    "again with the seats turned, and a board would show a player the tiles its next seat is "
    "dealt. Matches playing now are named here, with how far they are; their boards come when "
    "they are over.";

std::optional<int> path_number(const std::string& text, bool zero_too) {
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    if (text.front() == '0' && !(zero_too && text == "0"))
        return std::nullopt;
    return std::stoi(text);
}

std::optional<PagePath> page_path(const std::string& path) {
    PagePath found;
    if (path == "/live")
        return found;
    if (path == "/seasons") {
        found.kind = PagePath::seasons_page;
        return found;
    }
    for (const auto& [prefix, kind] :
         {std::pair{"/bots/", PagePath::bot_page}, std::pair{"/people/", PagePath::person_page},
          std::pair{"/seasons/", PagePath::season_page}}) {
        const std::string start = prefix;
        // "." and "..": names an account may have, but a browser resolves them out of a path.
        if (const std::string name = path.substr(std::min(start.size(), path.size()));
            path.starts_with(start) && valid_name(name) && name != "." && name != "..") {
            found.kind = kind;
            found.name = name;
            return found;
        }
    }
    if (!path.starts_with("/matches/"))
        return std::nullopt;
    const std::string rest = path.substr(9);
    const auto slash = rest.find('/');
    const auto match = path_number(rest.substr(0, slash));
    if (!match)
        return std::nullopt;
    found.match = *match;
    found.kind = PagePath::match_page;
    if (slash == std::string::npos)
        return found;
    const std::string games = "/games/";
    if (rest.compare(slash, games.size(), games) != 0)
        return std::nullopt;
    const auto rotation = path_number(rest.substr(slash + games.size()), true);
    if (!rotation)
        return std::nullopt;
    found.kind = PagePath::game_page;
    found.rotation = *rotation;
    return found;
}

namespace {

// The log of a stored game of a match over, or none.
std::optional<std::vector<nlohmann::json>> game_log(const Store& store, int match, int rotation) {
    const auto m = store.match(match);
    if (!m || m->state == "running")
        return std::nullopt;
    for (const StoredGame& g : store.games_of(match)) {
        if (g.rotation != rotation || g.log.empty())
            continue;
        // As the store keeps it; else (a game rated before it kept logs) from its file.
        const auto kept = store.game_log(match, rotation);
        std::istringstream from_store(kept.value_or(""));
        std::ifstream from_file;
        if (!kept)
            from_file.open(g.log);
        std::istream& in = kept ? static_cast<std::istream&>(from_store) : from_file;
        if (!in)
            return std::nullopt;
        auto read = viewer::read_records(in);
        if (auto* records = std::get_if<std::vector<nlohmann::json>>(&read))
            return std::move(*records);
        return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> arena_page(const Store& store, const std::string& path,
                                      const std::string& chart_js) {
    const auto found = page_path(path);
    if (!found)
        return std::nullopt;
    switch (found->kind) {
        case PagePath::live_page:
            return viewer::arena_live_page();
        case PagePath::bot_page:
        case PagePath::person_page:
            if (const auto bot = store.bot(found->name);
                !bot || bot->state == "removed" ||
                bot->person != (found->kind == PagePath::person_page))
                return std::nullopt;
            return viewer::arena_bot_page(chart_js);
        case PagePath::match_page:
            if (!store.match(found->match))
                return std::nullopt;
            return viewer::arena_match_page();
        case PagePath::seasons_page:
            return viewer::arena_season_page(false);
        case PagePath::season_page:
            if (!store.seasons().find(found->name))
                return std::nullopt;
            return viewer::arena_season_page(true);
        case PagePath::game_page:
            if (auto records = game_log(store, found->match, found->rotation))
                return viewer::game_page(
                    *records, {},
                    nlohmann::json{{"match", found->match}, {"rotation", found->rotation}});
            return std::nullopt;
    }
    return std::nullopt;
}

std::optional<nlohmann::json> game_records_json(const Store& store, int match, int rotation) {
    const auto records = game_log(store, match, rotation);
    if (!records)
        return std::nullopt;
    nlohmann::json shown = nlohmann::json::array();
    for (const auto& record : *records)
        shown.push_back(serve::with_seed_text(record));
    return nlohmann::json{{"version", api_version},
                          {"match", match},
                          {"rotation", rotation},
                          {"records", std::move(shown)}};
}

}  // namespace bg::arena
