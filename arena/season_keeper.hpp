// What the serving arena does for its seasons (docs/arena.md, "Seasons"; arena/core/season.hpp):
// each one closed as its time comes by the database's clock (its board frozen, its finalists
// chosen: arena/season_docs.hpp), the matches its finals want told to the core
// (input::Finals, which begins them as their seats are free), and its finals ended once settled
// (their standings frozen). All of it read from the store: as the arena starts, every two
// seconds, and soon after a match ends; an arena killed mid-finals goes on where it was. A store
// that cannot be read now is read again at the next look.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "arena/core/finals.hpp"
#include "arena/core/seating.hpp"
#include "arena/hosting.hpp"
#include "arena/store.hpp"
#include "match/venue.hpp"

namespace bg::arena {

class SeasonKeeper {
  public:
    struct Plan {
        // The house and hosted bots' seats the core holds (the version each plays now).
        std::function<const std::vector<HouseSeats>&()> houses;
        std::function<void(input::Finals)> feed;
    };
    SeasonKeeper(Store& store, Venue& venue, Hosting& hosting, Plan plan);
    // Looks at the seasons when it is time (every 2 s, or 200 ms after `soon`).
    void look(std::uint64_t now_ms);
    void soon() { soon_ = true; }

  private:
    void finals(const Season& season, input::Finals& wanted);
    // The venue's command of a finalist's version: the one its bot plays now, or its own
    // (a house bot's earlier command, a hosted bot's earlier version) added to the venue once.
    std::optional<House> house_of(const Bot& bot, const Entry& entry);

    Store& store_;
    Venue& venue_;
    Hosting& hosting_;
    Plan plan_;
    std::uint64_t next_ms_ = 0, last_ms_ = 0;
    bool soon_ = true;
    // Each season's finals matches rated, by rated_order (a rated match never changes).
    std::map<int, std::map<int, FinalsGame>> played_;
    std::map<int, House> launched_;  // by entry: the earlier versions added to the venue
};

}  // namespace bg::arena
