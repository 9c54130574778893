#include "arena/season_docs.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "arena/api.hpp"
#include "arena/seasons.hpp"

namespace bg::arena {

nlohmann::json board_json(const SeasonBoard& board, const std::vector<int>& finalists) {
    const std::set<int> chosen(finalists.begin(), finalists.end());
    nlohmann::json out{{"matches", board.matches}};
    for (const auto* rows : {&board.bots, &board.people}) {
        nlohmann::json list = nlohmann::json::array();
        for (const SeasonRow& r : *rows) {
            nlohmann::json row = to_json(r.row);
            row.erase("fit");
            row["tier"] = r.tier;
            row["finalist"] = chosen.count(r.row.entry.id) > 0;
            list.push_back(std::move(row));
        }
        out[rows == &board.bots ? "bots" : "people"] = std::move(list);
    }
    return out;
}

std::vector<int> finalists_of(const SeasonBoard& board, const SeasonRules& rules,
                              const std::vector<HostedVersion>& hosted) {
    std::vector<int> chosen;
    for (const SeasonRow& r : board.bots) {
        const bool runs = r.row.bot.command ||
                          std::any_of(hosted.begin(), hosted.end(), [&](const HostedVersion& h) {
                              return h.entry == r.row.entry.id;
                          });
        if (runs && r.row.bot.state == "active" &&
            static_cast<int>(chosen.size()) < rules.finalists)
            chosen.push_back(r.row.entry.id);
    }
    return chosen;
}

std::map<int, Named> names_of(const std::vector<Bot>& bots, const std::vector<Entry>& entries) {
    std::map<int, const Bot*> by_id;
    for (const Bot& b : bots)
        by_id[b.id] = &b;
    std::map<int, Named> names;
    for (const Entry& e : entries)
        if (const auto bot = by_id.find(e.bot); bot != by_id.end())
            names[e.id] = {bot->second->name, kind(*bot->second),
                           shown_version(kind(*bot->second), e.label)};
    return names;
}

nlohmann::json finals_json(const FinalsState& state, const SeasonRules& rules,
                           const std::map<int, Named>& names) {
    nlohmann::json places = nlohmann::json::array();
    for (const FinalsPlace& p : state.places) {
        const auto named = names.find(p.entry);
        places.push_back({{"place", p.place},
                          {"name", named != names.end() ? named->second.bot : ""},
                          {"kind", named != names.end() ? named->second.kind : ""},
                          {"version", named != names.end() ? named->second.version : ""},
                          {"stage", p.stage + 1},
                          {"share", p.share},
                          {"games", p.games},
                          {"against_next", verdict_name(p.verdict)},
                          {"pairs", p.pairs},
                          {"llr", p.llr},
                          {"los", p.los}});
    }
    const std::vector<int> fields = stage_fields(rules, state.places.size());
    const auto stage = static_cast<std::size_t>(state.stage);
    return {{"stage", state.stage + 1},
            {"stages", fields.size()},
            {"field", stage < fields.size() ? fields[stage] : 0},
            {"rounds", state.round},
            {"over", state.over},
            {"wanted", state.wanted.size()},
            {"bounds", {{"h0", rules.sprt.lower_bound()}, {"h1", rules.sprt.upper_bound()}}},
            {"places", places}};
}

std::string close_season(Store& store, const Season& season) {
    const SeasonBoard board = season_board(season, store.rated_in_order(), store.bots(true),
                                           store.entries(), store.model());
    const std::vector<int> finalists = finalists_of(board, season.rules, store.hosted());
    if (finalists.size() >= 2) {
        store.seasons().close(season.id, board_json(board, finalists), finalists);
        return fmt::format(
            "season {} closed: {} bots on its board; its finals begin, {} "
            "finalists",
            season.name, board.bots.size(), finalists.size());
    }
    // Too few to play: the finals' standings are the finalists', as they are.
    const FinalsState none = finals_state(season.rules, finalists, {});
    store.seasons().close(
        season.id, board_json(board, finalists), finalists,
        finals_json(none, season.rules, names_of(store.bots(true), store.entries())));
    return fmt::format(
        "season {} closed: {} bots on its board, too few of them the arena runs "
        "to play its finals",
        season.name, board.bots.size());
}

FinalsState fold_finals(Store& store, const Season& season, const std::vector<int>& finalists,
                        const std::vector<FinalsGame>& played, const std::map<int, Named>& names) {
    FinalsState state = finals_state(season.rules, finalists, played);
    if (state.over)
        store.seasons().finish(season.id, finals_json(state, season.rules, names));
    return state;
}

FinalsState finals_of(const Store& store, const Season& season, const std::vector<int>& finalists) {
    std::vector<FinalsGame> played;
    for (auto& [order, game] : store.seasons().finals_rated(season.id))
        played.push_back(game);
    return finals_state(season.rules, finalists, played);
}

namespace {

nlohmann::json rules_json(const Season& season) {
    nlohmann::json rules = to_json(season.rules);
    if (season.state != "over")
        rules["seed"] = nullptr;  // it gives every deal of the finals
    return rules;
}

}  // namespace

nlohmann::json seasons_json(const Store& store) {
    nlohmann::json list = nlohmann::json::array();
    auto all = store.seasons().all();
    std::reverse(all.begin(), all.end());
    for (const Season& s : all)
        list.push_back({{"name", s.name},
                        {"state", s.state},
                        {"starts", s.starts},
                        {"closes", s.closes},
                        {"finalists", s.rules.finalists}});
    return {{"version", api_version}, {"seasons", list}};
}

std::optional<nlohmann::json> season_json(const Store& store, const std::string& name) {
    const auto season = store.seasons().find(name);
    if (!season)
        return std::nullopt;
    nlohmann::json doc{
        {"version", api_version},       {"name", season->name},     {"state", season->state},
        {"starts", season->starts},     {"closes", season->closes}, {"added", season->added},
        {"rules", rules_json(*season)}, {"finals", nullptr},        {"ended", nullptr}};
    const auto frozen = store.seasons().frozen(season->id);
    if (!frozen) {
        const SeasonBoard board = season_board(*season, store.rated_in_order(), store.bots(true),
                                               store.entries(), store.model());
        doc["board"] = board_json(board, {});
        doc["board"]["frozen"] = false;
        return doc;
    }
    doc["board"] = frozen->board;
    doc["board"]["frozen"] = true;
    if (!frozen->ended.empty())
        doc["ended"] = frozen->ended;
    if (season->state == "over") {
        doc["finals"] = frozen->standings;
        return doc;
    }
    doc["finals"] = finals_json(finals_of(store, *season, frozen->finalists), season->rules,
                                names_of(store.bots(true), store.entries()));
    return doc;
}

nlohmann::json seasons_of(
    const Store& store, const std::string& name,
    const std::function<std::optional<nlohmann::json>(const std::string& season)>& get) {
    nlohmann::json all = nlohmann::json::array();
    auto seasons = store.seasons().all();
    std::reverse(seasons.begin(), seasons.end());
    for (const Season& season : seasons) {
        const auto doc = get(season.name);
        if (!doc)
            continue;
        for (const char* which : {"bots", "people"})
            for (const auto& row : doc->at("board").at(which)) {
                if (row.at("name") != name)
                    continue;
                nlohmann::json place = nullptr;
                if (doc->at("finals").contains("places"))
                    for (const auto& p : doc->at("finals").at("places"))
                        if (p.at("name") == name)
                            place = p.at("place");
                all.push_back({{"season", season.name},
                               {"state", season.state},
                               {"rank", row.at("rank")},
                               {"tier", row.at("tier")},
                               {"finalist", row.at("finalist")},
                               {"finals_place", place}});
            }
    }
    return all;
}

std::optional<nlohmann::json> SeasonCache::season(const Store& store, const std::string& name,
                                                  const std::string& stamp) {
    const auto now = std::chrono::steady_clock::now();
    if (const auto kept = kept_.find(name); kept != kept_.end() && kept->second.stamp == stamp &&
                                            now - kept->second.at < std::chrono::seconds(5))
        return kept->second.doc;
    auto doc = season_json(store, name);
    if (doc)
        kept_[name] = {stamp, now, *doc};
    else
        kept_.erase(name);
    return doc;
}

}  // namespace bg::arena
