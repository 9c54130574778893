// The arena's SQLite store's accounts and their rating entries (arena/sqlite_store.hpp).
#include <stdexcept>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "arena/sqlite_rows.hpp"
#include "arena/sqlite_store.hpp"
#include "core/text.hpp"
#include "remote/token.hpp"

namespace bg::arena {

using namespace rows;

std::string SqliteAccounts::add_bot(const std::string& name, const std::string& owner,
                                    const std::optional<std::string>& command,
                                    const std::optional<double>& anchor) {
    if (!owner.empty() && !valid_name(owner))
        throw std::invalid_argument(
            fmt::format("'{}' cannot be an owner's name: 1 to 40 of a-z A-Z 0-9 _ . -, a letter or "
                        "digit among them",
                        escape_for_terminal(owner)));
    if (anchor && !command)
        throw std::invalid_argument("only a house bot (--command) can be the anchor");
    if (anchor)
        for (const Bot& b : bots())
            if (b.anchor)
                throw std::invalid_argument(
                    fmt::format("{} is the anchor already: an arena has one", b.name));
    Bot bot;
    bot.name = name;
    bot.owner = owner.empty() ? name : owner;
    bot.command = command;
    bot.anchor = anchor;
    return add_account(bot, remote::draw_token());
}

std::string SqliteAccounts::add_person(const std::string& name, const std::string& code) {
    if (!code.empty() && !remote::token_problem(code).empty())
        throw std::invalid_argument("a code is 16 to 64 of A-Z a-z 0-9 _ -");
    Bot person;
    person.name = person.owner = name;
    person.person = true;
    return add_account(person, code.empty() ? remote::draw_token() : code);
}

std::string SqliteAccounts::add_account(const Bot& account, std::string token) {
    const char* const kind = account.person ? "person" : "bot";
    if (!valid_name(account.name))
        throw std::invalid_argument(
            fmt::format("'{}' cannot be a {}'s name: 1 to 40 of a-z A-Z 0-9 _ . -, a letter or "
                        "digit among them",
                        escape_for_terminal(account.name), kind));
    // One name space for bots and people: a name on a page is one account's.
    for (const Bot& b : bots(true))
        if (b.name == account.name)
            throw std::invalid_argument(fmt::format("there is a {} named {} already{}",
                                                    b.person ? "person" : "bot", account.name,
                                                    b.state == "removed" ? " (removed)" : ""));
    SQLite::Statement insert(
        db_, fmt::format("INSERT INTO bots (name, owner, command, anchor, token_hash, state, "
                         "created, person) VALUES (?, ?, ?, ?, ?, 'active', {}, ?)",
                         now_sql));
    insert.bind(1, account.name);
    insert.bind(2, account.owner);
    if (account.command)
        insert.bind(3, *account.command);
    if (account.anchor)
        insert.bind(4, *account.anchor);
    insert.bind(5, token_hash(token));
    insert.bind(6, account.person ? 1 : 0);
    insert.exec();
    return token;
}

std::vector<Bot> SqliteAccounts::bots(bool removed_too) const {
    SQLite::Statement q(db_, fmt::format("SELECT {} FROM bots{} ORDER BY name", bot_columns,
                                         removed_too ? "" : " WHERE state != 'removed'"));
    std::vector<Bot> all;
    while (q.executeStep())
        all.push_back(bot_from(q));
    return all;
}

std::optional<Bot> SqliteAccounts::bot(const std::string& name) const {
    SQLite::Statement q(db_, fmt::format("SELECT {} FROM bots WHERE name = ?", bot_columns));
    q.bind(1, name);
    if (!q.executeStep())
        return std::nullopt;
    return bot_from(q);
}

std::optional<Bot> SqliteAccounts::bot_by_token(const std::string& token) const {
    // Looked up by the token's hash: what is compared is not the token, and a wrong token's
    // hash says nothing of a right one.
    SQLite::Statement q(db_, fmt::format("SELECT {} FROM bots WHERE token_hash = ? AND state = "
                                         "'active'",
                                         bot_columns));
    q.bind(1, token_hash(token));
    if (!q.executeStep())
        return std::nullopt;
    return bot_from(q);
}

void SqliteAccounts::set_state(int bot, const std::string& state) {
    SQLite::Statement update(db_, "UPDATE bots SET state = ? WHERE id = ?");
    update.bind(1, state);
    update.bind(2, bot);
    update.exec();
}

void SqliteAccounts::set_about(int bot, const std::string& about) {
    if (!valid_about(about))
        throw std::invalid_argument(about_rule);
    SQLite::Statement update(db_, "UPDATE bots SET about = ? WHERE id = ?");
    if (about.empty())
        update.bind(1);
    else
        update.bind(1, about);
    update.bind(2, bot);
    update.exec();
}

std::string SqliteAccounts::set_paused(int bot, const std::string& why) {
    const std::string at = why.empty() ? "" : now_text(db_);
    SQLite::Statement update(db_, "UPDATE bots SET paused = ?, paused_at = ? WHERE id = ?");
    if (!why.empty()) {
        update.bind(1, why);
        update.bind(2, at);
    }
    update.bind(3, bot);
    update.exec();
    return at;
}

std::string SqliteAccounts::record_check(int entry, bool passed, const std::string& why) {
    SQLite::Transaction transaction(db_);
    const std::string at = now_text(db_);
    SQLite::Statement update(
        db_, passed ? "UPDATE entries SET checked = ?, check_failed = NULL WHERE id = ?"
                    : "UPDATE entries SET check_failed = ? WHERE id = ?");
    update.bind(1, passed ? at : why);
    update.bind(2, entry);
    update.exec();
    if (passed) {
        SQLite::Statement unpause(db_,
                                  "UPDATE bots SET paused = NULL, paused_at = NULL WHERE id = "
                                  "(SELECT bot_id FROM entries WHERE id = ?)");
        unpause.bind(1, entry);
        unpause.exec();
    }
    transaction.commit();
    return at;
}

std::string SqliteAccounts::rotate_token(int bot) {
    const std::string token = remote::draw_token();
    SQLite::Statement update(db_, "UPDATE bots SET token_hash = ? WHERE id = ?");
    update.bind(1, token_hash(token));
    update.bind(2, bot);
    update.exec();
    return token;
}

Entry SqliteAccounts::entry(const Bot& bot, const std::string& label) {
    SQLite::Statement q(
        db_, fmt::format("SELECT {} FROM entries WHERE bot_id = ? AND label = ?", entry_columns));
    q.bind(1, bot.id);
    q.bind(2, label);
    if (q.executeStep())
        return entry_from(q);
    const stats::Belief first = bot.anchor ? stats::Belief{*bot.anchor, 0} : model_.initial();
    SQLite::Statement insert(db_, fmt::format("INSERT INTO entries (bot_id, label, mu, sigma, "
                                              "created) VALUES (?, ?, ?, ?, {})",
                                              now_sql));
    insert.bind(1, bot.id);
    insert.bind(2, label);
    insert.bind(3, first.mu);
    insert.bind(4, first.sigma);
    insert.exec();
    return entry(bot, label);
}

std::vector<Entry> SqliteAccounts::entries() const {
    SQLite::Statement q(db_, fmt::format("SELECT {} FROM entries ORDER BY id", entry_columns));
    std::vector<Entry> all;
    while (q.executeStep())
        all.push_back(entry_from(q));
    return all;
}

std::vector<Entry> SqliteAccounts::entries_of(int bot) const {
    SQLite::Statement q(
        db_, fmt::format("SELECT {} FROM entries WHERE bot_id = ? ORDER BY id", entry_columns));
    q.bind(1, bot);
    std::vector<Entry> all;
    while (q.executeStep())
        all.push_back(entry_from(q));
    return all;
}

}  // namespace bg::arena
