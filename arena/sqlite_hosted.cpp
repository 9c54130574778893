// The hosted bots' versions in the arena's SQLite file (arena/sqlite_store.hpp: the hosted
// table, schema 6).
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "arena/sqlite_rows.hpp"
#include "arena/sqlite_store.hpp"

namespace bg::arena {

using namespace rows;

namespace {

constexpr const char* hosted_columns =
    "h.entry_id, n.bot_id, n.label, h.sha256, h.command, h.protocol, h.submitted, "
    "COALESCE(h.report, '')";

HostedVersion hosted_from(SQLite::Statement& q) {
    HostedVersion v;
    v.entry = q.getColumn(0).getInt();
    v.bot = q.getColumn(1).getInt();
    v.label = q.getColumn(2).getString();
    v.sha256 = q.getColumn(3).getString();
    v.command = q.getColumn(4).getString();
    v.protocol = q.getColumn(5).getString();
    v.submitted = q.getColumn(6).getString();
    v.report = q.getColumn(7).getString();
    return v;
}

std::vector<HostedVersion> hosted_where(SQLite::Database& db, const std::string& where,
                                        std::optional<int> bot) {
    SQLite::Statement q(db, fmt::format("SELECT {} FROM hosted h JOIN entries n ON n.id = "
                                        "h.entry_id {} ORDER BY h.entry_id",
                                        hosted_columns, where));
    if (bot)
        q.bind(1, *bot);
    std::vector<HostedVersion> all;
    while (q.executeStep())
        all.push_back(hosted_from(q));
    return all;
}

}  // namespace

Entry SqliteHosted::add(SqliteAccounts& accounts, const Bot& bot, const HostedVersion& version) {
    SQLite::Statement taken(db_, "SELECT 1 FROM entries WHERE bot_id = ? AND label = ?");
    taken.bind(1, bot.id);
    taken.bind(2, version.label);
    if (taken.executeStep())
        throw std::invalid_argument(fmt::format(
            "{} has a version named {} already: name the new one otherwise (the manifest's "
            "\"label\")",
            bot.name, version.label));
    SQLite::Transaction transaction(db_);
    const Entry entry = accounts.entry(bot, version.label);
    SQLite::Statement insert(db_, fmt::format("INSERT INTO hosted (entry_id, sha256, command, "
                                              "protocol, submitted) VALUES (?, ?, ?, ?, {})",
                                              now_sql));
    insert.bind(1, entry.id);
    insert.bind(2, version.sha256);
    insert.bind(3, version.command);
    insert.bind(4, version.protocol);
    insert.exec();
    transaction.commit();
    return entry;
}

std::vector<HostedVersion> SqliteHosted::of(int bot) const {
    return hosted_where(db_, "WHERE n.bot_id = ?", bot);
}

std::vector<HostedVersion> SqliteHosted::all() const {
    return hosted_where(db_, "", {});
}

void SqliteHosted::set_report(int entry, const std::string& report) {
    SQLite::Statement update(db_, "UPDATE hosted SET report = ? WHERE entry_id = ?");
    update.bind(1, report);
    update.bind(2, entry);
    update.exec();
}

std::pair<int, int> SqliteHosted::in_last_day(int bot) const {
    SQLite::Statement q(db_,
                        "SELECT COUNT(*), COALESCE(CAST((julianday(MIN(h.submitted)) + 1 - "
                        "julianday('now')) * 86400 AS INTEGER) + 1, 0) FROM hosted h JOIN "
                        "entries n ON n.id = h.entry_id WHERE n.bot_id = ? AND h.submitted >= "
                        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')");
    q.bind(1, bot);
    q.executeStep();
    return {q.getColumn(0).getInt(), q.getColumn(1).getInt()};
}

}  // namespace bg::arena
