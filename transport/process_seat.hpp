// A seat taken by a process: the player's command, in its sandbox (or not) and its cgroup (or
// not), its stdin and stdout the seat's bytes, its stderr its log. Started for one game; or, when
// its match lets it (a player speaking v004 in a lineup's game, match/lineup.hpp), kept when the
// game ends and attached to the next, the same process in the same cgroup.
#pragma once

#include <uv.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "transport/player_process.hpp"
#include "transport/seat.hpp"

namespace bg {

class ProcessSeat final : public Seat {
  public:
    // `cgroup`: the player's, made beforehand so that the players start together; when it could
    // not be made, `cgroup_error` says why, and the seat never starts.
    ProcessSeat(uv_loop_t* loop, Launch launch, std::unique_ptr<cgroups::PlayerCgroup> cgroup,
                std::string cgroup_error = "");

    // For each game it is in: its process's usage is counted from here (and, where the kernel
    // can, its peak memory too).
    void attach(Events events) override;
    std::string open() override;
    void send(std::string bytes) override { process_->write(std::move(bytes)); }
    std::size_t unsent_bytes() const override { return process_->queued_bytes(); }
    void close(std::uint64_t farewell_ms, std::uint64_t grace_ms) override {
        kept_ = false;
        process_->terminate(grace_ms, farewell_ms);
    }
    bool keep() override;
    bool finished() const override { return kept_ || process_->finished(); }
    // What it used in the game it was last attached to, as its cgroup counted it, and its wait
    // for a CPU over that game's race.
    PlayerUsage usage() const override;
    void race_begins() override;
    void race_ends() override;
    bool kept() const override { return kept_; }
    // The process group of its command, for looking at what it runs (host --check).
    int group() const { return process_->group(); }
    // Why its cgroup could not be made ("" when it was, or it needs none).
    const std::string& cgroup_error() const { return cgroup_error_; }

  private:
    Events events_;
    std::optional<PlayerProcess> process_;
    std::string cgroup_error_;
    std::uint64_t memory_limit_;  // its cgroup's, for an OOM kill's report
    bool kept_ = false;
    std::optional<cgroups::Usage> game_start_;  // its usage when its game began (not its first)
    std::optional<cgroups::WaitSample> race_start_;
    cgroups::CpuWait cpu_wait_;
};

// A seat for each launch, without cgroups (tests and benchmarks; games take theirs from a
// venue, match/venue.hpp).
std::vector<std::unique_ptr<Seat>> process_seats(uv_loop_t* loop, std::vector<Launch> launches);

}  // namespace bg
