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

// The matches playing with a seat of `bot`.
int playing_of(int bot, const std::map<int, PlayingMatch>& playing) {
    int n = 0;
    for (const auto& [id, match] : playing)
        for (const MatchSeat& seat : match.seats)
            n += seat.bot.id == bot;
    return n;
}

// The table's seats where each one's bot has a seat free beside those `taken` at this turn: its
// house's, or (a finalist the core seats nowhere else: its bot removed since, or the arena not
// hosting now) one match at a time.
bool seats_of(const Roster& roster, const FinalsTable& table, const std::vector<HouseSeats>& houses,
              const CoreSettings& settings, const std::map<int, PlayingMatch>& playing,
              const std::map<int, int>& taken, std::vector<MatchSeat>& seats) {
    seats.clear();
    for (const House& house : table.seats) {
        const auto kept = std::find_if(houses.begin(), houses.end(), [&](const HouseSeats& h) {
            return h.house.bot == house.bot;
        });
        const Bot* bot = roster.account(house.bot);
        const Entry* entry = roster.entry(house.entry);
        if (!bot || !entry)
            return false;
        const bool known = kept != houses.end();
        const auto now = taken.find(house.bot);
        const int used = (known ? kept->in_use : playing_of(house.bot, playing)) +
                         (now == taken.end() ? 0 : now->second);
        if (used >= (known && !kept->house.hosted ? settings.house_seats : 1))
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
    const std::map<int, PlayingMatch>& playing,
    const std::function<bool(std::vector<MatchSeat>&)>& fits, std::size_t room) {
    std::vector<FinalsBegin> begun;
    std::map<int, int> taken;  // by bot: the seats of those begun at this turn
    for (auto at = wanted_.begin(); at != wanted_.end() && begun.size() < room;) {
        std::vector<MatchSeat> seats;
        if (!seats_of(roster, *at, houses, settings, playing, taken, seats) || !fits(seats)) {
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

bool FinalsWanted::wants(int bot) const {
    return std::any_of(wanted_.begin(), wanted_.end(), [bot](const FinalsTable& t) {
        return std::any_of(t.seats.begin(), t.seats.end(),
                           [bot](const House& h) { return h.bot == bot; });
    });
}

}  // namespace bg::arena
