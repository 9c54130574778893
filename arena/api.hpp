// The arena's API documents (docs/arena.md, "The API"): what /api/leaderboard, /api/people,
// /api/bots/NAME, /api/people/NAME, /api/matches/ID and /api/config answer, and the events
// the stream sends. Each is drawn from what the arena holds in memory (its roster, a match as it
// was written) and, for an account's or a match's history, from its store. Version 1: fields
// are added, never changed or removed, without a new version.
#pragma once

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "arena/core/inputs.hpp"
#include "arena/core/ladder.hpp"
#include "arena/core/roster.hpp"
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

nlohmann::json to_json(const stats::Belief& belief);
nlohmann::json to_json(const Row& row);
// The bots' leaderboard (/api/leaderboard), or the people's (/api/people), with the fit beside
// each row; each row with its status, when its latest rated match finished (last_match) and a
// remote bot's median round trip over its connection (`round_trips`, by bot: Store's).
nlohmann::json leaderboard_json(const Roster& roster, const Fit& fit, bool people = false,
                                const Statuses& statuses = {},
                                const std::map<int, double>& round_trips = {});
// A rating entry's own fields, as /api/bots/NAME and `bot list --json` give each version: its
// label, since when, its rating, and its conformance check.
nlohmann::json version_json(const Entry& entry);
// A version's label as the public reads it: a house bot's is the operator's command (its paths
// and flags on the arena's machine), shown as "house-" and 8 hex digits of its SHA-256.
std::string shown_version(std::string_view kind, const std::string& label);
// None for a bot there is not (or removed); with `person`, the same of a person's account.
// Each rated match with everyone at its table, the account's place in each rotation and its
// rating change; its games' out-reasons counted by code and its mean think time, CPU and wait
// for a CPU a game (games); when it was paused (paused_at); its status.
std::optional<nlohmann::json> bot_json(const Store& store, const Roster& roster,
                                       const std::string& name, bool person = false,
                                       const Statuses& statuses = {});
// A match's document: each entrant named, and (once it is over) its games, each with every
// seat's entrant, place and out-reason, and its page's path where its log was kept.
nlohmann::json match_json(const MatchRecord& record, const Roster& roster);
// The store's match of `id` (a running one shows no game), or none for a match there is not.
std::optional<nlohmann::json> match_json(const Store& store, const Roster& roster, int id);
nlohmann::json config_json(const stats::WengLin& model, const MatchmakerConfig& matchmaker);

// The stream's events: a match begun, what each account is doing.
nlohmann::json began_json(const effect::Began& began);
nlohmann::json statuses_json(const effect::Statuses& statuses);

}  // namespace bg::arena
