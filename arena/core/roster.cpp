#include "arena/core/roster.hpp"

namespace bg::arena {

Roster::Roster(const stats::WengLin& model, const std::vector<Bot>& accounts,
               const std::vector<Entry>& entries, const std::vector<Match>& rated)
    : model_(model) {
    for (const Bot& bot : accounts)
        put(bot);
    for (const Entry& entry : entries)
        put(entry);
    for (const Match& m : rated) {
        rankings_.add(m.entrants);
        for (const Rated& r : m.entrants)
            last_match_[r.entry] = m.finished;
    }
}

const Bot* Roster::account(int id) const {
    const auto found = accounts_.find(id);
    return found == accounts_.end() ? nullptr : &found->second;
}

const Bot* Roster::account(std::string_view name) const {
    const auto found = by_name_.find(name);
    return found == by_name_.end() ? nullptr : account(found->second);
}

void Roster::put(const Bot& bot) {
    accounts_[bot.id] = bot;
    by_name_[bot.name] = bot.id;
}

std::vector<Bot> Roster::accounts() const {
    std::vector<Bot> all;
    for (const auto& [name, id] : by_name_)
        all.push_back(accounts_.at(id));
    return all;
}

const Entry* Roster::entry(int id) const {
    const auto found = entries_.find(id);
    return found == entries_.end() ? nullptr : &found->second;
}

std::vector<Entry> Roster::entries_of(int bot) const {
    std::vector<Entry> its;
    for (const auto& [id, e] : entries_)
        if (e.bot == bot)
            its.push_back(e);
    return its;
}

std::vector<Entry> Roster::entries() const {
    std::vector<Entry> all;
    for (const auto& [id, e] : entries_)
        all.push_back(e);
    return all;
}

std::vector<int> Roster::entry_ids() const {
    std::vector<int> ids;
    for (const auto& [id, e] : entries_)
        ids.push_back(id);
    return ids;
}

void Roster::put(const Entry& entry) {
    entries_[entry.id] = entry;
}

Standing Roster::standing(int entry) const {
    const Entry* e = this->entry(entry);
    const Bot* bot = e ? account(e->bot) : nullptr;
    return {e ? e->belief : model_.initial(), bot && bot->anchor.has_value()};
}

void Roster::rated(const std::vector<Rated>& rated, const std::string& finished) {
    for (const Rated& r : rated) {
        if (const auto e = entries_.find(r.entry); e != entries_.end()) {
            e->second.belief = r.after;
            ++e->second.matches;
        }
        last_match_[r.entry] = finished;
    }
    rankings_.add(rated);
}

std::string Roster::last_match(int entry) const {
    const auto found = last_match_.find(entry);
    return found == last_match_.end() ? "" : found->second;
}

std::vector<Row> Roster::leaderboard(Board board, const Fit& fit) const {
    return arena::leaderboard(accounts(), entries(), fit, model_, board);
}

Roster::Named Roster::named(int entry) const {
    const Entry* e = this->entry(entry);
    const Bot* bot = e ? account(e->bot) : nullptr;
    if (!bot)
        return {};
    return {bot->name, e->label, kind(*bot)};
}

}  // namespace bg::arena
