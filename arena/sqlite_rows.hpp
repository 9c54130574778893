// The arena's SQLite store's rows (arena/sqlite_store.hpp): each read into its value, each
// written from it, and the time as the store writes it. Shared by the store's writes
// (sqlite_store.cpp) and its reads (sqlite_reads.cpp); nothing else includes it.
#pragma once

#include <string>

#include <SQLiteCpp/SQLiteCpp.h>

#include "arena/core/records.hpp"

namespace bg::arena::rows {

extern const char* const bot_columns;
extern const char* const entry_columns;
extern const char* const match_columns;
// SQLite's clock as the store writes times: UTC, to the millisecond.
extern const char* const now_sql;

Bot bot_from(SQLite::Statement& q);
Entry entry_from(SQLite::Statement& q);
Match match_from(SQLite::Statement& q);
// An entrant's row of match_entries from column `at` on: entry_id, seat, rank, mu_before,
// sigma_before, mu_after, sigma_after.
Rated rated_from(SQLite::Statement& q, int at);
StoredGame game_from(SQLite::Statement& q);
// A game's referee counts as the games table holds them: one object a seat, or null where the
// seat has none.
std::string counts_text(const GameResult& result);
// The time now, as the store writes it (now_sql).
std::string now_text(SQLite::Database& db);

}  // namespace bg::arena::rows
