// A game watched while it plays (host --serve ADDR:PORT): the game's page following it live and
// its event stream, served from the loop that plays the game (serve/server.hpp), in the
// host-live program only (host/live.hpp says why). It is that program's live::Observer. The
// stream's events (docs/live.md):
//
//   snapshot  the game so far: {"kind": "game", "records": [...], "over": bool}
//   <record>  each record of the event log as it is written: {"record"}; named for the
//             decision it holds or its kind, as a tournament's stream names them
//   finished  the game is over and its players gone: {}
//
// The seed is never sent before the game is over (the start record's is null; the result,
// written once the game is over, says it).
#pragma once

#include <uv.h>

#include <functional>
#include <memory>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "host/live.hpp"
#include "remote/desk.hpp"
#include "remote/seat_sockets.hpp"
#include "serve/server.hpp"

namespace bg {

class LiveGame final : public live::Observer {
  public:
    static std::variant<std::unique_ptr<LiveGame>, std::string> start(
        uv_loop_t* loop, const serve::Address& address, serve::Server::Limits limits = {},
        remote::Desk* desk = nullptr, std::optional<serve::ForPlayers> for_players = std::nullopt);
    int port() const override { return server_->port(); }
    serve::Server::Counts counts() const { return server_->counts(); }
    void record(const nlohmann::json& record) override;
    void finished(std::function<void()> done) override;

  private:
    LiveGame() = default;
    nlohmann::json snapshot() const;

    // The remote seats' connections, where there are any; before the server, which uses it.
    std::unique_ptr<remote::SeatSockets> seat_sockets_;
    std::unique_ptr<serve::Server> server_;
    nlohmann::json records_ = nlohmann::json::array();
    bool over_ = false;
};

}  // namespace bg
