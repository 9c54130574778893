// The running arena's API (GET /api/...): a table of routes, each a path or a prefix and the
// document it answers, drawn from what the arena holds (its roster, its live state: who waits,
// what plays; the fit, the lobby's and the server's counts, the loop's lag) and, for an
// account's or a match's history, from its store. The same routes answer in the node that holds
// the database (from its core) and in a front node (from the roster it reads from the store and
// the live state the holder published). A path of no route is a 404.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/core/arena_core.hpp"
#include "arena/fit_work.hpp"
#include "arena/live_state.hpp"
#include "arena/lobby.hpp"
#include "arena/season_docs.hpp"
#include "arena/store.hpp"
#include "serve/server.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

// What the routes read of the running arena.
struct Running {
    std::function<const Roster&()> roster;
    std::function<LiveState()> live;  // as it is now
    std::function<MatchmakerConfig()> matchmaker;
    const Store* store = nullptr;
    FitWork* fit = nullptr;
    const Lobby* lobby = nullptr;  // none in a front node, which seats no one
    LoopLag* lag = nullptr;
    std::function<serve::Server::Counts()> server;
    std::string started;          // when the arena began serving (UTC)
    std::string role = "holder";  // or "front"
};

class ApiRoutes {
  public:
    using Answer = std::function<std::optional<std::string>(const std::string& rest)>;
    explicit ApiRoutes(Running running);

    // The document at `path`, or none (404).
    std::optional<std::string> answer(const std::string& path) const;
    // The route a path takes, as the loop's lag names its handler ("GET /api/bots/"), or "".
    std::string_view route_of(const std::string& path) const;
    // The bots' leaderboard (or the people's), with each remote bot's round trip over its last
    // matches (read from the store again only once a match has ended since).
    nlohmann::json leaderboard(bool people) const;

  private:
    void exact(std::string path, Answer answer);
    void prefix(std::string prefix, Answer answer);
    std::string queue_json() const;
    std::string live_json() const;
    std::string server_json() const;

    Running running_;
    static constexpr int round_trip_matches = 500;  // a bot's round trip: over the last so many
    mutable std::map<int, double> round_trips_;
    mutable std::optional<std::pair<int, std::size_t>> round_trips_at_;  // the last match over
    mutable SeasonCache seasons_;
    std::string last_over() const;  // the last match over, as a stamp
    std::map<std::string, Answer, std::less<>> exact_;
    std::vector<std::pair<std::string, Answer>> prefixes_;
};

}  // namespace bg::arena
