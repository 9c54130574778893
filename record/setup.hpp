// What a game is played with: everything the event log's start record holds, so that a replay
// rebuilds the same game from the log alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compat/legacy.hpp"
#include "core/game.hpp"
#include "record/version.hpp"

namespace bg {

// Version 1: start, then inputs and decisions, then the result. Version 2 (with the players'
// cgroups): a usage record for each player after the game is over, before the result, and the
// result's players say their CPU time and peak memory; the start record says the shares and,
// like the result, the host's version. Version 3 (with the SCOWL default word list): the start
// record names the word list (`dictionary_name`). Version 4 (the stall timeout): the start
// record says `stall_timeout_ms`, and a game may end as `stalled`, by a `stall_timeout` input.
// Version 5 (protocol v004): the start record says which players continue in a process that
// stayed from an earlier game (`continuing`: null for a player started for the game, else its
// version and which game of its process this is), and the result each player's `process_game`.
// Version 6 (remote seats, docs/remote.md): "note" records say what happened to a seat that
// changes nothing in the game (a connection taken, dropped or refused) and are skipped by a
// replay; a remote player's command is `remote:` (its token withheld); each usage record and
// each player of the result says `remote`: null for a process, else its connection's round trip
// (`connections`, `pings`, `rtt_ms`, `rtt_max_ms`). Version 7 (fair races, docs/host.md): each
// usage record says how long the player waited for a CPU in the race (`cpu_wait_ns`, null where
// it cannot be had) and, where the figure is missing or only a lower bound, why
// (`cpu_wait_note`); the result's players say the same in milliseconds (`cpu_wait_ms`,
// `cpu_wait_note`), and the result the race's length (`race_ms`: from the input that dealt the
// hands to the one that ended the game) and whether it was `contended`. Version 8 (host 1.6.0):
// a player's way out has a code from one closed list (core/out_code.hpp) beside its sentence: in
// a `gone` input, a `disqualified` decision and the result's players (`code`, null for a player
// still in); an older log's codes are read from its sentences. And a reason names a byte that is
// not a printable character in words and by its code ("a newline (0x0a)") where an older log has
// the code alone ("0x0a"), and each is replayed in its own version's words.
inline constexpr int log_version = 8;
inline constexpr int oldest_log_version = 1;

struct GameSetup {
    RulesConfig game;
    std::vector<std::string> commands;
    LegacyDialect dialect = LegacyDialect::v1;
    std::string dictionary;  // the --dict path, or "" for the built-in list
    std::uint64_t dictionary_fingerprint = 0;
    // The word list's name: the built-in list's ("scowl-80"), else the file's path. A version 1
    // or 2 log does not say it: its reader names the list from the fingerprint ("" if unknown).
    std::string dictionary_name;
    std::uint64_t ready_timeout_ms = 10'000;
    std::uint64_t game_timeout_ms = 600'000;
    // Once the bunch cannot serve a dump, the game ends as `stalled` when no peel has been
    // accepted for this long (0: never). Logs before version 4 have none.
    std::uint64_t stall_timeout_ms = 30'000;
    std::uint64_t kill_grace_ms = 2'000;
    // The players' sandbox and its limits, for the record (null: none); replay needs none of it.
    nlohmann::json sandbox = nullptr;
    // The players' machine shares: their cgroups' kind, limits and pinned cores (null: per-process
    // limits only), for the record; replay needs none of it.
    nlohmann::json shares = nullptr;
    // The log's version: the one written, or the one a replayed log was written in.
    int version = log_version;
    // The version of the host that played the game (record/version.hpp): this build's, or the
    // one a replayed log names ("" in a version 1 log, which does not).
    std::string host_version = std::string(bg::version());
};

nlohmann::json to_json(const GameSetup& setup);
// Player commands as the log and the result hold them: any bytes, without loss.
nlohmann::json commands_json(const std::vector<std::string>& commands);
// The setup a start record holds, or why it is not one.
std::variant<GameSetup, std::string> setup_from_json(const nlohmann::json& object);

}  // namespace bg
