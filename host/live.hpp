// host --serve: the game served while it plays, by an observer of its event log. The host is
// linked statically and without a server, for its fast start (a program's start is most of a
// short game's time); host-live is the same program with one (libwebsockets on the loop, with
// Debian's shared libuv, which bring libssl with them). main.cpp never asks which program it
// is: live_game.cpp implements this in host-live, live_elsewhere.cpp in the host, where
// --serve hands the whole command line over to host-live.
#pragma once

#include <uv.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "serve/request.hpp"

namespace bg::remote {
class Desk;
}

namespace bg::live {

// A game's server: fed its log's records as they are written.
class Observer {
  public:
    virtual ~Observer() = default;
    virtual int port() const = 0;
    // A record of the game's log, as it is written.
    virtual void record(const nlohmann::json& record) = 0;
    // The game is over: its clients are sent what they have not had, then the server closes (at
    // most a second later); `done` once it has.
    virtual void finished(std::function<void()> done) = 0;
};

// Whether this program serves a game itself (host-live), rather than hand it over.
bool serves();
// The same command line, run by host-live (beside the host in a build tree, out of the PATH
// once installed). Returns only when that cannot be: why.
std::string hand_over(char** argv);
// The server of one game, listening on `address` on the game's loop; or why it cannot be. It
// takes the connections of the remote seats of `desk` (none: there are none), and serves their
// players `for_players` (the game's rules and word list).
std::variant<std::unique_ptr<Observer>, std::string> serve(
    uv_loop_t* loop, const serve::Address& address, remote::Desk* desk = nullptr,
    std::optional<serve::ForPlayers> for_players = std::nullopt);

}  // namespace bg::live
