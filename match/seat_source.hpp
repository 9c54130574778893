// Where a table's seats come from: a seat for a slot's player, whatever kind of player it is (a
// process of the venue's command, a remote connection, next an arena's session). The host, the
// tournament and the checker each ask one source, which alone decides the kind.
#pragma once

#include <uv.h>

#include <memory>

#include "cgroups/cgroups.hpp"
#include "transport/seat.hpp"

namespace bg {

class SeatSource {
  public:
    struct Request {
        uv_loop_t* loop = nullptr;
        int slot = 0;     // the player's place at its table (its cgroup is named by it)
        int command = 0;  // which of the venue's commands it plays (VenuePlan::commands)
        cgroups::GameCgroup* cgroup = nullptr;  // its table's, for a process (none: no cgroups)
        int life = 1;  // the how-manieth player of its slot this is (a process's cgroup's name)
    };
    virtual ~SeatSource() = default;
    virtual std::unique_ptr<Seat> seat(const Request& request) const = 0;
    // Whether the player of `command` plays one game at a time (a remote bot: one connection),
    // so that a run never seats it at two tables at once.
    virtual bool one_game_at_a_time(int /*command*/) const { return false; }
};

}  // namespace bg
