// Seasons: a contest with a deadline over the standing ladder (docs/arena.md, "Seasons"). Pure:
// values in, figures out, as the ladder (arena/core/ladder.hpp) is.
//
// A season runs from its start to its close. Its board rates every account within it from the
// first belief (an anchor's held, as on the ladder), by the ladder's own rating step, over the
// rated matches that finished in it, in the order they were rated: the ladder's ratings are not
// touched, and the season's follow from the archive alone, so that `arena rerate` recomputes
// them. Its rows are the ladder's accounts (not removed), each with its version the season knew
// last (made before the close, and let play), as the ladder's is its present one: one that
// played no match in the season is there at the first belief. Tiers cut the ranked rows by
// published percentiles.
//
// At its close its board is frozen, and its finals (arena/core/finals.hpp) settle the top places.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arena/core/ladder.hpp"
#include "arena/core/records.hpp"
#include "stats/pairs.hpp"
#include "stats/weng_lin.hpp"

namespace bg::arena {

// A tier: its name, and the share of the ranked rows at or above its end, in percent (the tiers
// in order, their ends rising to 100).
struct Tier {
    std::string name;
    double percent = 100;
    friend bool operator==(const Tier&, const Tier&) = default;
};

// What a season is played by, fixed as it is added.
struct SeasonRules {
    int finalists = 8;  // the best of the board at its close that play the finals (2 to 64)
    // The finals' stages: how many each begins with, the first `finalists`, each narrower, the
    // last at least 2 (Halite's cutoffs): a stage that ends with its order unsettled hands its
    // top ones on.
    std::vector<int> fields{8, 4, 2};
    int deals = 40;  // the deals a stage plays at most, each by every pair of its field
    // When two neighbours' order is settled (stats::Sprt on their head-to-head pairs of games):
    // one ahead by elo1 or more (H1), or neither ahead of the other by elo1 (H0, both ways).
    stats::Sprt sprt{0, 100, 0.05, 0.05};
    std::vector<Tier> tiers{{"gold", 10}, {"silver", 30}, {"bronze", 60}, {"entrant", 100}};
    std::uint64_t seed = 0;  // the finals' deals
    friend bool operator==(const SeasonRules& a, const SeasonRules& b) {
        return a.finalists == b.finalists && a.fields == b.fields && a.deals == b.deals &&
               a.sprt.elo0 == b.sprt.elo0 && a.sprt.elo1 == b.sprt.elo1 &&
               a.sprt.alpha == b.sprt.alpha && a.sprt.beta == b.sprt.beta && a.tiers == b.tiers &&
               a.seed == b.seed;
    }
};

// Why the rules cannot be used, or "".
std::string check_rules(const SeasonRules& rules);
// The stages' fields halving from `finalists` down to 2 (8: 8, 4, 2; 6: 6, 3, 2).
std::vector<int> halving_fields(int finalists);
// "gold:10,silver:30,bronze:60,entrant:100", as the rules and `season add --tiers` say them, and
// back (or why not).
std::string tiers_text(const std::vector<Tier>& tiers);
std::optional<std::vector<Tier>> parse_tiers(const std::string& text, std::string& why);

struct Season {
    int id = 0;
    std::string name;
    std::string starts, closes;  // the store's times: YYYY-MM-DDTHH:MM:SS.sssZ, UTC
    SeasonRules rules;
    std::string state = "open";  // open, finals (its board frozen), over (its finals too)
    std::string added;
};

// Whether a match that finished at `finished` counts in the season.
bool in_season(const Season& season, const std::string& finished);

// A row of a season's board: the ladder's row of its version (its rating the season's), the
// matches that version played in the season, and its tier.
struct SeasonRow {
    Row row;
    int matches = 0;
    std::string tier;
};
struct SeasonBoard {
    std::vector<SeasonRow> bots, people;
    int matches = 0;     // rated in the season
    int last_order = 0;  // the last of them as rated (its rated_order), or 0 for none
};
// The season's board: `rated`, the archive's rated matches in the order they were rated (those
// that finished in the season are read), `bots` and `entries` as the store has them (the
// versions made after the close are not the season's).
SeasonBoard season_board(const Season& season, const std::vector<Match>& rated,
                         const std::vector<Bot>& bots, const std::vector<Entry>& entries,
                         const stats::WengLin& model);
// The tier of rank `rank` (from 1) of `ranked` rows: the first whose end takes it in.
std::string tier_of(int rank, std::size_t ranked, const std::vector<Tier>& tiers);

}  // namespace bg::arena
