// An event log's records as the live streams send them (docs/live.md): each record an event
// named for the decision it holds or for its kind, and never the seed of a game not yet over.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace bg::serve {

// The record's event name: its decision's type (peel_accepted, peel_stale, dumped,
// dump_refused, disqualified, game_over, greeted, hands_dealt), or its kind (start, input,
// usage, result).
std::string record_event_name(const nlohmann::json& record);

// The record as a spectator may see it while the game is played: a start record's seed (every
// tile the game will deal) is null.
nlohmann::json without_seed(nlohmann::json record);

// JSON text of any bytes (a bot's bytes that are not UTF-8 are replaced, never thrown on).
std::string dump_json(const nlohmann::json& value);

}  // namespace bg::serve
