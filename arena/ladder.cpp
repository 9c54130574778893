#include "arena/ladder.hpp"

#include <algorithm>
#include <numeric>

#include "record/json_value.hpp"

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

std::map<int, Start> starts(const std::vector<Entry>& entries, const std::vector<Bot>& bots,
                            const stats::WengLin& model) {
    std::map<int, Start> from;
    for (const Entry& e : entries) {
        const auto bot =
            std::find_if(bots.begin(), bots.end(), [&](const Bot& b) { return b.id == e.bot; });
        if (bot != bots.end() && bot->anchor)
            from[e.id] = {{*bot->anchor, 0}, true};
        else
            from[e.id] = {model.initial(), false};
    }
    return from;
}

Rerated rerate(const std::vector<Match>& rated, const std::map<int, Start>& from,
               const stats::WengLin& model) {
    Rerated out;
    for (const auto& [entry, start] : from)
        out.beliefs[entry] = start.belief;
    for (const Match& m : rated) {
        std::vector<stats::Entrant> match;
        for (const Rated& r : m.entrants) {
            const auto start = from.find(r.entry);
            match.push_back(
                {out.beliefs[r.entry], r.rank, start != from.end() && start->second.fixed});
        }
        const auto after = stats::rate(match, model);
        bool same = true;
        for (std::size_t i = 0; i < m.entrants.size(); ++i) {
            same =
                same && m.entrants[i].before == match[i].belief && m.entrants[i].after == after[i];
            out.beliefs[m.entrants[i].entry] = after[i];
        }
        if (!same)
            out.differing.push_back(m.id);
        ++out.matches;
    }
    return out;
}

std::vector<Row> leaderboard(const std::vector<Bot>& bots, const std::vector<Entry>& entries,
                             const std::vector<Match>& rated, Board board) {
    // The order-free fit: every entry of the archive, each match's ranking a game of it.
    std::map<int, int> index;
    for (const Entry& e : entries)
        index.emplace(e.id, static_cast<int>(index.size()));
    std::vector<stats::RankedGame> games;
    for (const Match& m : rated) {
        stats::RankedGame g;
        for (const Rated& r : m.entrants) {
            g.bots.push_back(index.at(r.entry));
            g.standings.push_back(r.rank);
        }
        games.push_back(std::move(g));
    }
    const auto fit = games.empty() ? stats::RatingFit{}
                                   : stats::fit_ratings(static_cast<int>(index.size()), games);
    std::vector<Row> rows;
    for (const Bot& bot : bots) {
        if (bot.state == "removed" || bot.person != (board == Board::people))
            continue;
        // Its present entry: the newest let play (a house bot's or a person's, or a remote
        // bot's that passed its check: a version that has not stays off the board, its last one
        // on it).
        const Entry* latest = nullptr;
        for (const Entry& e : entries)
            if (e.bot == bot.id && (bot.command || bot.person || !e.checked.empty()) &&
                (!latest || e.id > latest->id))
                latest = &e;
        if (!latest)
            continue;
        Row row{0,
                bot,
                *latest,
                stats::conservative(latest->belief),
                !bot.anchor && latest->matches < provisional_matches,
                std::nullopt};
        if (fit.converged)
            row.fit = fit.ratings[static_cast<std::size_t>(index.at(latest->id))];
        rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.conservative > b.conservative; });
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i].rank = static_cast<int>(i) + 1;
    return rows;
}

const char* kind(const Bot& bot) {
    return bot.person ? "person" : bot.command ? "house" : "remote";
}

nlohmann::json to_json(const stats::Belief& belief) {
    return {{"mu", belief.mu}, {"sigma", belief.sigma}};
}

nlohmann::json to_json(const Row& row) {
    nlohmann::json fit = nullptr;
    if (row.fit)
        fit = {{"elo", row.fit->elo}, {"low", row.fit->low}, {"high", row.fit->high}};
    return {{"rank", row.rank},
            {"name", row.bot.name},
            {"owner", row.bot.owner},
            {"kind", kind(row.bot)},
            {"anchor", json_or_null(row.bot.anchor)},
            {"version", row.entry.label},
            {"rating", to_json(row.entry.belief)},
            {"conservative", row.conservative},
            {"provisional", row.provisional},
            {"matches", row.entry.matches},
            {"state", row.bot.state},
            {"paused", json_or_null(row.bot.paused)},
            {"fit", fit}};
}

}  // namespace bg::arena
