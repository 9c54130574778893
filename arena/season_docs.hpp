// A season's documents (docs/arena.md, "Seasons"): its board (live while it is open, as frozen
// from its close), its finals as they stand, and its final standings; the same for `arena season
// show --json`, /api/seasons/NAME and its page, and what the arena freezes. And who its
// finalists are: the best of its bots' board that the arena runs itself (house and hosted bots:
// their finals are played whenever their seats are free; a remote bot keeps its place on the
// board, and its tier).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/core/finals.hpp"
#include "arena/core/season.hpp"
#include "arena/store.hpp"

namespace bg::arena {

// The board's rows, each with its tier and whether it is a finalist; and how many matches.
nlohmann::json board_json(const SeasonBoard& board, const std::vector<int>& finalists);
// The finalists of a board at its close: its bots' rows the arena runs (a house bot's, or a
// hosted bot's version), the best `rules.finalists`, by entry.
std::vector<int> finalists_of(const SeasonBoard& board, const SeasonRules& rules,
                              const std::vector<HostedVersion>& hosted);
// The finals as they stand: their stage and round, and each place (its bot and version, its
// share of points, its verdict against the next below, and how sure: the pairs, the test's
// log-likelihood ratio and the likelihood of superiority); `names`: each entry's bot and label.
struct Named {
    std::string bot, kind, version;
};
nlohmann::json finals_json(const FinalsState& state, const SeasonRules& rules,
                           const std::map<int, Named>& names);
std::map<int, Named> names_of(const std::vector<Bot>& bots, const std::vector<Entry>& entries);

// /api/seasons: every season, the latest first, in a few fields.
nlohmann::json seasons_json(const Store& store);
// /api/seasons/NAME: the whole season; none for a season there is not. Its finals' seed (which
// gives every deal of them) is shown only once they are over.
std::optional<nlohmann::json> season_json(const Store& store, const std::string& name);

// The account's place in every season (its rank and tier on the season's board, whether a
// finalist, and its place in the finals as they stand or ended), the latest season first; for
// /api/bots/NAME and /api/people/NAME. An open season's board is computed as asked.
nlohmann::json seasons_of(const Store& store, const std::string& name);

}  // namespace bg::arena
