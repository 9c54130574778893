#include "arena/core/finals_wanted.hpp"

#include <algorithm>

namespace bg::arena {

namespace {

// Whether the match playing is the finals table's.
bool same(const PlayingMatch& match, const FinalsTable& table) {
    if (match.finals != table.of || match.seats.size() != table.seats.size())
        return false;
    for (std::size_t i = 0; i < match.seats.size(); ++i)
        if (match.seats[i].entry.id != table.seats[i].entry)
            return false;
    return true;
}

// The table's seats where each one's bot has a seat free beside those `taken` at this turn.
bool seats_of(const Roster& roster, const FinalsTable& table, const std::vector<HouseSeats>& houses,
              const CoreSettings& settings, const std::map<int, int>& taken,
              std::vector<MatchSeat>& seats) {
    seats.clear();
    for (const House& house : table.seats) {
        const auto kept = std::find_if(houses.begin(), houses.end(), [&](const HouseSeats& h) {
            return h.house.bot == house.bot;
        });
        const Bot* bot = roster.account(house.bot);
        const Entry* entry = roster.entry(house.entry);
        if (kept == houses.end() || !bot || !entry)
            return false;
        const auto now = taken.find(house.bot);
        const int used = kept->in_use + (now == taken.end() ? 0 : now->second);
        if (used >= (kept->house.hosted ? 1 : settings.house_seats))
            return false;
        MatchSeat seat;
        seat.bot = *bot;
        seat.entry = *entry;
        seat.command = house.command;
        seat.hosted = house.hosted;
        seats.push_back(std::move(seat));
    }
    return !seats.empty();
}

}  // namespace

bool FinalsWanted::set(const std::vector<FinalsTable>& tables,
                       const std::map<int, PlayingMatch>& playing) {
    wanted_.clear();
    for (const FinalsTable& table : tables)
        if (std::none_of(playing.begin(), playing.end(),
                         [&](const auto& p) { return same(p.second, table); }))
            wanted_.push_back(table);
    return !wanted_.empty();
}

std::vector<FinalsBegin> FinalsWanted::take(
    const Roster& roster, const std::vector<HouseSeats>& houses, const CoreSettings& settings,
    const std::function<bool(std::vector<MatchSeat>&)>& fits, std::size_t room) {
    std::vector<FinalsBegin> begun;
    std::map<int, int> taken;  // by bot: the seats of those begun at this turn
    for (auto at = wanted_.begin(); at != wanted_.end() && begun.size() < room;) {
        std::vector<MatchSeat> seats;
        if (!seats_of(roster, *at, houses, settings, taken, seats) || !fits(seats)) {
            ++at;
            continue;
        }
        for (const MatchSeat& seat : seats)
            ++taken[seat.bot.id];
        begun.push_back({at->of, std::move(seats)});
        at = wanted_.erase(at);
    }
    return begun;
}

}  // namespace bg::arena
