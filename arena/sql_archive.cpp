// The arena's store's matches and their games, written and read (arena/sql_store.hpp).
#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "arena/sql_rows.hpp"
#include "arena/sql_store.hpp"
#include "serve/gzip.hpp"
#include "stats/median.hpp"

namespace bg::arena {

using namespace rows;

namespace {

// A game's event log, read from its file and gzipped, as the store keeps it; NULL where there
// is none to read (no log was written, or it is gone).
sql::Value kept_log(const std::string& path) {
    if (path.empty())
        return nullptr;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return nullptr;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string gzipped = serve::gzip(text);
    if (gzipped.empty())
        return nullptr;
    return sql::Blob(gzipped.begin(), gzipped.end());
}

}  // namespace

Store::Begun SqlArchive::begin_match(std::uint64_t seed) {
    const sql::Row r = db_.query(fmt::format("INSERT INTO matches (seed, state, started) VALUES "
                                             "(?, 'running', {}) RETURNING id, started",
                                             db_.now()),
                                 {std::to_string(seed)})
                           .at(0);
    return {r.number(0), r.text(1)};
}

std::string SqlArchive::rate_match(int match, const std::vector<Rated>& entrants,
                                   const std::vector<StoredGame>& games) {
    // Read and gzipped before the transaction, which holds the database's write lock.
    std::vector<sql::Value> logs;
    for (const StoredGame& g : games)
        logs.push_back(kept_log(g.log));
    sql::Transaction transaction(db_);
    const std::string at = now_text(db_);
    if (db_.execute("UPDATE matches SET state = 'rated', finished = ?, rated_order = "
                    "(SELECT COALESCE(MAX(rated_order), 0) + 1 FROM matches) WHERE id = ? "
                    "AND state = 'running'",
                    {at, std::int64_t{match}}) != 1)
        throw std::logic_error(fmt::format("match {} is not running: it cannot be rated", match));
    for (const Rated& r : entrants) {
        db_.execute(fmt::format("INSERT INTO match_entries (match_id, {}) VALUES (?, ?, ?, ?, ?, "
                                "?, ?, ?)",
                                rated_columns),
                    {std::int64_t{match}, std::int64_t{r.entry}, std::int64_t{r.seat},
                     std::int64_t{r.rank}, r.before.mu, r.before.sigma, r.after.mu, r.after.sigma});
        db_.execute("UPDATE entries SET mu = ?, sigma = ?, matches = matches + 1 WHERE id = ?",
                    {r.after.mu, r.after.sigma, std::int64_t{r.entry}});
    }
    // A game a worker played: its log as the worker stored it (its file is on the worker's
    // machine), moved to the game.
    for (std::size_t i = 0; i < games.size(); ++i)
        db_.execute(
            fmt::format("INSERT INTO games (match_id, {}, log_gz) VALUES (?, ?, ?, ?, ?, "
                        "COALESCE(?, (SELECT log_gz FROM job_logs WHERE match_id = ? AND "
                        "rotation = ?)))",
                        game_columns),
            {std::int64_t{match}, std::int64_t{games[i].rotation}, text_or_null(games[i].log),
             to_json(games[i].result).dump(), counts_text(games[i].result), logs[i],
             std::int64_t{match}, std::int64_t{games[i].rotation}});
    db_.execute("DELETE FROM job_logs WHERE match_id = ?", {std::int64_t{match}});
    transaction.commit();
    return at;
}

std::string SqlArchive::void_match(int match, const std::string& why) {
    const std::string at = now_text(db_);
    sql::Transaction transaction(db_);
    db_.execute(
        "UPDATE matches SET state = 'void', finished = ?, why = ? WHERE id = ? AND "
        "state = 'running'",
        {at, why, std::int64_t{match}});
    // A worker's match: its claim ends with it (a late result is refused), its logs dropped.
    db_.execute(
        "UPDATE jobs SET state = 'void' WHERE match_id = ? AND state IN ('queued', "
        "'claimed')",
        {std::int64_t{match}});
    db_.execute("DELETE FROM job_logs WHERE match_id = ?", {std::int64_t{match}});
    db_.execute("DELETE FROM game_stderr WHERE match_id = ?", {std::int64_t{match}});
    transaction.commit();
    return at;
}

int SqlArchive::void_running(const std::string& why) {
    sql::Transaction transaction(db_);
    // Their workers' claims end with them, and their logs are dropped.
    constexpr const char* running = "match_id IN (SELECT id FROM matches WHERE state = 'running')";
    db_.execute(
        fmt::format("UPDATE jobs SET state = 'void' WHERE state <> 'void' AND {}", running));
    db_.execute(fmt::format("DELETE FROM job_logs WHERE {}", running));
    db_.execute(fmt::format("DELETE FROM game_stderr WHERE {}", running));
    const auto voided = db_.execute(fmt::format("UPDATE matches SET state = 'void', finished "
                                                "= {}, why = ? WHERE state = 'running'",
                                                db_.now()),
                                    {why});
    transaction.commit();
    return static_cast<int>(voided);
}

std::vector<Rated> SqlArchive::entrants_of(int match) const {
    std::vector<Rated> all;
    for (const sql::Row& r : db_.query(fmt::format("SELECT {} FROM match_entries WHERE match_id "
                                                   "= ? ORDER BY seat",
                                                   rated_columns),
                                       {std::int64_t{match}}))
        all.push_back(rated_from(r, 0));
    return all;
}

std::vector<Match> SqlArchive::matches_where(const std::string& rest,
                                             const std::vector<sql::Value>& parameters,
                                             bool with_entrants) const {
    std::vector<Match> all;
    for (const sql::Row& r :
         db_.query(fmt::format("SELECT {} FROM matches {}", match_columns, rest), parameters))
        all.push_back(match_from(r));
    if (with_entrants)
        for (Match& m : all)
            if (m.state == "rated")
                m.entrants = entrants_of(m.id);
    return all;
}

std::vector<Match> SqlArchive::matches() const {
    return matches_where("ORDER BY id DESC", {}, true);
}

std::vector<Match> SqlArchive::last_over(int n) const {
    return matches_where("WHERE state != 'running' ORDER BY finished DESC, id DESC LIMIT ?",
                         {std::int64_t{n}}, false);
}

std::vector<Match> SqlArchive::rated_in_order() const {
    return matches_where("WHERE state = 'rated' ORDER BY rated_order", {}, true);
}

std::optional<Match> SqlArchive::match(int id) const {
    auto found = matches_where("WHERE id = ?", {std::int64_t{id}}, true);
    if (found.empty())
        return std::nullopt;
    return std::move(found.front());
}

std::vector<Store::Played> SqlArchive::history(int entry) const {
    std::vector<Store::Played> all;
    for (const sql::Row& r :
         db_.query("SELECT m.id, m.finished, e.entry_id, e.seat, e.rank, e.mu_before, "
                   "e.sigma_before, e.mu_after, e.sigma_after FROM match_entries e "
                   "JOIN matches m ON m.id = e.match_id WHERE e.entry_id = ? ORDER BY "
                   "m.rated_order",
                   {std::int64_t{entry}}))
        all.push_back({r.number(0), r.text(1), rated_from(r, 2)});
    return all;
}

std::pair<int, int> SqlArchive::matches_in_last_day(int bot) const {
    return in_last_day(db_,
                       "SELECT COUNT(*), MIN(m.finished) FROM match_entries e JOIN entries n ON "
                       "n.id = e.entry_id JOIN matches m ON m.id = e.match_id WHERE n.bot_id = ? "
                       "AND m.finished >= ?",
                       {std::int64_t{bot}});
}

std::map<int, double> SqlArchive::round_trips(int matches) const {
    // Entrant e of a match of k sat in seat (e - r) mod k of rotation r: its player there.
    const std::string rtt = db_.json_number(
        "g.result", "players", "(me.seat - g.rotation + t.k * 8) % t.k", {"remote", "rtt_ms"});
    std::map<int, std::vector<double>> each;
    for (const sql::Row& r : db_.query(
             fmt::format("SELECT n.bot_id, {} FROM games g JOIN match_entries me ON me.match_id "
                         "= g.match_id JOIN entries n ON n.id = me.entry_id JOIN (SELECT "
                         "match_id, COUNT(*) AS k FROM match_entries GROUP BY match_id) t ON "
                         "t.match_id = g.match_id JOIN matches m ON m.id = g.match_id WHERE "
                         "m.rated_order > (SELECT COALESCE(MAX(rated_order), 0) FROM matches) - ?",
                         rtt),
             {std::int64_t{matches}}))
        if (!r.null(1))
            each[r.number(0)].push_back(r.real(1));
    std::map<int, double> medians;
    for (const auto& [bot, trips] : each)
        medians[bot] = *stats::median(trips);
    return medians;
}

std::vector<RecentMatch> SqlArchive::recent_groups(int n) const {
    std::vector<RecentMatch> groups;
    int last = 0;
    for (const sql::Row& r :
         db_.query("SELECT e.match_id, e.entry_id FROM match_entries e JOIN matches m ON m.id = "
                   "e.match_id WHERE m.rated_order > (SELECT COALESCE(MAX(rated_order), 0) FROM "
                   "matches) - ? ORDER BY m.rated_order, e.seat",
                   {std::int64_t{n}})) {
        if (groups.empty() || r.number(0) != last)
            groups.emplace_back();
        last = r.number(0);
        groups.back().push_back(r.number(1));
    }
    return groups;
}

std::vector<StoredGame> SqlArchive::games_of(int match) const {
    std::vector<StoredGame> all;
    for (const sql::Row& r : db_.query(
             fmt::format("SELECT {} FROM games WHERE match_id = ? ORDER BY rotation", game_columns),
             {std::int64_t{match}}))
        all.push_back(game_from(r));
    return all;
}

namespace {

// The gzipped text in the first column of the first row found, unzipped; none where no row is.
std::optional<std::string> gunzipped_first(const sql::Rows& found) {
    if (found.empty())
        return std::nullopt;
    const sql::Blob& gzipped = found.front().blob(0);
    return serve::gunzip(
        std::string_view(reinterpret_cast<const char*>(gzipped.data()), gzipped.size()));
}

}  // namespace

std::optional<std::string> SqlArchive::game_log(int match, int rotation) const {
    return gunzipped_first(db_.query(
        "SELECT log_gz FROM games WHERE match_id = ? AND rotation = ? AND log_gz IS NOT NULL",
        {std::int64_t{match}, std::int64_t{rotation}}));
}

std::optional<std::string> SqlArchive::game_stderr(int match, int rotation, int seat) const {
    return gunzipped_first(db_.query(
        "SELECT text_gz FROM game_stderr WHERE match_id = ? AND rotation = ? AND seat = ?",
        {std::int64_t{match}, std::int64_t{rotation}, std::int64_t{seat}}));
}

std::vector<Store::SeatGame> SqlArchive::games_of_entry(int entry) const {
    std::vector<Store::SeatGame> all;
    for (const sql::Row& r :
         db_.query("SELECT g.match_id, e.seat, (SELECT COUNT(*) FROM match_entries x WHERE "
                   "x.match_id = g.match_id) AS players, g.rotation, g.log, g.result, g.counts "
                   "FROM games g JOIN match_entries e ON e.match_id = g.match_id WHERE "
                   "e.entry_id = ? ORDER BY g.match_id, g.rotation",
                   {std::int64_t{entry}}))
        all.push_back({r.number(0), r.number(1), r.number(2), game_from(r, 3)});
    return all;
}

std::vector<std::pair<int, Rated>> SqlArchive::tables_of(int entry) const {
    std::vector<std::pair<int, Rated>> all;
    for (const sql::Row& r : db_.query(
             fmt::format("SELECT match_id, {} FROM match_entries WHERE match_id IN (SELECT "
                         "match_id FROM match_entries WHERE entry_id = ?) ORDER BY match_id, seat",
                         rated_columns),
             {std::int64_t{entry}}))
        all.push_back({r.number(0), rated_from(r, 1)});
    return all;
}

}  // namespace bg::arena
