// A tournament watched while it plays (run or resume --serve ADDR:PORT): the live page, the
// event stream and the finished games' replay pages, served from the loop that plays the games
// (serve/server.hpp). The stream's events (docs/live.md):
//
//   snapshot      the present: the standings, the SPRT, the games running (each with its
//                 records so far) and the games just finished
//   game_started  a game began: {"game", "deal", "rotation", "seats": [bot names]}
//   <record>      a record of a running game's event log: {"game", "record"}; named for the
//                 decision it holds (peel_accepted, peel_stale, dumped, dump_refused,
//                 disqualified, game_over, greeted, hands_dealt) or its kind (start, input,
//                 usage, result)
//   game_done     a game's result is committed: {"game", "seats", "end", "winner", "page"}
//   standings     the standings, as `tournament standings --json` (at most once a second, and
//                 at the end)
//   finished      the run is over: {"why"}
//
// No seed of a game not yet over is ever sent (it is every tile the game will deal): the start
// record of a running game has "seed": null.
#pragma once

#include <uv.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "remote/desk.hpp"
#include "remote/seat_sockets.hpp"
#include "serve/server.hpp"
#include "tournament/database.hpp"
#include "tournament/standings.hpp"

namespace bg::tournament {

class LiveTournament {
  public:
    static std::variant<std::unique_ptr<LiveTournament>, std::string> start(
        uv_loop_t* loop, const serve::Address& address, const Database& database,
        serve::Server::Limits limits = {}, remote::Desk* desk = nullptr,
        std::optional<serve::ForPlayers> for_players = std::nullopt);

    int port() const { return server_->port(); }
    serve::Server::Counts counts() const { return server_->counts(); }
    void started(const FixtureRecord& row);
    void record(int game, const nlohmann::json& record);
    void recorded(const FixtureRecord& row);
    // The run is over (`why`): the last standings, then the server closes once its clients
    // have them (or after a second); `done` once it has.
    void finished(const std::string& why, std::function<void()> done);

  private:
    struct Running {
        nlohmann::json seats;
        int deal = 0;
        int rotation = 0;
        nlohmann::json records = nlohmann::json::array();
    };

    LiveTournament(uv_loop_t* loop, const Database& database) : loop_(loop), database_(database) {}
    nlohmann::json seat_names(const FixtureRecord& row) const;
    nlohmann::json snapshot();
    nlohmann::json standings_now() const;
    std::optional<std::string> game_page(int game) const;

    uv_loop_t* loop_;
    const Database& database_;
    // The remote seats' connections, where there are any; before the server, which uses it.
    std::unique_ptr<remote::SeatSockets> seat_sockets_;
    std::unique_ptr<serve::Server> server_;
    std::map<int, Running> running_;
    std::deque<nlohmann::json> finished_;  // the newest last
    std::uint64_t standings_sent_ms_ = 0;
    std::optional<std::string> over_;
};

}  // namespace bg::tournament
