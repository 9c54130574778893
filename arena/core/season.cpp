#include "arena/core/season.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::arena {

std::vector<int> halving_fields(int finalists) {
    std::vector<int> fields{finalists};
    while (fields.back() > 2)
        fields.push_back(std::max(2, fields.back() / 2));
    return fields;
}

std::string check_rules(const SeasonRules& rules) {
    if (rules.finalists < 2 || rules.finalists > 64)
        return "a season's finals take 2 to 64 finalists";
    if (rules.fields.empty() || rules.fields.front() != rules.finalists)
        return "the finals' first stage must begin with every finalist";
    for (std::size_t i = 1; i < rules.fields.size(); ++i)
        if (rules.fields[i] >= rules.fields[i - 1] || rules.fields[i] < 2)
            return "each stage of the finals must be narrower than the one before, and at least 2";
    if (rules.deals < 1 || rules.deals > 10'000)
        return "a stage of the finals plays 1 to 10000 deals";
    const stats::Sprt& s = rules.sprt;
    if (!(s.elo1 > s.elo0) || !(s.elo0 >= 0) || s.elo1 >= 1000)
        return "the finals' test needs 0 <= elo0 < elo1 < 1000";
    if (!(s.alpha > 0 && s.alpha < 0.5 && s.beta > 0 && s.beta < 0.5))
        return "the finals' test's alpha and beta must lie within (0, 0.5)";
    if (rules.tiers.empty() || rules.tiers.back().percent != 100)
        return "the tiers must end at 100 percent";
    std::set<std::string> names;
    double before = 0;
    for (const Tier& t : rules.tiers) {
        if (!(t.percent > before) || t.percent > 100)
            return "each tier must end above the one before, at 100 percent at most";
        if (!valid_name(t.name) || !names.insert(t.name).second)
            return "each tier needs a name of its own (a-z A-Z 0-9 _ . -)";
        before = t.percent;
    }
    return "";
}

std::string tiers_text(const std::vector<Tier>& tiers) {
    std::string text;
    for (const Tier& t : tiers)
        text += fmt::format("{}{}:{}", text.empty() ? "" : ",", t.name, t.percent);
    return text;
}

std::optional<std::vector<Tier>> parse_tiers(const std::string& text, std::string& why) {
    std::vector<Tier> tiers;
    std::vector<std::string> parts{""};
    for (const char c : text)
        if (c == ',')
            parts.emplace_back();
        else
            parts.back() += c;
    for (const std::string& part : parts) {
        const auto colon = part.find(':');
        const auto percent = colon == std::string::npos
                                 ? std::nullopt
                                 : parse_number<double>(part.substr(colon + 1));
        if (!percent || !std::isfinite(*percent)) {
            why = fmt::format("a tier is NAME:PERCENT (gold:10), not '{}'",
                              escape_for_terminal(part));
            return std::nullopt;
        }
        tiers.push_back({part.substr(0, colon), *percent});
    }
    SeasonRules rules;
    rules.tiers = tiers;
    if (std::string bad = check_rules(rules); !bad.empty()) {
        why = bad;
        return std::nullopt;
    }
    return tiers;
}

bool in_season(const Season& season, const std::string& finished) {
    return !finished.empty() && finished >= season.starts && finished < season.closes;
}

std::string tier_of(int rank, std::size_t ranked, const std::vector<Tier>& tiers) {
    for (const Tier& t : tiers)
        if (rank <=
            static_cast<int>(std::ceil(static_cast<double>(ranked) * t.percent / 100 - 1e-9)))
            return t.name;
    return tiers.empty() ? "" : tiers.back().name;
}

SeasonBoard season_board(const Season& season, const std::vector<Match>& rated,
                         const std::vector<Bot>& bots, const std::vector<Entry>& entries,
                         const stats::WengLin& model) {
    SeasonBoard board;
    std::vector<Match> in_it;
    std::map<int, int> played;  // matches in the season, by entry
    for (const Match& m : rated)
        if (in_season(season, m.finished)) {
            in_it.push_back(m);
            board.last_order = m.rated_order.value_or(board.last_order);
            for (const Rated& r : m.entrants)
                ++played[r.entry];
        }
    board.matches = static_cast<int>(in_it.size());
    // The versions the season knew, their ratings its own.
    std::vector<Entry> known;
    for (const Entry& e : entries)
        if (e.created < season.closes)
            known.push_back(e);
    const Rerated folded = rerate(in_it, starts(known, bots, model), model);
    for (Entry& e : known) {
        e.belief = folded.beliefs.at(e.id);
        e.matches = played[e.id];
        // A version checked after the close was not let play in it.
        if (e.checked >= season.closes)
            e.checked.clear();
    }
    for (const Board kind : {Board::bots, Board::people}) {
        auto& out = kind == Board::bots ? board.bots : board.people;
        for (Row& row : leaderboard(bots, known, {}, model, kind))
            out.push_back({std::move(row), 0, ""});
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i].row.rank = static_cast<int>(i) + 1;
            out[i].matches = out[i].row.entry.matches;
            out[i].tier = tier_of(out[i].row.rank, out.size(), season.rules.tiers);
        }
    }
    return board;
}

}  // namespace bg::arena
