// The bots the arena's core (arena/core/arena_core.hpp) pauses for their own faults: a bot out of
// a game for its own fault in CoreSettings::faults_to_pause rated matches in a row is paused (not
// matched again until the organiser enables it), its pause written to the store and, where it
// cannot be yet, tried again at the next turn, so that none is lost to a full disk. Pure.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "arena/core/deciding.hpp"
#include "arena/core/lounge.hpp"
#include "arena/core/seating.hpp"

namespace bg::arena {

class Pauses {
  public:
    Pauses(Deciding& deciding, Lounge& lounge) : d_(deciding), lounge_(lounge) {}
    // A rated match's faults counted: the bots they pause, paused.
    void counted(const MatchResult& result);
    // The clock: the pauses not yet stored tried again.
    void tick();

  private:
    void pause(int bot, const std::string& why);

    Deciding& d_;
    Lounge& lounge_;
    std::map<int, int> faults_;                          // by bot: matches in a row at fault
    std::vector<std::pair<int, std::string>> unpaused_;  // pauses not stored: bot, why
};

}  // namespace bg::arena
