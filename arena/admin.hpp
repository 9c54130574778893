// The arena's commands on its database, run on the arena's machine only (the server has no way
// to add a bot or show a token): bot add, list, disable, enable, remove, rotate-token; the same
// of people's accounts (person ..., rotate-code); config; standings; rerate. What was asked goes to
// stdout (a new token on its own last line), what happened to stderr.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "arena/store.hpp"
#include "cli/console.hpp"
#include "cli/log.hpp"

namespace bg::arena {

constexpr int exit_done = 0;
constexpr int exit_database = 1;  // an unusable database
constexpr int exit_usage = 2;
constexpr int exit_differ = 3;  // rerate: the stored ratings are not the archive's

// What was asked (stdout), and what happened (stderr: cli/log.hpp).
extern Console out;
extern Console err;

int bot_add(Store& store, const std::string& name, const std::string& owner,
            const std::optional<std::string>& command, const std::optional<double>& anchor,
            const std::string& about = "");
// What the bot is, in a few words for its public pages ("": none).
int bot_about(Store& store, const std::string& name, const std::string& about);
int person_add(Store& store, const std::string& name);
// Bots' accounts, or with `people` people's.
int bot_list(Store& store, bool json, bool people = false);
// disable, enable, remove, or rotate-token (a person's: rotate-code).
int bot_change(Store& store, const std::string& what, const std::string& name, bool people = false);
int show_config(Store& store, bool json);
// The bots' leaderboard, or with `people` the people's.
int standings(Store& store, bool json, bool people = false);
int rerate_command(Store& store, bool json);

// arena season add: a season NAME from now (or `starts`) to `closes` (arena/seasons.hpp's
// season_time), its finals' and tiers' rules as given or the defaults (arena/core/season.hpp).
struct SeasonOptions {
    std::string name, closes;
    std::optional<std::string> starts, stages, sprt, tiers;
    std::optional<int> finalists, deals;
};
int season_add(Store& store, const SeasonOptions& options);
int season_list(Store& store, bool json);
// Its board (live while open, frozen from its close), its finals as they stand or ended.
int season_show(Store& store, const std::string& name, bool json);
// Each closed season's frozen board, and its finals' standings once over, recomputed from the
// archive: whether each is the frozen one (`differing` counts those that are not).
nlohmann::json rerate_seasons(Store& store, int& differing);
// arena copy: the arena at `from` whole into a new one at `to` (arena/sql_store.hpp's
// copy_arena), and what it copied.
int copy_command(const std::string& from, const std::string& to, bool json);

}  // namespace bg::arena
