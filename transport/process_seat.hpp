// A seat taken by a process started for one game: the player's command, in its sandbox (or
// not) and its cgroup (or not), its stdin and stdout the seat's bytes, its stderr its log.
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

    void attach(Events events) override { events_ = std::move(events); }
    std::string open() override;
    void send(std::string bytes) override { process_->write(std::move(bytes)); }
    std::size_t unsent_bytes() const override { return process_->queued_bytes(); }
    void close(std::uint64_t farewell_ms, std::uint64_t grace_ms) override {
        process_->terminate(grace_ms, farewell_ms);
    }
    bool finished() const override { return process_->finished(); }
    cgroups::Usage usage() const override { return process_->usage().value_or(cgroups::Usage{}); }

    // The process group of its command, for looking at what it runs (host --check).
    int group() const { return process_->group(); }
    // Why its cgroup could not be made ("" when it was, or it needs none).
    const std::string& cgroup_error() const { return cgroup_error_; }

  private:
    Events events_;
    std::optional<PlayerProcess> process_;
    std::string cgroup_error_;
    std::uint64_t memory_limit_;  // its cgroup's, for an OOM kill's report
};

// A seat for each launch, without cgroups (tests and benchmarks; games take theirs from a
// venue, match/venue.hpp).
std::vector<std::unique_ptr<Seat>> process_seats(uv_loop_t* loop, std::vector<Launch> launches);

}  // namespace bg
