#include "arena/opens.hpp"

#include <utility>

#include <nlohmann/json.hpp>

namespace bg::arena {

std::string who(const Arrival& arrival) {
    return (arrival.bot.person ? "person " : "bot ") + arrival.bot.name;
}

MatchContext match_context(const effect::Play& play) {
    MatchContext context;
    context.match = play.match;
    context.rotations = static_cast<int>(play.seats.size());
    for (const MatchSeat& seat : play.seats)
        context.table.push_back({seat.bot.name, seat.entry.belief});
    return context;
}

nlohmann::json match_over_json(const MatchRecord& record, int entry) {
    nlohmann::json message = {
        {"type", "match_over"}, {"match", record.match.id}, {"state", record.match.state}};
    if (!record.match.why.empty())
        message["why"] = record.match.why;
    for (const Rated& rated : record.match.entrants)
        if (rated.entry == entry) {
            message["place"] = rated.rank;
            message["players"] = record.match.entrants.size();
            message["rating"] = {
                {"before", {{"mu", rated.before.mu}, {"sigma", rated.before.sigma}}},
                {"after", {{"mu", rated.after.mu}, {"sigma", rated.after.sigma}}},
                {"change", rated.after.mu - rated.before.mu}};
        }
    return message;
}

OverTold told_over(const MatchRecord& record) {
    return [&record](Connection, int entry) {
        return std::optional<nlohmann::json>(match_over_json(record, entry));
    };
}

nlohmann::json match_start_json(const MatchContext& match, int rotation, const std::string& you) {
    nlohmann::json table = nlohmann::json::array();
    for (const auto& entrant : match.table)
        table.push_back({{"name", entrant.name},
                         {"rating", {{"mu", entrant.rating.mu}, {"sigma", entrant.rating.sigma}}}});
    return {{"id", match.match},
            {"rotation", rotation},
            {"rotations", match.rotations},
            {"players", match.table.size()},
            {"table", std::move(table)},
            {"you", you}};
}

Opens::Open& Opens::add(Sitter* sitter, Arrival arrival) {
    const Connection connection = next_++;
    Open& open = all_[connection];
    open.connection = connection;
    open.sitter = sitter;
    open.arrival = std::move(arrival);
    open.arrival.connection = connection;
    by_sitter_[sitter] = connection;
    return open;
}

void Opens::remove(Open& open) {
    count(open, false);
    seat(open, "", 0);
    if (open.sitter)
        by_sitter_.erase(open.sitter);
    if (const auto held = held_.find(open.bearer_hash);
        held != held_.end() && held->second == open.connection)
        held_.erase(held);
    all_.erase(open.connection);
}

Opens::Open* Opens::of(const Sitter* sitter) {
    const auto found = by_sitter_.find(sitter);
    return found == by_sitter_.end() ? nullptr : named(found->second);
}

Opens::Open* Opens::named(Connection connection) {
    const auto found = all_.find(connection);
    return found == all_.end() ? nullptr : &found->second;
}

Opens::Open* Opens::seated_under(const std::string& token) {
    return const_cast<Open*>(std::as_const(*this).seated_under(token));
}

const Opens::Open* Opens::seated_under(const std::string& token) const {
    const auto found = by_token_.find(token);
    if (found == by_token_.end())
        return nullptr;
    const auto open = all_.find(found->second);
    return open == all_.end() ? nullptr : &open->second;
}

void Opens::seat(Open& open, const std::string& token, int games) {
    if (!open.seat_token.empty())
        by_token_.erase(open.seat_token);
    open.seat_token = token;
    open.games_left = games;
    if (!token.empty())
        by_token_[token] = open.connection;
}

void Opens::count(Open& open, bool counted) {
    if (open.counted == counted)
        return;
    open.counted = counted;
    if (counted)
        ++per_bot_[open.arrival.bot.id];
    else if (--per_bot_[open.arrival.bot.id] <= 0)
        per_bot_.erase(open.arrival.bot.id);
}

int Opens::connections(int bot) const {
    const auto found = per_bot_.find(bot);
    return found == per_bot_.end() ? 0 : found->second;
}

std::vector<Connection> Opens::names(bool waiting_only) const {
    std::vector<Connection> all;
    for (const auto& [connection, open] : all_)
        if (open.sitter && (!waiting_only || open.waiting))
            all.push_back(connection);
    return all;
}

void Opens::hold(Open& open, std::uint64_t until) {
    by_sitter_.erase(open.sitter);
    open.sitter = nullptr;
    open.held_until = until;
    // One held an account at a time: an older one held is its later seats' loss alone.
    held_[open.bearer_hash] = open.connection;
}

const Opens::Open* Opens::held(const std::string& bearer_hash) const {
    const auto found = held_.find(bearer_hash);
    if (found == held_.end())
        return nullptr;
    const auto open = all_.find(found->second);
    return open != all_.end() && !open->second.sitter ? &open->second : nullptr;
}

Opens::Open* Opens::held(const std::string& bearer_hash) {
    return const_cast<Open*>(std::as_const(*this).held(bearer_hash));
}

void Opens::take_up(Open& open, Sitter& sitter) {
    held_.erase(open.bearer_hash);
    open.sitter = &sitter;
    open.held_until = 0;
    by_sitter_[&sitter] = open.connection;
}

std::vector<Connection> Opens::held_names() const {
    std::vector<Connection> held;
    for (const auto& [connection, open] : all_)
        if (!open.sitter)
            held.push_back(connection);
    return held;
}

}  // namespace bg::arena
