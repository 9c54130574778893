// The command-line options a game is played with, shared by the host and the tournament: the
// game's rules and clocks, each player's sandbox, and the machine's shares. Boost.Program_options
// declares and reads them; a bad value is a po::error that names the option and what it takes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "cgroups/cgroups.hpp"
#include "record/setup.hpp"
#include "transport/sandbox.hpp"

namespace bg::options {

namespace po = boost::program_options;

// A whole number in [min, max], written in decimal digits only: Boost would take "-1" for an
// unsigned option as 2^64-1.
std::uint64_t count(const po::variables_map& vm, const char* name, std::uint64_t min,
                    std::uint64_t max);
// A duration in seconds: at least a millisecond (0 only where it means "none"), at most 10^6.
std::uint64_t milliseconds(const po::variables_map& vm, const char* name, bool zero_is_none);

// --dict, --sets, --ready-timeout, --game-timeout, --kill-grace, --legacy-dialect.
void add_game(po::options_description& options);
// Reads them into `setup` (its word list path, sets, dialect and clocks).
void read_game(const po::variables_map& vm, GameSetup& setup);

// --no-sandbox, --env, --sandbox-user and the per-process limits.
po::options_description sandbox();
// Reads them into `config`; false for --no-sandbox.
bool read_sandbox(const po::variables_map& vm, SandboxConfig& config);

using Shares = cgroups::Shares;
// --memory, --max-processes, --cpus-per-game, --unfair-per-process-limits.
po::options_description shares();
// Reads them (the totals into `config`'s limits, which become per-process ones without cgroups).
Shares read_shares(const po::variables_map& vm, SandboxConfig& config);

// Whether a v004 bot's process stays from game to game (match/lineup.hpp).
struct Reuse {
    bool fresh = false;         // --fresh-bots: every process is started for one game
    int games_per_process = 0;  // --games-per-process: at most this many games a process (0: any)
};
// --fresh-bots, --games-per-process.
po::options_description reuse();
Reuse read_reuse(const po::variables_map& vm);

// --remote-grace SEC: how long a remote seat's dropped connection may come back before its
// player has left (docs/remote.md); 0 to 3600 seconds, 10 unless given.
void add_remote_grace(po::options_description& options);
std::uint64_t read_remote_grace(const po::variables_map& vm);
}  // namespace bg::options
