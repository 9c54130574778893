// The core's doors: each input to the part it concerns, and the write awaited.
#include "arena/core/arena_core.hpp"

#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace bg::arena {

bool is_write(const Effect& effect) {
    return std::holds_alternative<effect::BeginMatch>(effect) ||
           std::holds_alternative<effect::RateMatch>(effect) ||
           std::holds_alternative<effect::VoidMatch>(effect) ||
           std::holds_alternative<effect::Pause>(effect) ||
           std::holds_alternative<effect::RecordCheck>(effect);
}

std::string_view input_name(const Input& input) {
    static constexpr std::string_view names[] = {"the matchmaker's turn",
                                                 "a connection waiting",
                                                 "a connection gone",
                                                 "a check over",
                                                 "a match over",
                                                 "the accounts read again",
                                                 "a signal",
                                                 "a write done",
                                                 "a write failed",
                                                 "a hosted version checked",
                                                 "the workers seen",
                                                 "the front nodes seen",
                                                 "the finals wanted"};
    static_assert(std::size(names) == std::variant_size_v<Input>);
    return names[input.index()];
}

std::vector<std::string> names_of(const std::vector<MatchSeat>& seats) {
    std::vector<std::string> names;
    for (const MatchSeat& seat : seats)
        names.push_back(seat.bot.name);
    return names;
}

ArenaCore::ArenaCore(Settings settings, Start start)
    : settings_(std::move(settings)),
      roster_(std::move(start.roster)),
      deciding_(settings_, roster_),
      lounge_(deciding_),
      tables_(deciding_, lounge_, start.houses, start.recent, start.last_over, start.seed) {}

Effects ArenaCore::take(const Input& input) {
    const bool outcome = std::holds_alternative<input::Written>(input) ||
                         std::holds_alternative<input::NotWritten>(input);
    if (deciding_.awaiting() != outcome)
        throw std::logic_error(deciding_.awaiting() ? "the arena's core awaits a write's outcome"
                                                    : "the arena's core awaits no write");
    deciding_.effects.clear();
    std::visit([this](const auto& in) { handle(in); }, input);
    deciding_.run();
    return std::exchange(deciding_.effects, {});
}

std::vector<ArenaCore::Queued> ArenaCore::queue() const {
    std::vector<Queued> all;
    for (const auto& [order, queued] : lounge_.queue())
        all.push_back(queued);
    return all;
}

void ArenaCore::handle(const input::Tick& in) {
    deciding_.now_ms = in.now_ms;
    // What the accounts are doing, published at the turn after it changed.
    if (deciding_.doings.changed()) {
        effect::Statuses said;
        for (const auto& [bot, status] : deciding_.doings.statuses())
            if (const Bot* account = roster_.account(bot))
                said.by_name[account->name] = status;
        deciding_.effects.push_back(std::move(said));
        deciding_.doings.said();
    }
    tables_.tick();
}

void ArenaCore::handle(const input::Arrived& in) {
    deciding_.now_ms = in.now_ms;
    lounge_.arrived(in, tables_.stopping());
}

void ArenaCore::handle(const input::Left& in) {
    lounge_.left(in.connection);
}

void ArenaCore::handle(const input::Checked& in) {
    lounge_.checked(in);
}

void ArenaCore::handle(const input::Played& in) {
    deciding_.now_ms = in.now_ms;
    tables_.played(in);
}

void ArenaCore::handle(const input::Reread& in) {
    for (const Bot& bot : in.accounts)
        roster_.put(bot);
    for (const Entry& entry : in.entries)
        roster_.put(entry);
    tables_.added(in.added);
    for (const House& house : in.added)
        deciding_.note(fmt::format("house bot {} added", deciding_.name_of(house.bot)));
    lounge_.turn_away_unplayable();
    deciding_.note("the bots read again (SIGHUP)");
    deciding_.effects.push_back(effect::Soon{});
}

void ArenaCore::handle(const input::Hosted& in) {
    deciding_.now_ms = in.now_ms;
    roster_.put(in.bot);
    roster_.put(in.entry);
    tables_.hosted(in.house);
    deciding_.note(fmt::format("hosted bot {} plays version {}", in.bot.name, in.entry.label));
    deciding_.effects.push_back(effect::Soon{});
}

void ArenaCore::handle(const input::Workers& in) {
    if (in.cores == deciding_.workers.cores && in.largest == deciding_.workers.largest)
        return;
    deciding_.note(fmt::format("the workers have {} core{} (the most of one: {})", in.cores,
                               in.cores == 1 ? "" : "s", in.largest));
    deciding_.workers = in;
    deciding_.effects.push_back(effect::Soon{});
}

void ArenaCore::handle(const input::Fronts& in) {
    if (in.cores == deciding_.fronts.cores)
        return;
    for (const auto& [node, cores] : in.cores)
        if (!deciding_.fronts.cores.count(node))
            deciding_.note(
                fmt::format("front node {} seats connections ({})", node,
                            cores ? fmt::format("{} cores", cores) : "its cores shared"));
    for (const auto& [node, cores] : deciding_.fronts.cores)
        if (!in.cores.count(node))
            deciding_.note(fmt::format("front node {} is gone", node));
    deciding_.fronts = in;
    deciding_.effects.push_back(effect::Soon{});
}

void ArenaCore::handle(const input::Finals& in) {
    tables_.finals(in);
}

void ArenaCore::handle(const input::Signalled& in) {
    deciding_.now_ms = in.now_ms;
    if (!tables_.stopping()) {
        // No one more is let in; a check under way is cut short (its bot is checked again as it
        // next connects), and the queue told there are no more games.
        deciding_.effects.push_back(effect::CloseDoors{});
        lounge_.close();
    }
    tables_.stop(in.signal, in.name);
}

void ArenaCore::handle(const input::Written& in) {
    deciding_.outcome(&in, "");
}

void ArenaCore::handle(const input::NotWritten& in) {
    deciding_.outcome(nullptr, in.why);
}

}  // namespace bg::arena
