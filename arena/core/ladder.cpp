#include "arena/core/ladder.hpp"

#include <algorithm>
#include <numeric>

namespace bg::arena {

std::vector<int> match_ranks(const std::vector<std::vector<int>>& places) {
    const std::size_t n = places.empty() ? 0 : places.front().size();
    std::vector<int> sum(n, 0);
    for (const auto& game : places)
        for (std::size_t e = 0; e < n && e < game.size(); ++e)
            sum[e] += game[e] == 0 ? static_cast<int>(n) : game[e];
    std::vector<int> rank(n);
    for (std::size_t e = 0; e < n; ++e)
        rank[e] = 1 + static_cast<int>(std::count_if(sum.begin(), sum.end(),
                                                     [&](int other) { return other < sum[e]; }));
    return rank;
}

Standing start_of(const Bot& bot, const stats::WengLin& model) {
    if (bot.anchor)
        return {{*bot.anchor, 0}, true};
    return {model.initial(), false};
}

std::map<int, Standing> starts(const std::vector<Entry>& entries, const std::vector<Bot>& bots,
                               const stats::WengLin& model) {
    std::map<int, const Bot*> by_id;
    for (const Bot& b : bots)
        by_id[b.id] = &b;
    std::map<int, Standing> from;
    for (const Entry& e : entries) {
        const auto bot = by_id.find(e.bot);
        from[e.id] =
            bot != by_id.end() ? start_of(*bot->second, model) : Standing{model.initial(), false};
    }
    return from;
}

std::vector<Rated> rating_step(const std::vector<int>& entries, const std::vector<int>& ranks,
                               const std::function<Standing(int entry)>& standing,
                               const stats::WengLin& model) {
    std::vector<stats::Entrant> match;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Standing now = standing(entries[i]);
        match.push_back({now.belief, ranks[i], now.fixed});
    }
    const auto after = stats::rate(match, model);
    std::vector<Rated> rated;
    for (std::size_t i = 0; i < entries.size(); ++i)
        rated.push_back({entries[i], static_cast<int>(i), ranks[i], match[i].belief, after[i]});
    return rated;
}

Rerated rerate(const std::vector<Match>& rated, const std::map<int, Standing>& from,
               const stats::WengLin& model) {
    Rerated out;
    for (const auto& [entry, start] : from)
        out.beliefs[entry] = start.belief;
    for (const Match& m : rated) {
        std::vector<int> entries, ranks;
        for (const Rated& r : m.entrants) {
            entries.push_back(r.entry);
            ranks.push_back(r.rank);
        }
        const auto step = rating_step(
            entries, ranks,
            [&](int entry) {
                const auto start = from.find(entry);
                return Standing{out.beliefs[entry], start != from.end() && start->second.fixed};
            },
            model);
        bool same = true;
        for (std::size_t i = 0; i < m.entrants.size(); ++i) {
            same = same && m.entrants[i].before == step[i].before &&
                   m.entrants[i].after == step[i].after;
            out.beliefs[m.entrants[i].entry] = step[i].after;
        }
        if (!same)
            out.differing.push_back(m.id);
        ++out.matches;
    }
    return out;
}

void Rankings::add(const std::vector<Rated>& rated) {
    for (const Rated& r : rated) {
        entries.push_back(r.entry);
        ranks.push_back(r.rank);
    }
    ends.push_back(entries.size());
}

Fit fit_of(const Rankings& rankings, const std::vector<int>& entry_ids) {
    std::map<int, int> index;
    for (const int id : entry_ids)
        index.emplace(id, static_cast<int>(index.size()));
    std::vector<stats::RankedGame> games;
    std::size_t begin = 0;
    for (const std::size_t end : rankings.ends) {
        stats::RankedGame g;
        for (std::size_t i = begin; i < end; ++i) {
            const auto at = index.find(rankings.entries[i]);
            if (at == index.end())
                break;
            g.bots.push_back(at->second);
            g.standings.push_back(rankings.ranks[i]);
        }
        if (g.bots.size() == end - begin)
            games.push_back(std::move(g));
        begin = end;
    }
    Fit fit;
    if (games.empty())
        return fit;
    const auto fitted = stats::fit_ratings(static_cast<int>(index.size()), games);
    if (!fitted.converged)
        return fit;
    for (const auto& [id, i] : index)
        fit[id] = fitted.ratings[static_cast<std::size_t>(i)];
    return fit;
}

std::vector<Row> leaderboard(const std::vector<Bot>& bots, const std::vector<Entry>& entries,
                             const Fit& fit, const stats::WengLin& model, Board board) {
    // Each account's present entry: the newest let play (a house bot's or a person's, or a
    // remote bot's that passed its check: a version that has not stays off the board, its last
    // one on it).
    std::map<int, const Entry*> present;
    std::map<int, const Bot*> by_id;
    for (const Bot& b : bots)
        by_id[b.id] = &b;
    for (const Entry& e : entries) {
        const auto bot = by_id.find(e.bot);
        if (bot == by_id.end())
            continue;
        const Bot& b = *bot->second;
        if (auto& at = present[e.bot];
            (b.command || b.person || !e.checked.empty()) && (!at || e.id > at->id))
            at = &e;
    }
    std::vector<Row> rows;
    for (const Bot& bot : bots) {
        if (bot.state == "removed" || bot.person != (board == Board::people))
            continue;
        const auto found = present.find(bot.id);
        if (found == present.end() || !found->second)
            continue;
        const Entry& entry = *found->second;
        Row row{0,
                bot,
                entry,
                bot.anchor ? stats::conservative({entry.belief.mu, model.initial().sigma})
                           : stats::conservative(entry.belief),
                !bot.anchor && entry.matches < provisional_matches,
                std::nullopt};
        if (const auto rating = fit.find(entry.id); rating != fit.end())
            row.fit = rating->second;
        rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.conservative > b.conservative; });
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i].rank = static_cast<int>(i) + 1;
    return rows;
}

}  // namespace bg::arena
