#include "arena/owned.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arena/archive.hpp"
#include "core/text.hpp"
#include "record/game_files.hpp"
#include "remote/token.hpp"

namespace bg::arena {

namespace {

using Owned = serve::Server::Content::Owned;

constexpr std::string_view bots_prefix = "/api/bots/";

Owned error(unsigned status, const std::string& why) {
    return {status, "application/json", nlohmann::json{{"error", why}}.dump() + "\n"};
}

// GET .../games/MATCH-ROTATION/(log|stderr) of the bot.
Owned game_file(const Store& store, const Bot& bot, std::string_view rest) {
    const auto slash = rest.find('/');
    const auto dash = rest.find('-');
    const std::string_view what = slash == std::string_view::npos ? "" : rest.substr(slash + 1);
    const auto match = parse_number<int>(rest.substr(0, std::min(dash, slash)));
    const auto rotation =
        dash < slash ? parse_number<int>(rest.substr(dash + 1, slash - dash - 1)) : std::nullopt;
    if (!match || !rotation || *rotation < 1 || (what != "log" && what != "stderr"))
        return error(404, "a game is at /api/bots/NAME/games/MATCH-ROTATION/log or /stderr");
    const auto found = store.match(*match);
    std::optional<Rated> mine;
    if (found && found->state == "rated")
        for (const Rated& rated : found->entrants)
            if (const auto entries = store.entries_of(bot.id);
                std::any_of(entries.begin(), entries.end(),
                            [&](const Entry& e) { return e.id == rated.entry; }))
                mine = rated;
    if (!mine)
        return error(404, fmt::format("{} played no rated match {}", bot.name, *match));
    const int players = static_cast<int>(found->entrants.size());
    for (const StoredGame& game : store.games_of(*match)) {
        if (game.rotation != *rotation - 1)
            continue;
        if (game.log.empty())
            break;
        // Entrant e sits in seat (e - r) mod K of rotation r.
        const int seat = ((mine->seat - game.rotation) % players + players) % players;
        const std::string path = what == "log" ? game.log : player_stderr_path(game.log, seat);
        // As the store keeps it (a game a worker played), else its file.
        auto text = what == "log" ? store.game_log(*match, game.rotation)
                                  : store.game_stderr(*match, game.rotation, seat);
        if (!text)
            text = read_whole(path);
        if (text)
            return {200, what == "log" ? "application/x-ndjson" : "text/plain; charset=utf-8",
                    std::move(*text)};
        // A bot that wrote nothing to stderr has no file.
        if (what == "stderr")
            return {200, "text/plain; charset=utf-8", ""};
        break;
    }
    return error(404, fmt::format("game {} of match {} has no log kept", *rotation, *match));
}

}  // namespace

nlohmann::json hosted_json(const Store& store, const Bot& bot) {
    const auto versions = store.hosted_of(bot.id);
    std::map<int, Entry> entries;
    int playing = 0;
    for (const Entry& entry : store.entries_of(bot.id))
        entries[entry.id] = entry;
    for (const HostedVersion& version : versions)
        if (!entries[version.entry].checked.empty())
            playing = version.entry;
    nlohmann::json all = nlohmann::json::array();
    for (const HostedVersion& version : versions) {
        const Entry& entry = entries[version.entry];
        // One never checked and older than the one that plays was superseded: retired too.
        const char* state = !entry.checked.empty()
                                ? (version.entry == playing ? "playing" : "retired")
                            : !entry.check_failed.empty() ? "failed"
                            : version.entry < playing     ? "retired"
                                                          : "checking";
        all.push_back(
            {{"version", version.label},
             {"sha256", version.sha256},
             {"command", version.command},
             {"protocol", version.protocol},
             {"submitted", version.submitted},
             {"state", state},
             {"checked", entry.checked.empty() ? nullptr : nlohmann::json(entry.checked)},
             {"why", entry.check_failed.empty() ? nullptr : nlohmann::json(entry.check_failed)},
             {"report", version.report}});
    }
    return {{"bot", bot.name}, {"versions", all}};
}

std::optional<Owned> owned_answer(const std::string& path, const std::string& authorization,
                                  const std::string& peer, const Store& store, const Door& door) {
    std::string_view rest = path;
    rest = rest.substr(0, rest.find('?'));
    if (!rest.starts_with(bots_prefix))
        return std::nullopt;
    rest.remove_prefix(bots_prefix.size());
    const auto slash = rest.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    const std::string_view name = rest.substr(0, slash);
    const std::string_view after = rest.substr(slash);
    const bool versions = after == "/hosted";
    constexpr std::string_view games = "/games/";
    if (!versions && !after.starts_with(games))
        return std::nullopt;
    auto owner = door.owner(name, remote::bearer_token(authorization), peer);
    if (auto* no = std::get_if<Door::Refusal>(&owner)) {
        door.refused(*no, peer);
        return error(no->status, no->why);
    }
    const Bot& bot = std::get<Bot>(owner);
    if (versions)
        return Owned{200, "application/json", hosted_json(store, bot).dump() + "\n"};
    return game_file(store, bot, after.substr(games.size()));
}

}  // namespace bg::arena
