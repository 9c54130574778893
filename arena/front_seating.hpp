// A front node's seating (docs/arena.md, "Front nodes"; the holder's side is
// arena/front_seats.hpp): remote bots at /bot and people at /person let in at this node by its
// own door and lobby (the tokens and codes the store holds, the same limits), and what happens
// to them told to the holder (arena/front_mail.hpp: a connection waits to play, leaves, its
// check is over); what the holder's core decides of them done here (a check over the
// connection, its outcome, no more games, how a match went); and the matches the holder placed
// here, claimed as jobs addressed to this node (arena/jobs.hpp) and played as the holder plays
// its own (its connections' seats at this node's desk, the house and hosted bots at its table in
// its sandbox and cgroups), their results stored as a worker stores them, for the holder to
// rate.
//
// Its lease renewed while a match plays: a front cut off from the store longer than the lease
// has its match void, and plays it no further. Its messages wait, in order, while the store
// cannot be reached, and none is written before the store knows the front (its first hello).
// Each front process is a node of its own (its name: where it listens, and a number drawn as it
// starts), so that nothing addressed to a front that was killed reaches the one started after
// it. It stops (SIGTERM, or it takes the database over) with its matches ended (void) and its
// connections told to come back.
#pragma once

#include <uv.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/checks.hpp"
#include "arena/front_mail.hpp"
#include "arena/front_play.hpp"
#include "arena/job_play.hpp"
#include "arena/lobby.hpp"
#include "arena/settings.hpp"
#include "arena/store.hpp"
#include "match/venue.hpp"
#include "remote/desk.hpp"
#include "remote/seat_sockets.hpp"
#include "serve/server.hpp"
#include "transport/handles.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

class FrontSeating {
  public:
    FrontSeating(uv_loop_t* loop, Store& store, const Settings& settings, LoopLag* lag);
    ~FrontSeating();
    FrontSeating(const FrontSeating&) = delete;
    FrontSeating& operator=(const FrontSeating&) = delete;

    // Its players' venue (the word list, the sandbox and cgroups) opened; or why it cannot be.
    std::optional<std::string> open();
    // What its server serves for seating: /bot and /person, the people's page and tickets.
    void serve(serve::Server::Content& content);
    // Seats from now, where it listens (`address`: host and port), as a node of that name and a
    // number of its own.
    void start(const std::string& address);
    // Something was notified (the holder's stream): a turn now.
    void soon() {
        if (turn_ && !stopping_)
            turn_->start(0);
    }
    // Stops: the holder told it is gone (no match placed here after), no match claimed, its
    // connections told to come back, the checks cut short, the matches playing ended (void)
    // and their results stored; then `done`.
    void stop(std::function<void()> done);
    // Who may connect here, and who owns a bot (its wrong tokens counted by address, once for
    // its seats and its author's documents).
    const Door& door() const { return lobby_->door(); }
    static constexpr std::uint64_t turn_ms = 200;

  private:
    void turn();
    void to_holder(nlohmann::json body);
    // The messages that wait written, in order, once the store knows this front.
    void flush();
    // The connection waits to play (again: said again to a holder that begins).
    void arrived(const Arrival& arrival, bool again = false);
    void from_holder(const nlohmann::json& body);
    // The connections of a match that was not played: waiting again, after it.
    void not_played(const std::vector<Connection>& connections, int match);

    uv_loop_t* loop_;
    Store& store_;
    Settings settings_;
    LoopLag* lag_;
    std::string name_;
    remote::Desk desk_;
    std::unique_ptr<Venue> venue_;
    std::unique_ptr<Lobby> lobby_;
    std::unique_ptr<Checks> checks_;
    std::unique_ptr<remote::SeatSockets> sockets_;
    std::unique_ptr<FrontPlay> play_;
    std::optional<Timer> turn_;
    // The connections waiting to play, as said to the holder (said again to a new one), and
    // the match each played last (its arrival waits at the holder until that match's end).
    std::map<Connection, Arrival> waiting_;
    std::map<Connection, int> last_match_;
    Outbox outbox_;
    std::deque<nlohmann::json> from_holder_;  // taken, not yet done (the store away)
    std::uint64_t hello_ms_ = 0;
    bool known_ = false;  // its hello stored: its messages may go
    bool stopping_ = false;
    StoreCalls with_store_;
};

}  // namespace bg::arena
