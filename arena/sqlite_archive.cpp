// The arena's SQLite store's matches and their games, written and read (arena/sqlite_store.hpp).
#include <algorithm>
#include <stdexcept>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "arena/sqlite_rows.hpp"
#include "arena/sqlite_store.hpp"
#include "stats/median.hpp"

namespace bg::arena {

using namespace rows;

Store::Begun SqliteArchive::begin_match(std::uint64_t seed) {
    const std::string at = now_text(db_);
    SQLite::Statement insert(db_,
                             "INSERT INTO matches (seed, state, started) VALUES (?, 'running', ?)");
    insert.bind(1, std::to_string(seed));
    insert.bind(2, at);
    insert.exec();
    return {static_cast<int>(db_.getLastInsertRowid()), at};
}

std::string SqliteArchive::rate_match(int match, const std::vector<Rated>& entrants,
                                      const std::vector<StoredGame>& games) {
    SQLite::Transaction transaction(db_);
    const std::string at = now_text(db_);
    SQLite::Statement state(db_,
                            "UPDATE matches SET state = 'rated', finished = ?, rated_order = "
                            "(SELECT COALESCE(MAX(rated_order), 0) + 1 FROM matches) WHERE id = ? "
                            "AND state = 'running'");
    state.bind(1, at);
    state.bind(2, match);
    if (state.exec() != 1)
        throw std::logic_error(fmt::format("match {} is not running: it cannot be rated", match));
    SQLite::Statement entrant(db_, "INSERT INTO match_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    SQLite::Statement rating(
        db_, "UPDATE entries SET mu = ?, sigma = ?, matches = matches + 1 WHERE id = ?");
    for (const Rated& r : entrants) {
        entrant.bind(1, match);
        entrant.bind(2, r.entry);
        entrant.bind(3, r.seat);
        entrant.bind(4, r.rank);
        entrant.bind(5, r.before.mu);
        entrant.bind(6, r.before.sigma);
        entrant.bind(7, r.after.mu);
        entrant.bind(8, r.after.sigma);
        entrant.exec();
        entrant.reset();
        rating.bind(1, r.after.mu);
        rating.bind(2, r.after.sigma);
        rating.bind(3, r.entry);
        rating.exec();
        rating.reset();
    }
    SQLite::Statement game(
        db_, "INSERT INTO games (match_id, rotation, log, result, counts) VALUES (?, ?, ?, ?, ?)");
    for (const StoredGame& g : games) {
        game.bind(1, match);
        game.bind(2, g.rotation);
        if (g.log.empty())
            game.bind(3);
        else
            game.bind(3, g.log);
        game.bind(4, to_json(g.result).dump());
        game.bind(5, counts_text(g.result));
        game.exec();
        game.reset();
    }
    transaction.commit();
    return at;
}

std::string SqliteArchive::void_match(int match, const std::string& why) {
    const std::string at = now_text(db_);
    SQLite::Statement update(db_,
                             "UPDATE matches SET state = 'void', finished = ?, why = ? WHERE id = "
                             "? AND state = 'running'");
    update.bind(1, at);
    update.bind(2, why);
    update.bind(3, match);
    update.exec();
    return at;
}

int SqliteArchive::void_running(const std::string& why) {
    SQLite::Statement update(db_, fmt::format("UPDATE matches SET state = 'void', finished = {}, "
                                              "why = ? WHERE state = 'running'",
                                              now_sql));
    update.bind(1, why);
    return update.exec();
}

std::vector<Rated> SqliteArchive::entrants_of(int match) const {
    SQLite::Statement q(db_,
                        "SELECT entry_id, seat, rank, mu_before, sigma_before, mu_after, "
                        "sigma_after FROM match_entries WHERE match_id = ? ORDER BY seat");
    q.bind(1, match);
    std::vector<Rated> all;
    while (q.executeStep())
        all.push_back(rated_from(q, 0));
    return all;
}

std::vector<Match> SqliteArchive::matches() const {
    SQLite::Statement q(db_, fmt::format("SELECT {} FROM matches ORDER BY id DESC", match_columns));
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    for (Match& m : all)
        if (m.state == "rated")
            m.entrants = entrants_of(m.id);
    return all;
}

std::vector<Match> SqliteArchive::last_over(int n) const {
    SQLite::Statement q(db_, fmt::format("SELECT {} FROM matches WHERE state != 'running' "
                                         "ORDER BY finished DESC, id DESC LIMIT ?",
                                         match_columns));
    q.bind(1, n);
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    return all;
}

std::vector<Match> SqliteArchive::rated_in_order() const {
    SQLite::Statement q(db_, fmt::format("SELECT {} FROM matches WHERE state = 'rated' ORDER BY "
                                         "rated_order",
                                         match_columns));
    std::vector<Match> all;
    while (q.executeStep())
        all.push_back(match_from(q));
    for (Match& m : all)
        m.entrants = entrants_of(m.id);
    return all;
}

std::optional<Match> SqliteArchive::match(int id) const {
    SQLite::Statement q(db_, fmt::format("SELECT {} FROM matches WHERE id = ?", match_columns));
    q.bind(1, id);
    if (!q.executeStep())
        return std::nullopt;
    Match m = match_from(q);
    if (m.state == "rated")
        m.entrants = entrants_of(m.id);
    return m;
}

std::vector<Store::Played> SqliteArchive::history(int entry) const {
    SQLite::Statement q(db_,
                        "SELECT m.id, m.finished, e.entry_id, e.seat, e.rank, e.mu_before, "
                        "e.sigma_before, e.mu_after, e.sigma_after FROM match_entries e "
                        "JOIN matches m ON m.id = e.match_id WHERE e.entry_id = ? ORDER BY "
                        "m.rated_order");
    q.bind(1, entry);
    std::vector<Store::Played> all;
    while (q.executeStep())
        all.push_back({q.getColumn(0).getInt(), q.getColumn(1).getString(), rated_from(q, 2)});
    return all;
}

std::pair<int, int> SqliteArchive::matches_in_last_day(int bot) const {
    SQLite::Statement q(db_,
                        "SELECT COUNT(*), COALESCE(CAST((julianday(MIN(m.finished)) + 1 - "
                        "julianday('now')) * 86400 AS INTEGER) + 1, 0) FROM match_entries e "
                        "JOIN entries n ON n.id = e.entry_id JOIN matches m ON m.id = "
                        "e.match_id WHERE n.bot_id = ? AND m.finished >= strftime("
                        "'%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')");
    q.bind(1, bot);
    q.executeStep();
    return {q.getColumn(0).getInt(), q.getColumn(1).getInt()};
}

std::map<int, double> SqliteArchive::round_trips(int matches) const {
    // Entrant e of a match of k sat in seat (e - r) mod k of rotation r: its player there.
    SQLite::Statement q(db_,
                        "SELECT n.bot_id, json_extract(g.result, '$.players[' || ((me.seat - "
                        "g.rotation + t.k * 8) % t.k) || '].remote.rtt_ms') FROM games g JOIN "
                        "match_entries me ON me.match_id = g.match_id JOIN entries n ON n.id = "
                        "me.entry_id JOIN (SELECT match_id, COUNT(*) AS k FROM match_entries "
                        "GROUP BY match_id) t ON t.match_id = g.match_id JOIN matches m ON m.id = "
                        "g.match_id WHERE m.rated_order > (SELECT COALESCE(MAX(rated_order), 0) "
                        "FROM matches) - ?");
    q.bind(1, matches);
    std::map<int, std::vector<double>> each;
    while (q.executeStep())
        if (!q.getColumn(1).isNull())
            each[q.getColumn(0).getInt()].push_back(q.getColumn(1).getDouble());
    std::map<int, double> medians;
    for (const auto& [bot, trips] : each)
        medians[bot] = *stats::median(trips);
    return medians;
}

std::vector<RecentMatch> SqliteArchive::recent_groups(int n) const {
    SQLite::Statement q(db_,
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

std::vector<StoredGame> SqliteArchive::games_of(int match) const {
    SQLite::Statement q(db_,
                        "SELECT rotation, log, result, counts FROM games WHERE match_id = ? "
                        "ORDER BY rotation");
    q.bind(1, match);
    std::vector<StoredGame> all;
    while (q.executeStep())
        all.push_back(game_from(q));
    return all;
}

std::vector<Store::SeatGame> SqliteArchive::games_of_entry(int entry) const {
    SQLite::Statement q(db_,
                        "SELECT g.match_id, e.seat, (SELECT COUNT(*) FROM match_entries x WHERE "
                        "x.match_id = g.match_id) AS players, g.rotation, g.log, g.result, "
                        "g.counts FROM games g JOIN match_entries e ON e.match_id = g.match_id "
                        "WHERE e.entry_id = ? ORDER BY g.match_id, g.rotation");
    q.bind(1, entry);
    std::vector<Store::SeatGame> all;
    while (q.executeStep())
        all.push_back({q.getColumn(0).getInt(), q.getColumn(1).getInt(), q.getColumn(2).getInt(),
                       game_from(q)});
    return all;
}

std::vector<std::pair<int, Rated>> SqliteArchive::tables_of(int entry) const {
    SQLite::Statement q(db_,
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
