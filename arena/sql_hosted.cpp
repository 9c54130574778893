// The hosted bots' versions in the arena's store (arena/sql_store.hpp: the hosted table,
// schema 6).
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "arena/sql_rows.hpp"
#include "arena/sql_store.hpp"

namespace bg::arena {

using namespace rows;

namespace {

constexpr const char* hosted_columns =
    "h.entry_id, n.bot_id, n.label, h.sha256, h.command, h.protocol, h.submitted, "
    "COALESCE(h.report, '')";

std::vector<HostedVersion> hosted_where(sql::Connection& db, const std::string& where,
                                        std::optional<int> bot) {
    std::vector<sql::Value> parameters;
    if (bot)
        parameters.emplace_back(std::int64_t{*bot});
    std::vector<HostedVersion> all;
    for (const sql::Row& r : db.query(fmt::format("SELECT {} FROM hosted h JOIN entries n ON "
                                                  "n.id = h.entry_id {} ORDER BY h.entry_id",
                                                  hosted_columns, where),
                                      parameters)) {
        HostedVersion v;
        v.entry = r.number(0);
        v.bot = r.number(1);
        v.label = r.text(2);
        v.sha256 = r.text(3);
        v.command = r.text(4);
        v.protocol = r.text(5);
        v.submitted = r.text(6);
        v.report = r.text(7);
        all.push_back(std::move(v));
    }
    return all;
}

}  // namespace

Entry SqlHosted::add(SqlAccounts& accounts, const Bot& bot, const HostedVersion& version) {
    if (!db_.query("SELECT 1 FROM entries WHERE bot_id = ? AND label = ?",
                   {std::int64_t{bot.id}, version.label})
             .empty())
        throw std::invalid_argument(fmt::format(
            "{} has a version named {} already: name the new one otherwise (the manifest's "
            "\"label\")",
            bot.name, version.label));
    sql::Transaction transaction(db_);
    const Entry entry = accounts.entry(bot, version.label);
    db_.execute(fmt::format("INSERT INTO hosted (entry_id, sha256, command, protocol, submitted) "
                            "VALUES (?, ?, ?, ?, {})",
                            db_.now()),
                {std::int64_t{entry.id}, version.sha256, version.command, version.protocol});
    transaction.commit();
    return entry;
}

std::vector<HostedVersion> SqlHosted::of(int bot) const {
    return hosted_where(db_, "WHERE n.bot_id = ?", bot);
}

std::vector<HostedVersion> SqlHosted::all() const {
    return hosted_where(db_, "", {});
}

void SqlHosted::set_report(int entry, const std::string& report) {
    db_.execute("UPDATE hosted SET report = ? WHERE entry_id = ?", {report, std::int64_t{entry}});
}

std::pair<int, int> SqlHosted::in_last_day(int bot) const {
    return rows::in_last_day(db_,
                             "SELECT COUNT(*), MIN(h.submitted) FROM hosted h JOIN entries n ON "
                             "n.id = h.entry_id WHERE n.bot_id = ? AND h.submitted >= ?",
                             {std::int64_t{bot}});
}

}  // namespace bg::arena
