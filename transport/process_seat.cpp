#include "transport/process_seat.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg {

ProcessSeat::ProcessSeat(uv_loop_t* loop, Launch launch,
                         std::unique_ptr<cgroups::PlayerCgroup> cgroup, std::string cgroup_error)
    : cgroup_error_(std::move(cgroup_error)),
      memory_limit_(cgroup ? cgroup->limits().memory_bytes : 0) {
    // The process reports to the seat's events, which attach() sets.
    process_.emplace(
        loop, std::move(launch),
        ProcessEvents{
            .on_output = [this](std::string_view b) { events_.output(b); },
            .on_output_end = [this] { events_.output_end(); },
            .on_log = [this](std::string_view line) { events_.log(line); },
            .on_exit = [this](std::int64_t status, int signal) { events_.exited(status, signal); },
            .on_write_error = [this](int error) { events_.send_failed(uv_strerror(error)); },
            .on_out_of_memory =
                [this] {
                    events_.gone(OutCode::out_of_memory,
                                 fmt::format("used more than {} of memory (its processes together)",
                                             memory_amount(memory_limit_)));
                },
            .on_finished =
                [this] {
                    if (events_.finished)
                        events_.finished();
                },
        },
        std::move(cgroup));
}

namespace {

const cgroups::CpuWait no_race = {std::nullopt, "no race: the hands were never dealt"};

}  // namespace

void ProcessSeat::attach(Events events) {
    events_ = std::move(events);
    kept_ = false;
    race_start_.reset();
    cpu_wait_ = no_race;
    // A process that played a game before: this game's usage starts here.
    game_start_.reset();
    if (process_->phase() != PlayerProcess::Phase::unstarted) {
        game_start_ = process_->usage_now();
        process_->reset_memory_peak();
    }
}

void ProcessSeat::race_begins() {
    race_start_ = process_->wait_sample(false);
    if (!race_start_) {
        cpu_wait_ = {std::nullopt, "not counted: the player has no cgroup (per-process limits)"};
    } else if (!process_->running()) {
        cpu_wait_ = {std::nullopt, "not counted: its process had ended before the deal"};
        race_start_.reset();
    } else {
        cpu_wait_ = {std::nullopt, "the race has not ended"};
    }
}

void ProcessSeat::race_ends() {
    if (!race_start_)
        return;
    if (const auto end = process_->wait_sample(true))
        cpu_wait_ = cgroups::wait_between(*race_start_, *end);
    race_start_.reset();
}

bool ProcessSeat::keep() {
    kept_ = process_->running();
    // Its game has ended: what it wrote to stderr until now is that game's, not the next's.
    if (kept_)
        process_->read_waiting_log();
    return kept_;
}

PlayerUsage ProcessSeat::usage() const {
    cgroups::Usage used = process_->usage_now().value_or(cgroups::Usage{});
    if (game_start_) {
        if (used.cpu_ns && game_start_->cpu_ns)
            used.cpu_ns = *used.cpu_ns - std::min(*used.cpu_ns, *game_start_->cpu_ns);
        else
            used.cpu_ns.reset();
    }
    return PlayerUsage{used.cpu_ns, used.memory_peak_bytes, std::nullopt, cpu_wait_.ns,
                       cpu_wait_.note};
}

std::string ProcessSeat::open() {
    if (!cgroup_error_.empty())
        return "cannot make its cgroup: " + cgroup_error_;
    return process_->spawn() < 0 ? process_->spawn_error() : "";
}

std::vector<std::unique_ptr<Seat>> process_seats(uv_loop_t* loop, std::vector<Launch> launches) {
    std::vector<std::unique_ptr<Seat>> seats;
    for (auto& launch : launches)
        seats.push_back(std::make_unique<ProcessSeat>(loop, std::move(launch), nullptr));
    return seats;
}

}  // namespace bg
