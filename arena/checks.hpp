// The conformance checks the arena runs over its connections: for a version not yet checked, or
// a paused bot, the checker's scenarios (host --check's), each a seat of the connection's own
// under a token of the check, on the arena's loop beside its matches. What a check came to goes
// to the core (input::Checked); what the core decides of it (effect::CheckDone) back to the
// lobby, which queues the connection again or sends it away.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "arena/core/inputs.hpp"
#include "arena/lobby.hpp"
#include "checker/checker.hpp"
#include "record/setup.hpp"
#include "remote/desk.hpp"

namespace bg::arena {

class Checks {
  public:
    // A checked bot is connected already: its seat is given at once, and it has this long to
    // start its process for each scenario (besides the game's --ready-timeout for each message).
    static constexpr std::uint64_t connect_ms = 10'000;
    static constexpr int scenarios = 3;  // the checker's games, at most

    // `game`: the rules' clocks and the legacy dialect the checks play by; `dictionary` the word
    // list they deal from. `over` is told each check's outcome.
    // `move_ms`: how long each of the bot's moves is waited for.
    Checks(uv_loop_t* loop, remote::Desk& desk, Lobby& lobby, const Dictionary& dictionary,
           const GameSetup& game, std::uint64_t move_ms,
           std::function<void(const input::Checked&)> over);

    // The check of a connection, over it; none where its connection is gone (false).
    bool start(const effect::Check& check);
    // What the core made of its outcome: the lobby queues the connection or sends it away.
    void done(const effect::CheckDone& done);
    // Every check under way cut short (the arena stops): the lobby lets its connections go, and
    // their bots are checked again as they next connect.
    void cancel();
    std::size_t size() const { return running_.size(); }

  private:
    struct Running {
        std::string token;
        std::ostringstream report;
        std::unique_ptr<checker::Run> run;
    };
    void finished(Connection connection, const checker::Outcome& outcome);

    uv_loop_t* loop_;
    remote::Desk& desk_;
    Lobby& lobby_;
    const Dictionary& dictionary_;
    GameSetup game_;
    std::uint64_t move_ms_;
    std::function<void(const input::Checked&)> over_;
    std::map<Connection, std::unique_ptr<Running>> running_;
};

}  // namespace bg::arena
