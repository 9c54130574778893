// The arena's pages (docs/arena.md, "Pages"): the leaderboard (/), a bot's or a person's page
// (/bots/NAME, /people/NAME), a match's (/matches/ID) and each of its games' replay pages
// (/matches/ID/games/R), what is playing now (/live), and the seasons (/seasons,
// /seasons/NAME). Each page is drawn in the browser from
// its JSON twin in the API (viewer/arena_*.js), and follows the arena's event stream.
//
// What a spectator may see (docs/arena.md, "Spectators"): a match's games, their boards and
// logs, only once every rotation of it is over. While it plays, its deal is played again in
// another seat, and a board would show a player the tiles that seat is dealt.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "arena/store.hpp"

namespace bg::arena {

// The rule, as the live page and /api/live say it.
extern const char* const spectator_rule;

// A page's path as the arena serves it: what it names, or none (404).
struct PagePath {
    enum Kind {
        bot_page,
        person_page,
        match_page,
        game_page,
        live_page,
        seasons_page,
        season_page
    } kind = live_page;
    std::string name;  // bot, person, season
    int match = 0;     // match, game
    int rotation = 0;  // game
};
std::optional<PagePath> page_path(const std::string& path);
// The number a path names: 1 to 9 digits, no sign, no leading zero (one name for one match).
std::optional<int> path_number(const std::string& text, bool zero_too = false);

// The page at `path`, or none: a page of an account, match or game there is not (removed, or
// a running match's game) is none. `chart_js`: the charting library's script, put in a bot's
// page ("": its chart says the library is missing).
std::optional<std::string> arena_page(const Store& store, const std::string& path,
                                      const std::string& chart_js);
// A game of a match over, as /api/matches/ID/games/R has it: its log's records (each seed also as
// text); none while the match plays, for a game not stored, or one whose log was not kept or
// cannot be read.
std::optional<nlohmann::json> game_records_json(const Store& store, int match, int rotation);

}  // namespace bg::arena
