// The pages' script and style, read from viewer/*.js and viewer/page.css at build time.
#pragma once

namespace bg::viewer::assets {

extern const char* const page_css;
extern const char* const grid_js;  // before game_js and live_js
extern const char* const game_js;
extern const char* const report_js;
extern const char* const live_js;
extern const char* const play_js;
extern const char* const arena_js;  // before each of the arena's pages' own
extern const char* const arena_board_js;
extern const char* const arena_bot_js;
extern const char* const arena_match_js;
extern const char* const arena_live_js;
extern const char* const arena_season_js;

}  // namespace bg::viewer::assets
