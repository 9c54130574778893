// The leaderboard's order-free fit (arena/core/ladder.hpp, fit_of), computed off the loop in
// libuv's thread pool: it costs the cube of the number of entries (seconds at a thousand),
// which no connection may wait for. A fit is begun when the leaderboard is asked for and the
// archive has grown since the last one began; meanwhile the last one computed is given (none
// before the first). So it is computed at most once a rated match, and never for a request.
#pragma once

#include <uv.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "arena/core/ladder.hpp"
#include "arena/core/roster.hpp"

namespace bg::arena {

class FitWork {
  public:
    explicit FitWork(uv_loop_t* loop) : loop_(loop), shared_(std::make_shared<Shared>()) {}
    // The last fit computed (its rated matches as of then), a new one begun where the roster's
    // archive has grown since the last began and none is being computed.
    const Fit& fit(const Roster& roster);

  private:
    // What a computation in the pool and the loop share: it outlives the FitWork where one is
    // under way as the arena closes.
    struct Shared {
        Fit fit;
        bool busy = false;
    };
    // One computation: the archive's rankings and entries copied in, the fit out.
    struct Job {
        uv_work_t request{};
        Rankings rankings;
        std::vector<int> entries;
        Fit fit;
        std::shared_ptr<Shared> shared;
    };
    uv_loop_t* loop_;
    std::shared_ptr<Shared> shared_;
    std::size_t begun_at_ = 0;  // rated matches in the archive of the last fit begun (0: none)
};

}  // namespace bg::arena
