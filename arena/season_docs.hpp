// A season's documents (docs/arena.md, "Seasons"): its board (live while it is open, as frozen
// from its close), its finals as they stand, and its final standings; the same for `arena season
// show --json`, /api/seasons/NAME and its page, and what the arena freezes. And who its
// finalists are: the best of its bots' board that the arena runs itself (house and hosted bots,
// not disabled: their finals are played whenever their seats are free; a remote bot keeps its
// place on the board, and its tier).
#pragma once

#include <chrono>
#include <functional>
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

// A season whose time has come, closed: its board frozen with its finalists; where fewer than
// two can play the finals, its standings too (it is over). What was done, for the log.
std::string close_season(Store& store, const Season& season);
// The finals' fold of a season in its finals (its frozen finalists, the finals matches rated
// in `played`, in the order they were rated; `names` each entry's: names_of); once over, its
// standings frozen. Its state.
FinalsState fold_finals(Store& store, const Season& season, const std::vector<int>& finalists,
                        const std::vector<FinalsGame>& played, const std::map<int, Named>& names);
// The finals of a closed season as the store has them played (every finals match rated, in
// the order they were rated), folded.
FinalsState finals_of(const Store& store, const Season& season, const std::vector<int>& finalists);

// /api/seasons: every season, the latest first, in a few fields.
nlohmann::json seasons_json(const Store& store);
// /api/seasons/NAME: the whole season; none for a season there is not. Its finals' seed (which
// gives every deal of them) is shown only once they are over.
std::optional<nlohmann::json> season_json(const Store& store, const std::string& name);

// The account's place in every season (its rank and tier on the season's board, whether a
// finalist, and its place in the finals as they stand or ended), the latest season first; for
// /api/bots/NAME and /api/people/NAME. `doc`: a season's document (season_json).
nlohmann::json seasons_of(
    const Store& store, const std::string& name,
    const std::function<std::optional<nlohmann::json>(const std::string& season)>& doc);

// The seasons' documents as the API answers them: an open season's board is a fold of the
// archive, a season's finals a fold of its matches, so each is kept, and computed again only
// once a match has ended since (`stamp`, the last match over, as the caller names it) or 5 s
// have passed, whoever asks; a season there is not is not kept.
class SeasonCache {
  public:
    std::optional<nlohmann::json> season(const Store& store, const std::string& name,
                                         const std::string& stamp);

  private:
    struct Kept {
        std::string stamp;
        std::chrono::steady_clock::time_point at;
        nlohmann::json doc;
    };
    std::map<std::string, Kept> kept_;
};

}  // namespace bg::arena
