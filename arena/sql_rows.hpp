// The arena's store's rows (arena/sql_store.hpp): each read into its value, each written from
// it, as both databases hold them. Shared by the store's parts; nothing else includes it.
#pragma once

#include <cstdint>
#include <string>

#include "arena/core/records.hpp"
#include "sql/connection.hpp"

namespace bg::arena::rows {

// The columns each reader below takes, in its order.
extern const char* const bot_columns;
extern const char* const entry_columns;
extern const char* const match_columns;
extern const char* const game_columns;
extern const char* const rated_columns;

Bot bot_from(const sql::Row& r);
Entry entry_from(const sql::Row& r);
Match match_from(const sql::Row& r);
// An entrant's row of match_entries (rated_columns) from column `at` on.
Rated rated_from(const sql::Row& r, std::size_t at);
// A game (game_columns) from column `at` on.
StoredGame game_from(const sql::Row& r, std::size_t at = 0);
// A game's referee counts as the games table holds them: one object a seat, or null where the
// seat has none.
std::string counts_text(const GameResult& result);
// And back into the result's seats.
void read_counts(GameResult& result, const std::string& counts);
// The time now, as the store writes it (sql::Connection::now).
std::string now_text(sql::Connection& db);
// A time as the store writes it, in ms since the epoch, and back; and a day's ms.
std::int64_t ms_of(const std::string& time);
std::string time_of(std::int64_t ms);
inline constexpr std::int64_t day_ms = 24 * 3600 * 1000;
// Rows made within the last day (their time column `time` at or after now less a day): how
// many, and the seconds until the first of them is a day old (0 when none). `counted` selects
// COUNT(*) and MIN(time) with one parameter, the time a day ago, after `parameters`.
std::pair<int, int> in_last_day(sql::Connection& db, const std::string& counted,
                                std::vector<sql::Value> parameters);
// An optional text: NULL when empty.
sql::Value text_or_null(const std::string& text);

}  // namespace bg::arena::rows
