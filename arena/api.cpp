#include "arena/api.hpp"

#include <map>

#include "arena/ladder.hpp"
#include "record/json_value.hpp"

namespace bg::arena {

namespace {

std::map<int, std::pair<std::string, std::string>> entry_names(const Store& store) {
    std::map<int, std::string> bot_names;
    for (const Bot& bot : store.bots(true))
        bot_names[bot.id] = bot.name;
    std::map<int, std::pair<std::string, std::string>> names;  // entry -> (bot, version)
    for (const Entry& e : store.entries())
        names[e.id] = {bot_names[e.bot], e.label};
    return names;
}

nlohmann::json rated_json(const Rated& r) {
    return {{"seat", r.seat},
            {"rank", r.rank},
            {"before", to_json(r.before)},
            {"after", to_json(r.after)}};
}

}  // namespace

nlohmann::json leaderboard_json(const Store& store, bool people) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Row& row : leaderboard(store.bots(), store.entries(), store.rated_in_order(),
                                      people ? Board::people : Board::bots))
        rows.push_back(to_json(row));
    return {{"version", api_version}, {"leaderboard", rows}};
}

nlohmann::json version_json(const Entry& e) {
    return {{"version", e.label},
            {"since", e.created},
            {"rating", to_json(e.belief)},
            {"checked", json_or_null(e.checked)},
            {"check_failed", json_or_null(e.check_failed)}};
}

std::optional<nlohmann::json> bot_json(const Store& store, const std::string& name, bool person) {
    const auto bot = store.bot(name);
    if (!bot || bot->state == "removed" || bot->person != person)
        return std::nullopt;
    nlohmann::json versions = nlohmann::json::array();
    const auto entries = store.entries_of(bot->id);
    for (const Entry& e : entries) {
        nlohmann::json matches = nlohmann::json::array();
        for (const auto& played : store.history(e.id)) {
            nlohmann::json m = rated_json(played.rated);
            m["match"] = played.match;
            m["finished"] = played.finished;
            matches.push_back(std::move(m));
        }
        nlohmann::json version = version_json(e);
        version["conservative"] = stats::conservative(e.belief);
        version["matches_played"] = e.matches;
        version["matches"] = std::move(matches);
        versions.push_back(std::move(version));
    }
    return nlohmann::json{{"version", api_version},
                          {"name", bot->name},
                          {"owner", bot->owner},
                          {"kind", kind(*bot)},
                          {"anchor", json_or_null(bot->anchor)},
                          {"state", bot->state},
                          {"paused", json_or_null(bot->paused)},
                          {"not_queued", json_or_null(why_not_queued(*bot, entries))},
                          {"versions", versions}};
}

std::optional<nlohmann::json> match_json(const Store& store, int id) {
    const auto match = store.match(id);
    if (!match)
        return std::nullopt;
    const auto names = entry_names(store);
    nlohmann::json entrants = nlohmann::json::array();
    for (const Rated& r : match->entrants) {
        nlohmann::json e = rated_json(r);
        e["bot"] = names.at(r.entry).first;
        e["bot_version"] = names.at(r.entry).second;
        entrants.push_back(std::move(e));
    }
    nlohmann::json games = nlohmann::json::array();
    if (match->state != "running")
        for (const StoredGame& g : store.games_of(id))
            games.push_back({{"rotation", g.rotation}, {"result", to_json(g.result)}});
    return nlohmann::json{{"version", api_version},
                          {"id", match->id},
                          {"state", match->state},
                          {"started", match->started},
                          {"finished", json_or_null(match->finished)},
                          {"why", json_or_null(match->why)},
                          {"entrants", entrants},
                          {"games", games}};
}

nlohmann::json config_json(const Store& store) {
    nlohmann::json rating = to_json(store.model());
    rating["provisional_matches"] = provisional_matches;
    rating["leaderboard"] = "mu - 3 sigma";
    return {{"version", api_version},
            {"rating", std::move(rating)},
            {"matchmaker", to_json(store.matchmaker())}};
}

}  // namespace bg::arena
