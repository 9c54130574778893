// The pages people read a game and a tournament by: one self-contained HTML file each (the data
// as JSON, the script and the style inline; no network), drawn in the browser by viewer/game.js
// and viewer/report.js. Nothing a bot wrote reaches the page as markup: the data sits in a JSON
// script element with '<', '>' and '&' escaped, and the scripts only ever set text.
#pragma once

#include <istream>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace bg::viewer {

// `value` as JSON that can stand inside a <script> element.
std::string script_json(const nlohmann::json& value);

// An event log's records, one JSON object a line, or why it is not one.
std::variant<std::vector<nlohmann::json>, std::string> read_records(std::istream& log);

// The replay page of one game, from its event log's records (the start record first), with
// what each player wrote to stderr where it was kept (one text a seat; none, or fewer, where
// it was not).
// `arena`: an arena's game of a match over, {"match": ID, "rotation": R}, or null: its page is
// public, names its players (read from /api/matches/ID), links back to its match, opens at its
// end, and shows no command (an operator's paths).
std::string game_page(const std::vector<nlohmann::json>& records,
                      const std::vector<std::string>& player_stderr = {},
                      const nlohmann::json& arena = nullptr);

// The tournament report: {"standings": (tournament standings --json), "seats": [{"games",
// "wins"}...], "games": [{"id", "deal", "rotation", "state", "end", "winner", "seats",
// "page"}...], "notes": {"elo", "pairs"}: what the two ratings are}.
std::string report_page(const nlohmann::json& data);

// The live page of a tournament served while it plays (tournament run --serve): it draws what
// the server's event stream (/events) says.
std::string live_tournament_page();
// The live page of a game served while it plays (host --serve): the game's page, drawn from
// the server's event stream as the game goes on.
std::string live_game_page();
// A person's page for a remote seat (GET /play#TOKEN, docs/remote.md): a client of the protocol
// over the seat's WebSocket, with a board to lay the tiles on, peel and dump.
// An arena's (`arena`: {"people_open": bool}) has no seat's token: a person signs in with a
// name and a code, chooses an opponent, and plays a match's games over one connection.
std::string play_page(const nlohmann::json& arena = nullptr);

// The arena's pages (arena/web.hpp), each drawn from its JSON twin in the arena's API and kept
// up to date from its event stream: the leaderboards (GET /), a bot's or a person's page (its
// name, and whether a bot's or a person's, from the page's address), a match's, and what is
// playing now. `chart_js`: the charting library's script, inline in the page ("": none, said).
std::string arena_board_page();
std::string arena_bot_page(const std::string& chart_js);
std::string arena_match_page();
std::string arena_live_page();
// The seasons (/seasons), or a season's board and finals (/seasons/NAME).
std::string arena_season_page(bool one);

}  // namespace bg::viewer
