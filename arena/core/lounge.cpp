#include "arena/core/lounge.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::arena {

void Lounge::arrived(const input::Arrived& in, bool stopping) {
    d_.roster.put(in.bot);
    if (!d_.roster.entry(in.entry.id))
        d_.roster.put(in.entry);
    if (stopping || in.bot.state != "active") {
        // Stopping; or disabled or removed since it was let in: no more games for it.
        d_.effects.push_back(effect::TurnAway{{in.connection}});
        return;
    }
    if (place_.count(in.connection) || checking_.count(in.connection))
        return;  // queued, or checked, already
    const Entry& entry = *d_.roster.entry(in.entry.id);
    if (checked_first(in.bot, entry)) {
        // Not yet checked, or paused: checked first, over this connection.
        d_.note(fmt::format("bot {}{} is checked before it is queued{}", in.bot.name,
                            entry.label.empty() ? "" : " " + escape_for_terminal(entry.label),
                            in.bot.paused.empty() ? "" : " (paused: " + in.bot.paused + ")"));
        checking_[in.connection] = {in.bot.id, entry.id};
        d_.doings.add(in.bot.id, Doings::checking, +1);
        d_.effects.push_back(effect::Check{in.connection, in.bot, entry});
        return;
    }
    queue_[++arrivals_] = {in.connection, in.bot.id, entry.id, d_.now_ms, in.opponent, in.node};
    place_[in.connection] = arrivals_;
    d_.doings.add(in.bot.id, Doings::queued, +1);
    d_.effects.push_back(effect::Soon{});
}

void Lounge::left(Connection connection) {
    seated(connection);
}

void Lounge::seated(Connection connection) {
    const auto place = place_.find(connection);
    if (place == place_.end())
        return;
    const auto queued = queue_.find(place->second);
    d_.doings.add(queued->second.bot, Doings::queued, -1);
    queue_.erase(queued);
    place_.erase(place);
}

void Lounge::turn_away_unplayable() {
    effect::TurnAway away;
    for (const auto& [order, queued] : queue_) {
        const Bot* bot = d_.roster.account(queued.bot);
        if (!bot || bot->state != "active" || !bot->paused.empty())
            away.connections.push_back(queued.connection);
    }
    for (const Connection connection : away.connections)
        seated(connection);
    if (!away.connections.empty())
        d_.effects.push_back(std::move(away));
}

void Lounge::close() {
    for (const auto& [connection, checking] : checking_)
        d_.doings.add(checking.bot, Doings::checking, -1);
    checking_.clear();
    while (!queue_.empty())
        seated(queue_.begin()->second.connection);
}

void Lounge::checked(const input::Checked& in) {
    const auto found = checking_.find(in.connection);
    if (found == checking_.end())
        return;
    const Checking checking = found->second;
    checking_.erase(found);
    d_.doings.add(checking.bot, Doings::checking, -1);
    if (in.cut_short)
        return d_.note(
            fmt::format("bot {}: its check was cut short ({}); it is checked again as "
                        "it next connects",
                        d_.name_of(checking.bot), escape_for_terminal(in.why)));
    d_.write(effect::RecordCheck{checking.entry, in.passed, in.why},
             [this, checking, in](const input::Written* written, const std::string& why) {
                 if (!written)
                     d_.note(fmt::format("bot {}: its check could not be recorded: {}",
                                         d_.name_of(checking.bot), escape_for_terminal(why)),
                             effect::Note::error);
                 recorded(in.connection, checking, in, written);
             });
}

// A check recorded (`written`), or not: the entry and its account as the store has them now,
// and the connection queued again or sent away.
void Lounge::recorded(Connection connection, const Checking& checking,
                      const input::Checked& outcome, const input::Written* written) {
    const Entry* stored = d_.roster.entry(checking.entry);
    const Bot* bot = d_.roster.account(checking.bot);
    if (!stored || !bot)
        return;
    Entry entry = *stored;
    const bool was_paused = !bot->paused.empty();
    if (written && outcome.passed) {
        entry.checked = written->at;
        entry.check_failed.clear();
        Bot unpaused = *bot;
        unpaused.paused.clear();
        unpaused.paused_at.clear();
        d_.roster.put(unpaused);
    } else if (written) {
        entry.check_failed = outcome.why;
    }
    d_.roster.put(entry);
    const std::string version = entry.label.empty() ? "" : " " + escape_for_terminal(entry.label);
    if (outcome.passed)
        d_.note(fmt::format("bot {}{} passed its check ({} checks){}", d_.name_of(checking.bot),
                            version, outcome.checks, was_paused ? ": no longer paused" : ""));
    else
        d_.note(fmt::format("bot {}{} failed its check, not queued: {}", d_.name_of(checking.bot),
                            version, escape_for_terminal(outcome.why)));
    d_.effects.push_back(effect::CheckDone{connection, outcome.passed, outcome.told});
}

}  // namespace bg::arena
