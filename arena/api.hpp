// The arena's API documents (docs/arena.md, "The API"), from its database: what /api/leaderboard,
// /api/people, /api/bots/NAME, /api/people/NAME, /api/matches/ID and /api/config answer, and the
// event a finished match sends on /events. Version 1: fields are added, never changed or removed,
// without a new version.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "arena/store.hpp"

namespace bg::arena {

inline constexpr int api_version = 1;

// The bots' leaderboard (/api/leaderboard), or the people's (/api/people).
nlohmann::json leaderboard_json(const Store& store, bool people = false);
// A rating entry's own fields, as /api/bots/NAME and `bot list --json` give each version: its
// label, since when, its rating, and its conformance check.
nlohmann::json version_json(const Entry& entry);
// None for a bot there is not (or removed); with `person`, the same of a person's account.
std::optional<nlohmann::json> bot_json(const Store& store, const std::string& name,
                                       bool person = false);
// None for a match there is not. A running match's games are not shown until it is over.
std::optional<nlohmann::json> match_json(const Store& store, int id);
nlohmann::json config_json(const Store& store);

}  // namespace bg::arena
