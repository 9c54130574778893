// The arena's API documents (docs/arena.md, "The API"), from its database: what /api/leaderboard,
// /api/people, /api/bots/NAME, /api/people/NAME, /api/matches/ID and /api/config answer, and the
// event a finished match sends on /events. Version 1: fields are added, never changed or removed,
// without a new version.
#pragma once

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "arena/store.hpp"

namespace bg::arena {

inline constexpr int api_version = 1;

// What each account is doing now, by its id, as the running arena knows it: playing, checking
// (a conformance check), queued, connected (between matches), away (a remote bot or person not
// connected), paused, disabled. An account it does not name: default_status.
using Statuses = std::map<int, std::string>;
// An account's status where the arena says nothing of it: disabled, paused, or else queued for
// a house bot (its seats wait for matches), away for the others.
std::string default_status(const Bot& bot);

// The bots' leaderboard (/api/leaderboard), or the people's (/api/people); each row with its
// status and when its latest rated match finished (last_match).
nlohmann::json leaderboard_json(const Store& store, bool people = false,
                                const Statuses& statuses = {});
// A rating entry's own fields, as /api/bots/NAME and `bot list --json` give each version: its
// label, since when, its rating, and its conformance check.
nlohmann::json version_json(const Entry& entry);
// None for a bot there is not (or removed); with `person`, the same of a person's account.
// Each rated match with everyone at its table, the account's place in each rotation and its
// rating change; its games' out-reasons counted by code and its mean think time, CPU and wait
// for a CPU a game (games); when it was paused (paused_at); its status.
std::optional<nlohmann::json> bot_json(const Store& store, const std::string& name,
                                       bool person = false, const Statuses& statuses = {});
// None for a match there is not. A running match's games are not shown until it is over; then
// each with every seat's entrant, place and out-reason, and its page's path where its log was
// kept.
std::optional<nlohmann::json> match_json(const Store& store, int id);
nlohmann::json config_json(const Store& store);

}  // namespace bg::arena
