// The seasons' finals matches the arena's core (arena/core/arena_core.hpp) is to begin: those
// the shell read as wanted (input::Finals, its seasons' present rounds), less those playing and
// those begun since. Each is begun, before any table of the matchmaker's, once its seats are free
// (a finalist's bot plays one match at a time if hosted, or `house_seats` if a house bot's,
// ladder and finals together; one the core seats nowhere else, one at a time) and the cores let
// it (InPlay::fits); a finalist its finals want plays no ladder match meanwhile. A void one is
// wanted again as the finals are next read. Pure.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/core/deciding.hpp"
#include "arena/core/inputs.hpp"
#include "arena/core/roster.hpp"
#include "arena/core/seating.hpp"

namespace bg::arena {

// A match playing, as the core's tables hold it.
struct PlayingMatch {
    int id = 0;
    std::string started;
    std::vector<MatchSeat> seats;
    bool by_workers = false;
    std::string node{};  // effect::Play's
    std::optional<FinalsOf> finals{};
};

// A finals match to begin: its seats, as the roster holds their accounts and versions.
struct FinalsBegin {
    FinalsOf of;
    std::vector<MatchSeat> seats;
};

class FinalsWanted {
  public:
    // The tables wanted now, in place of those before; those `playing` aside. Whether any.
    bool set(const std::vector<FinalsTable>& tables, const std::map<int, PlayingMatch>& playing);
    // Those to begin now, at most `room`, taken out of the wanted: each whose seats are free
    // beside the ones before it and those `playing`, and that `fits` (which may count it on).
    std::vector<FinalsBegin> take(const Roster& roster, const std::vector<HouseSeats>& houses,
                                  const CoreSettings& settings,
                                  const std::map<int, PlayingMatch>& playing,
                                  const std::function<bool(std::vector<MatchSeat>&)>& fits,
                                  std::size_t room);
    // Whether a finals table wanted seats the bot: while one does, it plays nothing else (the
    // ladder keeps no pair waiting).
    bool wants(int bot) const;
    bool empty() const { return wanted_.empty(); }

  private:
    std::vector<FinalsTable> wanted_;
};

}  // namespace bg::arena
