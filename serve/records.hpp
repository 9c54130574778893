// An event log's records as the live streams and the pages send them (docs/live.md): each
// record an event named for the decision it holds or for its kind, never the seed of a game not
// yet over, and every seed also as decimal text (a browser reads a JSON number as a double,
// exact only up to 2^53; a seed goes up to 2^64-1).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace bg::serve {

// The record's event name: its decision's type (peel_accepted, peel_stale, dumped,
// dump_refused, disqualified, game_over, greeted, hands_dealt), or its kind (start, input,
// usage, result).
std::string record_event_name(const nlohmann::json& record);

// The record with, beside a start's or a result's "seed", "seed_text": the same number as
// decimal text (null where the seed is null). The log's records themselves never carry it.
nlohmann::json with_seed_text(nlohmann::json record);

// The record as a spectator may see it while the game is played: a start record's seed (every
// tile the game will deal) is null; and, as with_seed_text, every seed shown is also text.
nlohmann::json without_seed(nlohmann::json record);

// JSON text of any bytes (a bot's bytes that are not UTF-8 are replaced, never thrown on).
std::string dump_json(const nlohmann::json& value);

}  // namespace bg::serve
