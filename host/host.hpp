// What the host program's files share: what its command line asked for, its exit statuses and
// its output. main.cpp reads the command line and hands it to one of: play_game.cpp (a game),
// check.cpp (host --check), replay.cpp (host --replay).
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cgroups/cgroups.hpp"
#include "cli/console.hpp"
#include "cli/log.hpp"
#include "cli/options.hpp"
#include "match/venue.hpp"
#include "record/result.hpp"
#include "record/setup.hpp"
#include "serve/request.hpp"
#include "transport/sandbox.hpp"

namespace bg::host {

// Exit statuses; "played" means the game ran to its end and its result was printed.
constexpr int exit_played = 0;
constexpr int exit_failed = 1;  // a word list or log unreadable, a log not replaying or not written
constexpr int exit_usage = 2;   // bad options
constexpr int exit_player_failed = 3;  // a player's command could not start (played)
constexpr int exit_output_failed = 4;  // stdout (the result) could not be written (played)
constexpr int exit_no_sandbox = 5;     // the player sandbox, or the players' cgroups, cannot be had
constexpr int exit_stderr_failed = 6;  // stderr (the live lines) could not be written (played)

// The result (stdout), and the live lines (stderr, where its messages go too: cli/log.hpp).
extern Console out;
extern Console err;

// A game (or a check) as the command line asks for it.
struct Invocation {
    GameSetup setup;         // the commands, the deal, the rules' options, the word list
    SandboxConfig sandbox;   // its settings, and the players' limits (also unsandboxed)
    bool sandboxed = true;   // false: --no-sandbox
    cgroups::Shares shares;  // cgroups, or per-process limits only
    bool json = false;
    bool quiet = false;
    int games = 1;         // --games N: N games with the same players, one after another
    options::Reuse reuse;  // whether v004 bots stay from game to game
    std::string log;       // --log FILE, or ""
    std::string logs;      // --logs DIR, or "": each game's log in it
    std::string html;      // --html FILE, or ""
    std::optional<serve::Address> serve;
    std::uint64_t remote_grace_ms = 10'000;  // for a remote seat's dropped connection to return
};

// Where its players play: its word list, their sandbox and the machine's shares; no player may
// read the files in `secrets`.
VenuePlan venue_plan(const Invocation& invocation, std::vector<std::string> secrets = {});

// What a server with remote seats serves their players: the game's rules and its word list.
serve::ForPlayers for_remote_players(const Invocation& invocation, const Venue& venue);

int play_game(const Invocation& invocation);
int check_bot(const Invocation& invocation);
int replay(const std::string& path, bool json, bool quiet, const std::string& html);

// The result, as a table or one line of JSON as a log of `version` holds it.
void print_result(const GameResult& result, bool json, int version = log_version);
void print_live_line(double seconds, const std::string& line);
// The game's page (viewer/), from its log's records; false (and said why) when it cannot be had.
bool write_game_page(std::istream& log, const std::string& log_name, const std::string& path);
bool write_game_page(const std::vector<nlohmann::json>& records, const std::string& path);

}  // namespace bg::host
