// The arena's SQLite store's reads of matches and their games (arena/sqlite_store.hpp).
#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "arena/sqlite_rows.hpp"
#include "arena/sqlite_store.hpp"

namespace bg::arena {

using namespace rows;

std::vector<Rated> SqliteStore::entrants_of(int match) const {
    SQLite::Statement q(*db_,
                        "SELECT entry_id, seat, rank, mu_before, sigma_before, mu_after, "
                        "sigma_after FROM match_entries WHERE match_id = ? ORDER BY seat");
    q.bind(1, match);
    std::vector<Rated> all;
    while (q.executeStep())
        all.push_back(rated_from(q, 0));
    return all;
}

std::vector<Match> SqliteStore::matches() const {
    SQLite::Statement q(*db_,
                        fmt::format("SELECT {} FROM matches ORDER BY id DESC", match_columns));
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    for (Match& m : all)
        if (m.state == "rated")
            m.entrants = entrants_of(m.id);
    return all;
}

std::vector<Match> SqliteStore::last_over(int n) const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM matches WHERE state != 'running' "
                                          "ORDER BY finished DESC, id DESC LIMIT ?",
                                          match_columns));
    q.bind(1, n);
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    return all;
}

std::vector<Match> SqliteStore::rated_in_order() const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM matches WHERE state = 'rated' ORDER BY "
                                          "rated_order",
                                          match_columns));
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    for (Match& m : all)
        m.entrants = entrants_of(m.id);
    return all;
}

std::optional<Match> SqliteStore::match(int id) const {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM matches WHERE id = ?", match_columns));
    q.bind(1, id);
    if (!q.executeStep())
        return std::nullopt;
    Match m = match_from(q);
    if (m.state == "rated")
        m.entrants = entrants_of(m.id);
    return m;
}

std::vector<Store::Played> SqliteStore::history(int entry) const {
    SQLite::Statement q(*db_,
                        "SELECT m.id, m.finished, e.entry_id, e.seat, e.rank, e.mu_before, "
                        "e.sigma_before, e.mu_after, e.sigma_after FROM match_entries e "
                        "JOIN matches m ON m.id = e.match_id WHERE e.entry_id = ? ORDER BY "
                        "m.rated_order");
    q.bind(1, entry);
    std::vector<Played> all;
    while (q.executeStep())
        all.push_back({q.getColumn(0).getInt(), q.getColumn(1).getString(), rated_from(q, 2)});
    return all;
}

std::pair<int, int> SqliteStore::matches_in_last_day(int bot) const {
    SQLite::Statement q(*db_,
                        "SELECT COUNT(*), COALESCE(CAST((julianday(MIN(m.finished)) + 1 - "
                        "julianday('now')) * 86400 AS INTEGER) + 1, 0) FROM match_entries e "
                        "JOIN entries n ON n.id = e.entry_id JOIN matches m ON m.id = "
                        "e.match_id WHERE n.bot_id = ? AND m.finished >= strftime("
                        "'%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')");
    q.bind(1, bot);
    q.executeStep();
    return {q.getColumn(0).getInt(), q.getColumn(1).getInt()};
}

std::vector<RecentMatch> SqliteStore::recent_groups(int n) const {
    SQLite::Statement q(*db_,
                        "SELECT e.match_id, e.entry_id FROM match_entries e JOIN matches m "
                        "ON m.id = e.match_id WHERE m.rated_order > (SELECT "
                        "COALESCE(MAX(rated_order), 0) FROM matches) - ? ORDER BY "
                        "m.rated_order, e.seat");
    q.bind(1, n);
    std::vector<RecentMatch> groups;
    int last = 0;
    while (q.executeStep()) {
        if (groups.empty() || q.getColumn(0).getInt() != last)
            groups.emplace_back();
        last = q.getColumn(0).getInt();
        groups.back().push_back(q.getColumn(1).getInt());
    }
    return groups;
}

std::vector<StoredGame> SqliteStore::games_of(int match) const {
    SQLite::Statement q(*db_,
                        "SELECT rotation, log, result, counts FROM games WHERE match_id = ? "
                        "ORDER BY rotation");
    q.bind(1, match);
    std::vector<StoredGame> all;
    while (q.executeStep())
        all.push_back(game_from(q));
    return all;
}

std::vector<Store::SeatGame> SqliteStore::games_of_entry(int entry) const {
    SQLite::Statement q(*db_,
                        "SELECT g.match_id, e.seat, (SELECT COUNT(*) FROM match_entries x WHERE "
                        "x.match_id = g.match_id) AS players, g.rotation, g.log, g.result, "
                        "g.counts FROM games g JOIN match_entries e ON e.match_id = g.match_id "
                        "WHERE e.entry_id = ? ORDER BY g.match_id, g.rotation");
    q.bind(1, entry);
    std::vector<SeatGame> all;
    while (q.executeStep())
        all.push_back({q.getColumn(0).getInt(), q.getColumn(1).getInt(), q.getColumn(2).getInt(),
                       game_from(q)});
    return all;
}

std::vector<std::pair<int, Rated>> SqliteStore::tables_of(int entry) const {
    SQLite::Statement q(*db_,
                        "SELECT match_id, entry_id, seat, rank, mu_before, sigma_before, "
                        "mu_after, sigma_after FROM match_entries WHERE match_id IN (SELECT "
                        "match_id FROM match_entries WHERE entry_id = ?) ORDER BY match_id, seat");
    q.bind(1, entry);
    std::vector<std::pair<int, Rated>> all;
    while (q.executeStep())
        all.push_back({q.getColumn(0).getInt(), rated_from(q, 1)});
    return all;
}

}  // namespace bg::arena
