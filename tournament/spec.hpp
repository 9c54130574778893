// What a tournament is: its bots, its schedule's options, how each game is played and where its
// logs go. The database keeps it (as JSON), so that `resume` needs nothing else.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "cgroups/cgroups.hpp"
#include "record/setup.hpp"
#include "stats/pairs.hpp"
#include "tournament/schedule.hpp"
#include "transport/sandbox.hpp"

namespace bg::tournament {

struct Bot {
    std::string name;
    std::string command;  // run verbatim through sh -c
};

struct TournamentSpec {
    std::vector<Bot> bots;
    int players = 2;  // seats a game
    Format format = Format::round_robin;
    int deals = 1;  // deals a table
    std::uint64_t seed = 0;
    // Every game's setup but its seed and its players: word list (and its fingerprint, which a
    // resumed run checks), sets, dialect and clocks.
    GameSetup game;
    bool sandboxed = true;
    SandboxConfig sandbox;
    // The players' cgroups. A tournament made before they were (its options say nothing of them)
    // goes on as it was played: per-process limits only.
    cgroups::Shares shares;
    std::string logs;  // the directory of the games' event logs, or "" for none
    std::optional<stats::Sprt> sprt;
    // Shard `index` of `count` (from 0): only the schedule's games g (from 1) with
    // (g - 1) mod count == index, so that shards differ by at most one game.
    struct Shard {
        int index = 0;
        int count = 1;
        friend bool operator==(const Shard&, const Shard&) = default;
    };
    std::optional<Shard> shard;

    ScheduleOptions schedule_options() const;
    bool in_shard(int game_id) const {
        return !shard || (game_id - 1) % shard->count == shard->index;
    }
};

// "I/N", 0 <= I < N <= 100000, or why not.
std::variant<TournamentSpec::Shard, std::string> parse_shard(const std::string& text);
// What makes two databases the same tournament (the spec without its shard and its log folder,
// which each machine chooses), or the first option in which `a` and `b` differ, named.
std::optional<std::string> difference(const TournamentSpec& a, const TournamentSpec& b);

// A bot's NAME=CMD, or why it is not one.
std::variant<Bot, std::string> parse_bot(const std::string& text);
// "elo0=E0 elo1=E1 alpha=A beta=B" (alpha and beta 0.05 unless given), or why not.
std::variant<stats::Sprt, std::string> parse_sprt(const std::vector<std::string>& words);
// Everything a schedule and a run need that the options alone do not check, or why not: names
// unique, enough bots, an SPRT only between two bots.
std::optional<std::string> check(const TournamentSpec& spec);

nlohmann::json to_json(const TournamentSpec& spec);
std::variant<TournamentSpec, std::string> spec_from_json(const nlohmann::json& object);

std::string_view to_string(Format format);
std::optional<Format> format_from_string(std::string_view text);

}  // namespace bg::tournament
