// The playing of a tournament: a database's pending games played on one event loop (the
// Runner), several at once, with the status line, the SPRT's stop, and the signals that stop a
// run. What run and resume share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <boost/program_options.hpp>

#include "cli/options.hpp"
#include "serve/request.hpp"

#include "tournament/database.hpp"

namespace bg::tournament {

// How a run or a resume plays: --concurrency, --rating-interval, --progress, --json and --serve.
struct PlaySettings {
    int concurrency = 1;
    int interval = 50;
    std::uint64_t progress_ms = 10'000;
    bool json = false;
    std::optional<serve::Address> serve;     // --serve
    options::Reuse reuse;                    // --fresh-bots, --games-per-process
    std::uint64_t remote_grace_ms = 10'000;  // --remote-grace: for a remote bot's connection
    bool replay_contended = false;           // resume --replay-contended
};

// Those of the command line; po::error for a bad value.
PlaySettings play_settings(const boost::program_options::variables_map& vm);

// Why the tournament cannot be played with these settings: a remote bot (remote:TOKEN) takes
// its seats through the live server, which needs --serve.
std::optional<std::string> remote_without_server(const TournamentSpec& spec,
                                                 const PlaySettings& settings);

// Takes the database for this runner alone, then plays its pending games; prints the standings
// at the end. The program's exit status (cli.hpp).
int play(Database& database, const PlaySettings& settings);

}  // namespace bg::tournament
