// The arena's side of its workers (serve --workers; docs/arena.md, "Workers") and of its front
// nodes' matches: the matches its core gave to workers (effect::Play's by_workers) or placed at a
// front node (effect::Play's node: arena/front_seats.hpp), each queued in the store as a job
// (arena/jobs.hpp) with what a worker or that front needs to play it; and, at each look, what
// became of them (and, with fronts, their connections: arena/front_seats.hpp):
// the workers' cores (input::Workers), the matches played (in the order the workers finished
// them), the claims whose lease ran out (void), each an input for the core. The arena's stop
// ends them: a match no worker has taken at once, one under way once its grace is over.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arena/core/inputs.hpp"
#include "arena/front_seats.hpp"
#include "arena/jobs.hpp"
#include "arena/settings.hpp"
#include "arena/store.hpp"
#include "arena/wake.hpp"
#include "record/setup.hpp"

namespace bg::arena {

class HandedOut {
  public:
    // `words`: the arena's word list's fingerprint, which a worker's must be. Matches are handed
    // out to workers where `settings` has them (their cores told to the core), and to front
    // nodes where it shows them (on PostgreSQL); neither: nothing is handed out or looked for.
    // `feed` takes the core's inputs, `now` the arena's clock.
    HandedOut(uv_loop_t* loop, Store& store, const Settings& settings, std::uint64_t words,
              std::function<void(Input)> feed, std::function<std::uint64_t()> now);
    ~HandedOut();
    // The core's effect, where it concerns the front nodes' connections (FrontSeats::perform):
    // whether it was done.
    bool perform(Effect& effect) { return fronts_ && fronts_->perform(effect); }

    // The match queued for the workers, or for its front node (its connections' seats named as
    // the front names them); where it cannot be, it is over, incomplete (said), and a front's
    // connections wait again.
    void hand_out(const effect::Play& play, const GameSetup& game, std::uint64_t seed);
    // The matches of front nodes no longer seen, not yet taken: over, incomplete (and again at
    // each full look, where the store did not answer).
    void fronts_gone();
    // What became of the matches handed out, and the workers' cores where they changed: fed to
    // the core, in order. (A store that cannot answer: nothing, and said once.) Called on the
    // arena's tick, it looks at the played matches as a worker's notification says one is
    // (at once, between ticks), and at all of it every `full_look_ms`.
    void look();
    // The arena stops: the matches no worker took (all of them, `all`: the grace is over)
    // ended, each over as incomplete.
    void end(bool all);
    // Nothing more handed out: it listens no more (the loop may end).
    void finish() {
        if (wake_)
            wake_->stop();
    }
    bool empty() const { return handed_.empty(); }
    std::size_t size() const { return handed_.size(); }
    bool has(int match) const { return handed_.count(match) > 0; }

  private:
    void look(bool all);
    // The workers' cores, the matches none can take now, and the leases run out.
    void look_at_workers(std::vector<Input>& inputs);
    // The leases run out: their matches over, incomplete.
    void expire(std::vector<Input>& inputs);
    std::unique_ptr<FrontSeats> fronts_;
    // Why the match cannot be queued, or "" once it is.
    std::string queue(const effect::Play& play, const GameSetup& game, std::uint64_t seed);
    input::Played over(int match, std::string why);

    Store& store_;
    std::function<void(Input)> feed_;
    std::function<std::uint64_t()> now_;
    std::string words_;  // "": neither workers nor fronts
    bool workers_ = false;
    std::map<int, std::string> handed_;  // match: its front node ("": a worker's)
    std::optional<input::Workers> seen_;
    bool failing_ = false;
    std::uint64_t looked_ms_ = 0;  // when it last looked at all of it
    std::optional<Wake> wake_;     // a worker's result stored: looked at at once
};

// How long ago a worker said it was there and is still counted: its poll's, with room for a
// loaded machine.
inline constexpr std::uint64_t worker_seen_ms = 10'000;
// How often the arena looks at its workers, their leases and (a notification missed) their
// results, whatever it is told.
inline constexpr std::uint64_t full_look_ms = 1'000;

}  // namespace bg::arena
