// What `arena serve` is told on its command line: its address, its logs, the core's settings
// (the matchmaker's, the concurrency, the house bots' seats, the stop's grace), the lobby's
// limits, the games' rules and the players' sandbox and machine shares.
#pragma once

#include <optional>
#include <string>

#include <boost/program_options.hpp>

#include "arena/core/arena_core.hpp"
#include "arena/hosting.hpp"
#include "arena/lobby.hpp"
#include "cgroups/cgroups.hpp"
#include "match/venue.hpp"
#include "record/setup.hpp"
#include "serve/request.hpp"
#include "transport/sandbox.hpp"

namespace bg::arena {

// Where the arena's players run, as serve and worker are told it: their sandbox (none:
// unsandboxed), their limits, and the machine's shares (cgroups).
struct PlayersMachine {
    std::optional<SandboxConfig> sandbox;
    cgroups::Shares shares;
    SandboxLimits limits;
};
PlayersMachine read_players(const boost::program_options::variables_map& vm);
// The CPUs this process may run on.
int cpus_here();
// A venue's plan for the arena's players (serve's, a worker's): their sandbox, shares and
// limits, the word list, the folder of the games' logs, and the paths no player may read.
VenuePlan players_plan(const PlayersMachine& players, const std::string& dictionary,
                       const std::string& logs, std::vector<std::string> secret_paths);

struct Settings {
    serve::Address listen;
    std::string logs;
    ArenaCore::Settings core;
    Lobby::Options lobby;
    int max_connections = 64;  // WebSocket connections at once, of everyone
    GameSetup game;
    // How long the conformance check waits for each of a bot's moves (its first message waits
    // the ready timeout): long enough for a bot at a person's pace.
    std::uint64_t check_move_ms = 120'000;
    // A game with a person at it: its clock (--game-timeout's for a game of bots alone), long
    // enough for a person's pace (5 to 15 s a peel: 8 to 10 minutes a game).
    std::uint64_t people_game_timeout_ms = 1'200'000;
    PlayersMachine players;
    HostingSettings hosting;
    // The store is PostgreSQL, which other nodes may read: what the arena does is shown to them
    // (arena/nodes.hpp).
    bool shows_fronts = false;
};

boost::program_options::options_description serve_options();
// Throws boost::program_options::error, with a sentence, for options that cannot be used.
Settings read_settings(const boost::program_options::variables_map& vm);
// The games' setup of a match of `seats`: a person at the table, the people's clock (where it is
// the longer).
GameSetup game_of(const Settings& settings, const std::vector<MatchSeat>& seats);

}  // namespace bg::arena
