// The arena's store's accounts and their rating entries (arena/sql_store.hpp).
#include <stdexcept>

#include <fmt/format.h>

#include "arena/sql_rows.hpp"
#include "arena/sql_store.hpp"
#include "core/text.hpp"
#include "remote/token.hpp"

namespace bg::arena {

using namespace rows;

std::string SqlAccounts::add_bot(const std::string& name, const std::string& owner,
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

std::string SqlAccounts::add_person(const std::string& name, const std::string& code) {
    if (!code.empty() && !remote::token_problem(code).empty())
        throw std::invalid_argument("a code is 16 to 64 of A-Z a-z 0-9 _ -");
    Bot person;
    person.name = person.owner = name;
    person.person = true;
    return add_account(person, code.empty() ? remote::draw_token() : code);
}

std::string SqlAccounts::add_account(const Bot& account, std::string token) {
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
    db_.execute(fmt::format("INSERT INTO bots (name, owner, command, anchor, token_hash, state, "
                            "created, person) VALUES (?, ?, ?, ?, ?, 'active', {}, ?)",
                            db_.now()),
                {account.name, account.owner,
                 account.command ? sql::Value(*account.command) : sql::Value(nullptr),
                 account.anchor ? sql::Value(*account.anchor) : sql::Value(nullptr),
                 token_hash(token), std::int64_t{account.person ? 1 : 0}});
    return token;
}

std::vector<Bot> SqlAccounts::bots(bool removed_too) const {
    std::vector<Bot> all;
    for (const sql::Row& r :
         db_.query(fmt::format("SELECT {} FROM bots{} ORDER BY name", bot_columns,
                               removed_too ? "" : " WHERE state != 'removed'")))
        all.push_back(bot_from(r));
    return all;
}

std::optional<Bot> SqlAccounts::bot(const std::string& name) const {
    const sql::Rows found =
        db_.query(fmt::format("SELECT {} FROM bots WHERE name = ?", bot_columns), {name});
    if (found.empty())
        return std::nullopt;
    return bot_from(found.front());
}

std::optional<Bot> SqlAccounts::bot_by_token(const std::string& token) const {
    // Looked up by the token's hash: what is compared is not the token, and a wrong token's
    // hash says nothing of a right one.
    const sql::Rows found = db_.query(
        fmt::format("SELECT {} FROM bots WHERE token_hash = ? AND state = 'active'", bot_columns),
        {token_hash(token)});
    if (found.empty())
        return std::nullopt;
    return bot_from(found.front());
}

void SqlAccounts::set_state(int bot, const std::string& state) {
    db_.execute("UPDATE bots SET state = ? WHERE id = ?", {state, std::int64_t{bot}});
}

void SqlAccounts::set_about(int bot, const std::string& about) {
    if (!valid_about(about))
        throw std::invalid_argument(about_rule);
    db_.execute("UPDATE bots SET about = ? WHERE id = ?", {text_or_null(about), std::int64_t{bot}});
}

std::string SqlAccounts::set_paused(int bot, const std::string& why) {
    const std::string at = why.empty() ? "" : now_text(db_);
    db_.execute("UPDATE bots SET paused = ?, paused_at = ? WHERE id = ?",
                {text_or_null(why), text_or_null(at), std::int64_t{bot}});
    return at;
}

std::string SqlAccounts::record_check(int entry, bool passed, const std::string& why) {
    sql::Transaction transaction(db_);
    const std::string at = now_text(db_);
    db_.execute(passed ? "UPDATE entries SET checked = ?, check_failed = NULL WHERE id = ?"
                       : "UPDATE entries SET check_failed = ? WHERE id = ?",
                {passed ? at : why, std::int64_t{entry}});
    if (passed)
        db_.execute(
            "UPDATE bots SET paused = NULL, paused_at = NULL WHERE id = "
            "(SELECT bot_id FROM entries WHERE id = ?)",
            {std::int64_t{entry}});
    transaction.commit();
    return at;
}

std::string SqlAccounts::rotate_token(int bot) {
    const std::string token = remote::draw_token();
    db_.execute("UPDATE bots SET token_hash = ? WHERE id = ?",
                {token_hash(token), std::int64_t{bot}});
    return token;
}

Entry SqlAccounts::entry(const Bot& bot, const std::string& label) {
    const std::string select =
        fmt::format("SELECT {} FROM entries WHERE bot_id = ? AND label = ?", entry_columns);
    if (const sql::Rows found = db_.query(select, {std::int64_t{bot.id}, label}); !found.empty())
        return entry_from(found.front());
    const stats::Belief first = bot.anchor ? stats::Belief{*bot.anchor, 0} : model_.initial();
    return entry_from(
        db_.query(fmt::format("INSERT INTO entries (bot_id, label, mu, sigma, created) VALUES "
                              "(?, ?, ?, ?, {}) RETURNING {}",
                              db_.now(), entry_columns),
                  {std::int64_t{bot.id}, label, first.mu, first.sigma})
            .at(0));
}

std::vector<Entry> SqlAccounts::entries() const {
    std::vector<Entry> all;
    for (const sql::Row& r :
         db_.query(fmt::format("SELECT {} FROM entries ORDER BY id", entry_columns)))
        all.push_back(entry_from(r));
    return all;
}

std::vector<Entry> SqlAccounts::entries_of(int bot) const {
    std::vector<Entry> all;
    for (const sql::Row& r : db_.query(
             fmt::format("SELECT {} FROM entries WHERE bot_id = ? ORDER BY id", entry_columns),
             {std::int64_t{bot}}))
        all.push_back(entry_from(r));
    return all;
}

}  // namespace bg::arena
