#include "match/lineup.hpp"

#include <algorithm>

#include "core/text.hpp"
#include "protocol/messages.hpp"
#include "referee/referee.hpp"

namespace bg {

namespace {

// Where a seat reports once it is being ended: only its stderr's lines still matter, to
// `player_lines` (none when empty).
Seat::Events ending(std::function<void(const std::string& line)> player_lines,
                    std::function<void()> on_finished) {
    Seat::Events events;
    events.output = [](std::string_view) {};
    events.output_end = [] {};
    events.log = [player_lines = std::move(player_lines)](std::string_view line) {
        if (player_lines)
            player_lines(escape_for_terminal(line));
    };
    events.exited = [](std::int64_t, int) {};
    events.gone = [](OutCode, std::string) {};
    events.send_failed = [](std::string) {};
    events.finished = [on_finished = std::move(on_finished)] {
        if (on_finished)
            on_finished();
    };
    return events;
}

}  // namespace

Lineup::Lineup(uv_loop_t* loop, const SeatSource& seats, cgroups::GameCgroup* cgroup,
               std::vector<int> commands, Options options)
    : loop_(loop), seats_(seats), cgroup_(cgroup), options_(std::move(options)) {
    slots_.resize(commands.size());
    for (std::size_t i = 0; i < commands.size(); ++i)
        slots_[i].command = commands[i];
}

// Its owner ends every process first (dismiss(), then the loop until finished()); whatever is
// left dies with its handles' owners, as an abandoned match's players do.
Lineup::~Lineup() = default;

bool Lineup::seen(std::uint64_t deal) const {
    return std::any_of(slots_.begin(), slots_.end(), [deal](const Slot& slot) {
        return slot.parked &&
               std::find(slot.deals.begin(), slot.deals.end(), deal) != slot.deals.end();
    });
}

Lineup::Seating Lineup::seat(const std::vector<int>& slots, std::uint64_t deal) {
    sweep();
    seated_ = slots;
    Seating seating;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const int index = slots[i];
        Slot& slot = slots_[static_cast<std::size_t>(index)];
        if (slot.parked &&
            std::find(slot.deals.begin(), slot.deals.end(), deal) != slot.deals.end()) {
            // It knows this deal: a fresh process plays it (not a restart).
            slot.reader.reset();
            let_go(index, std::move(slot.parked), true);
        }
        if (slot.parked) {
            ++slot.games;
            slot.deals.push_back(deal);
            seating.continuing.push_back(Continuing{slot.version, slot.games});
            seating.readers.push_back(std::exchange(slot.reader, std::nullopt));
            seating.restarted.push_back(false);
            slot.playing = slot.parked.get();
            slot.parked->continues();
            seating.seats.push_back(std::move(slot.parked));
            continue;
        }
        const bool restarted = std::exchange(slot.lost, false);
        slot.restarts += restarted;
        seating.restarted.push_back(restarted);
        slot.games = 1;
        slot.deals = {deal};
        std::unique_ptr<Seat> seat =
            seats_.seat({loop_, index, slot.command, cgroup_, ++slot.lives});
        slot.playing = seat.get();
        seating.continuing.emplace_back();
        seating.readers.emplace_back();
        seating.seats.push_back(std::move(seat));
    }
    return seating;
}

void Lineup::take_back(std::vector<Match::Released> released,
                       const std::vector<PlayerState>& players) {
    for (std::size_t i = 0; i < released.size() && i < seated_.size(); ++i) {
        const int index = seated_[i];
        Slot& slot = slots_[static_cast<std::size_t>(index)];
        std::unique_ptr<Seat> seat = std::move(released[i].seat);
        slot.playing = nullptr;
        const bool stays = stays_for_match(players[i].version);
        if (!seat->kept() || !released[i].reader) {
            // Put out, gone, or it sent what it may not after its E: a v004 process that could
            // not go on is a restart.
            slot.lost = stays && options_.keep && !seat->serves_one_game();
            let_go(index, std::move(seat), false);
            continue;
        }
        slot.version = players[i].version;
        if (seat->serves_one_game()) {
            // Its v004 player is told there is no next game in it (B.), as a process that plays
            // its last is.
            let_go(index, std::move(seat), true);
            continue;
        }
        const bool recycled =
            options_.games_per_process > 0 && slot.games >= options_.games_per_process;
        if (!options_.keep || recycled) {
            let_go(index, std::move(seat), true);
            continue;
        }
        slot.parked = std::move(seat);
        slot.reader = std::move(released[i].reader);
        slot.parked_bytes = 0;
        slot.parked->attach(parked_events(index));
    }
    seated_.clear();
}

Seat::Events Lineup::parked_events(int index) {
    Seat* seat = slots_[static_cast<std::size_t>(index)].parked.get();
    // Each event is for the process parked now, not one that has since been let go.
    const auto parked = [this, index, seat]() -> Slot* {
        Slot& slot = slots_[static_cast<std::size_t>(index)];
        return slot.parked.get() == seat ? &slot : nullptr;
    };
    const auto drop_it = [this, index, parked] {
        if (parked())
            drop(index);
    };
    Seat::Events events;
    events.output = [this, index, parked](std::string_view bytes) {
        Slot* slot = parked();
        if (!slot)
            return;
        slot->parked_bytes += bytes.size();
        std::vector<Input> inputs;
        slot->reader->feed(bytes, inputs);
        const bool only_moves = std::all_of(inputs.begin(), inputs.end(), [](const Input& in) {
            return std::holds_alternative<input::Peel>(in) ||
                   std::holds_alternative<input::Dump>(in);
        });
        if (!only_moves || slot->reader->failed() || slot->parked_bytes > Referee::backlog_limit)
            drop(index);
    };
    events.output_end = drop_it;
    events.exited = [drop_it](std::int64_t, int) { drop_it(); };
    events.gone = [drop_it](OutCode, std::string) { drop_it(); };
    events.send_failed = [drop_it](std::string) { drop_it(); };
    events.log = [this, index](std::string_view line) {
        if (options_.player_lines)
            options_.player_lines(index, escape_for_terminal(line));
    };
    events.finished = [] {};
    return events;
}

void Lineup::drop(int index) {
    Slot& slot = slots_[static_cast<std::size_t>(index)];
    slot.reader.reset();
    slot.lost = true;
    let_go(index, std::move(slot.parked), false);
}

void Lineup::let_go(int index, std::unique_ptr<Seat> seat, bool farewell) {
    std::function<void(const std::string&)> lines;
    if (options_.player_lines)
        lines = [this, index](const std::string& line) { options_.player_lines(index, line); };
    seat->attach(ending(std::move(lines), options_.on_let_go));
    if (farewell) {
        seat->send(v2::bye());
        seat->close(options_.kill_grace_ms, options_.kill_grace_ms);
    } else {
        seat->close(0, options_.kill_grace_ms);
    }
    leaving_.push_back(std::move(seat));
}

void Lineup::dismiss() {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        slots_[i].reader.reset();
        if (slots_[i].parked)
            let_go(static_cast<int>(i), std::move(slots_[i].parked), true);
    }
}

void Lineup::sweep() {
    std::erase_if(leaving_, [](const auto& seat) { return seat->finished(); });
}

bool Lineup::finished() {
    sweep();
    return leaving_.empty() && std::none_of(slots_.begin(), slots_.end(), [](const Slot& slot) {
               return slot.parked || slot.playing;
           });
}

}  // namespace bg
