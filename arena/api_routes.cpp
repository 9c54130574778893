#include "arena/api_routes.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "arena/api.hpp"
#include "arena/season_docs.hpp"
#include "arena/web.hpp"
#include "record/json_value.hpp"

namespace bg::arena {

nlohmann::json ApiRoutes::leaderboard(bool people) const {
    const LiveState live = running_.live();
    const auto& over = live.recent;
    const std::pair<int, std::size_t> at{over.empty() ? 0 : over.front().match, over.size()};
    if (!people && round_trips_at_ != at) {
        round_trips_ = running_.store->round_trips(round_trip_matches);
        round_trips_at_ = at;
    }
    const Roster& roster = running_.roster();
    return leaderboard_json(roster, running_.fit->fit(roster), people, live.statuses,
                            people ? std::map<int, double>{} : round_trips_);
}

std::string ApiRoutes::last_over() const {
    const auto& over = running_.live().recent;
    return over.empty() ? "" : fmt::format("{} {}", over.front().match, over.size());
}

ApiRoutes::ApiRoutes(Running running) : running_(std::move(running)) {
    const Store& store = *running_.store;
    exact("/api/leaderboard", [this](const std::string&) { return leaderboard(false).dump(); });
    exact("/api/people", [this](const std::string&) { return leaderboard(true).dump(); });
    exact("/api/queue", [this](const std::string&) { return queue_json(); });
    exact("/api/live", [this](const std::string&) { return live_json(); });
    exact("/api/config", [this](const std::string&) {
        return config_json(running_.roster().model(), running_.matchmaker()).dump();
    });
    exact("/api/server", [this](const std::string&) { return server_json(); });
    exact("/api/seasons", [&store](const std::string&) { return seasons_json(store).dump(); });
    prefix("/api/seasons/", [this, &store](const std::string& name) -> std::optional<std::string> {
        const auto json = seasons_.season(store, name, last_over());
        return json ? std::optional(json->dump()) : std::nullopt;
    });
    for (const bool person : {false, true})
        prefix(person ? "/api/people/" : "/api/bots/",
               [this, &store, person](const std::string& name) -> std::optional<std::string> {
                   auto json =
                       bot_json(store, running_.roster(), name, person, running_.live().statuses);
                   if (!json)
                       return std::nullopt;
                   (*json)["seasons"] = seasons_of(store, name, [&](const std::string& season) {
                       return seasons_.season(store, season, last_over());
                   });
                   return json->dump();
               });
    // The twins of a match's page and of its games' pages.
    prefix("/api/matches/", [this, &store](const std::string& rest) -> std::optional<std::string> {
        const auto found = page_path("/matches/" + rest);
        if (!found || (found->kind != PagePath::match_page && found->kind != PagePath::game_page))
            return std::nullopt;
        const auto json = found->kind == PagePath::match_page
                              ? match_json(store, running_.roster(), found->match)
                              : game_records_json(store, found->match, found->rotation);
        return json ? std::optional(json->dump()) : std::nullopt;
    });
}

void ApiRoutes::exact(std::string path, Answer answer) {
    exact_.emplace(std::move(path), std::move(answer));
}

void ApiRoutes::prefix(std::string prefix, Answer answer) {
    prefixes_.emplace_back(std::move(prefix), std::move(answer));
}

std::optional<std::string> ApiRoutes::answer(const std::string& path) const {
    if (const auto found = exact_.find(path); found != exact_.end())
        return found->second("");
    for (const auto& [prefix, answer] : prefixes_)
        if (path.starts_with(prefix))
            return answer(path.substr(prefix.size()));
    return std::nullopt;
}

std::string_view ApiRoutes::route_of(const std::string& path) const {
    if (const auto found = exact_.find(path); found != exact_.end())
        return found->first;
    for (const auto& [prefix, answer] : prefixes_)
        if (path.starts_with(prefix))
            return prefix;
    return "";
}

std::string ApiRoutes::queue_json() const {
    const LiveState live = running_.live();
    const Roster& roster = running_.roster();
    // In the order they came: each one's place in the queue is how many came before it.
    nlohmann::json waiting = nlohmann::json::array();
    for (const LiveState::Waiting& q : live.queue) {
        const Bot* bot = roster.account(q.bot);
        const Entry* entry = roster.entry(q.entry);
        if (!bot || !entry)
            continue;
        waiting.push_back({{"bot", bot->name},
                           {"bot_version", shown_version(kind(*bot), entry->label)},
                           {"kind", kind(*bot)},
                           {"place", waiting.size() + 1},
                           {"opponent", json_or_null(q.opponent)},
                           {"waiting_ms", live.now_ms - std::min(live.now_ms, q.since_ms)}});
    }
    nlohmann::json playing = nlohmann::json::array();
    for (const LiveState::Playing& match : live.playing)
        playing.push_back({{"match", match.match}, {"bots", match.bots}});
    return nlohmann::json{{"version", api_version}, {"waiting", waiting}, {"playing", playing}}
        .dump();
}

std::string ApiRoutes::live_json() const {
    const LiveState live = running_.live();
    nlohmann::json playing = nlohmann::json::array();
    for (const LiveState::Playing& match : live.playing)
        playing.push_back({{"match", match.match},
                           {"bots", match.bots},
                           {"games_over", match.games_over},
                           {"games", match.bots.size()}});
    nlohmann::json recent = nlohmann::json::array();
    for (const LiveState::Over& m : live.recent)
        recent.push_back({{"match", m.match}, {"state", m.state}, {"finished", m.finished}});
    return nlohmann::json{{"version", api_version},
                          {"rule", spectator_rule},
                          {"playing", playing},
                          {"recent", recent}}
        .dump();
}

// What this arena's process has counted since it started, for its operator: the connections
// it refused by kind, what it holds now, its memory and descriptors (Linux's /proc), and how
// late its loop has run over the last minute.
std::string ApiRoutes::server_json() const {
    const LiveState live = running_.live();
    long rss_pages = 0;
    if (std::ifstream statm("/proc/self/statm"); statm)
        statm >> rss_pages >> rss_pages;  // its second field: resident pages
    int descriptors = 0;
    std::error_code error;
    for (std::filesystem::directory_iterator fd("/proc/self/fd", error), end; !error && fd != end;
         fd.increment(error))
        ++descriptors;
    nlohmann::json refusals = nlohmann::json::object();
    if (running_.lobby)
        for (const auto& [kind, count] : running_.lobby->door().refusals())
            refusals[kind] = count;
    const serve::Server::Counts counts = running_.server();
    const LagWindow::Figures lag = running_.lag->figures();
    return nlohmann::json{{"version", api_version},
                          {"started", running_.started},
                          {"role", running_.role},
                          {"playing", live.playing.size()},
                          {"checking", live.checking},
                          {"queued", live.queue.size()},
                          {"connections", counts.sockets},
                          {"refusals", std::move(refusals)},
                          {"unrecorded", live.unrecorded},
                          {"database_writable", live.writable},
                          {"rss_bytes", rss_pages * ::sysconf(_SC_PAGESIZE)},
                          {"stream_history_bytes", counts.history_bytes},
                          {"descriptors", descriptors},
                          {"loop_lag",
                           {{"p50_ms", lag.p50_ms},
                            {"p99_ms", lag.p99_ms},
                            {"max_ms", lag.max_ms},
                            {"samples", lag.samples},
                            {"busiest_turn_ms", lag.busiest_ms},
                            {"longest_handler", json_or_null(lag.longest)},
                            {"longest_handler_ms", lag.longest_ms}}}}
        .dump();
}

}  // namespace bg::arena
