#include "arena/core/seating.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "arena/core/ladder.hpp"

namespace bg::arena {

namespace {

// A seat the matchmaker may fill: a queued connection's, or a house bot's free one.
struct Source {
    const Lounge::Queued* queued = nullptr;
    const HouseSeats* house = nullptr;
};

// Where a queued connection is, to the matchmaker (Waiting::node): the holder's own or a front's,
// in names that never meet whatever a front is called.
std::string matchmaker_node(const std::string& node) {
    return node.empty() ? "holder" : "front " + node;
}

MatchSeat seat_of(const Roster& roster, const Source& source) {
    MatchSeat seat;
    int bot = 0, entry = 0;
    if (source.house) {
        bot = source.house->house.bot;
        entry = source.house->house.entry;
        seat.command = source.house->house.command;
        seat.hosted = source.house->house.hosted;
    } else {
        bot = source.queued->bot;
        entry = source.queued->entry;
        seat.connection = source.queued->connection;
        seat.node = source.queued->node;
    }
    seat.bot = *roster.account(bot);
    seat.entry = *roster.entry(entry);
    seat.sparring = source.queued && !source.queued->opponent.empty() && !seat.bot.person;
    return seat;
}

}  // namespace

void Houses::add(const std::vector<House>& houses, std::uint64_t now_ms) {
    for (const House& house : houses)
        houses_.push_back({house, 0, now_ms});
}

void Houses::host(const House& house, std::uint64_t now_ms) {
    if (HouseSeats* kept = of(house.bot)) {
        kept->house = house;
        kept->free_since_ms = now_ms;
        return;
    }
    houses_.push_back({house, 0, now_ms});
}

HouseSeats* Houses::of(int bot) {
    for (HouseSeats& house : houses_)
        if (house.house.bot == bot)
            return &house;
    return nullptr;
}

bool Houses::seated(const MatchSeat& seat) {
    HouseSeats* house = seat.command ? of(seat.bot.id) : nullptr;
    if (house)
        ++house->in_use;
    return house;
}

void Houses::freed(const MatchSeat& seat, std::uint64_t now_ms) {
    if (HouseSeats* house = seat.command ? of(seat.bot.id) : nullptr) {
        house->in_use = std::max(0, house->in_use - 1);
        house->free_since_ms = now_ms;
    }
}

std::vector<std::vector<MatchSeat>> tables_now(
    const Roster& roster, const std::map<std::uint64_t, Lounge::Queued>& queue,
    const std::vector<HouseSeats>& houses, const CoreSettings& settings,
    const input::Fronts& fronts, const std::vector<RecentMatch>& recent, std::uint64_t now_ms,
    std::uint64_t seed, std::size_t room) {
    std::vector<Waiting> waiting;
    std::vector<Source> sources;
    const auto plays_now = [&](const Bot* bot) {
        return bot && bot->state == "active" && bot->paused.empty();
    };
    // The house bots that play now, by name (a person's or a sparring bot's chosen opponent).
    std::map<std::string, int, std::less<>> house_entries;
    for (const HouseSeats& h : houses)
        if (const Bot* bot = roster.account(h.house.bot); plays_now(bot) && !h.house.hosted)
            house_entries[bot->name] = h.house.entry;
    // A connection's node is the one it is connected to ("": the holder's); a house or hosted
    // seat plays wherever its table does (docs/arena.md, "Front nodes").
    const auto add = [&](int bot_id, int entry_id, std::uint64_t since, bool filler, int wants,
                         Source source) {
        const Bot* bot = roster.account(bot_id);
        const Entry* entry = roster.entry(entry_id);
        if (!bot || !entry)
            return;
        waiting.push_back({entry->id, bot->owner, entry->belief.mu, entry->belief.sigma,
                           entry->matches, since, filler, wants,
                           source.queued ? matchmaker_node(source.queued->node) : std::string()});
        sources.push_back(source);
    };
    for (const auto& [order, q] : queue) {
        if (!q.node.empty() && !fronts.cores.count(q.node))
            continue;  // its front is not seen: it waits (about to leave), taking no seat
        const auto chosen = house_entries.find(q.opponent);
        const int wants = q.opponent.empty()              ? 0
                          : chosen == house_entries.end() ? -1
                                                          : chosen->second;
        add(q.bot, q.entry, q.since_ms, false, wants, {&q, nullptr});
    }
    for (const HouseSeats& house : houses) {
        if (!plays_now(roster.account(house.house.bot)))
            continue;
        // A hosted bot's version came to play, as a connection does: one match at a time.
        const bool hosted = house.house.hosted;
        for (int free = (hosted ? 1 : settings.house_seats) - house.in_use; free > 0; --free)
            add(house.house.bot, house.house.entry, hosted ? house.free_since_ms : 0, !hosted, 0,
                {nullptr, &house});
    }
    std::vector<std::vector<MatchSeat>> tables;
    for (const auto& table : make_tables(waiting, recent, settings.matchmaker, now_ms, seed)) {
        if (tables.size() == room)
            break;
        std::vector<MatchSeat> seats;
        for (const int index : table)
            seats.push_back(seat_of(roster, sources[static_cast<std::size_t>(index)]));
        tables.push_back(std::move(seats));
    }
    return tables;
}

int local_seats(const std::vector<MatchSeat>& seats) {
    return static_cast<int>(
        std::count_if(seats.begin(), seats.end(), [](const MatchSeat& s) { return s.command; }));
}

namespace {

// A table's house bots' seats shed from its end while it holds more of the arena's players than
// `cores`, down to two seats (the seat it was made for is never shed).
void shed_to(std::vector<MatchSeat>& seats, int cores) {
    for (std::size_t i = seats.size(); i-- > 1 && local_seats(seats) > cores && seats.size() > 2;)
        if (seats[i].command && !seats[i].hosted)
            seats.erase(seats.begin() + static_cast<std::ptrdiff_t>(i));
}

}  // namespace

std::string place_of(const std::vector<MatchSeat>& seats) {
    for (const MatchSeat& seat : seats)
        if (!seat.node.empty())
            return seat.node;
    return "";
}

void InPlay::add(const std::vector<MatchSeat>& seats, bool by_workers, const std::string& node) {
    const int players = local_seats(seats);
    if (!node.empty())
        fronts[node] += players;
    else
        (by_workers ? workers : local) += players;
}

bool InPlay::fits(std::vector<MatchSeat>& seats, const CoreSettings& settings,
                  const input::Workers& workers_seen, const input::Fronts& fronts_seen) {
    if (const std::string node = place_of(seats); !node.empty()) {
        const auto front = fronts_seen.cores.find(node);
        return front != fronts_seen.cores.end() && fits_cores(seats, front->second, fronts[node]);
    }
    return by_workers(seats, settings.workers) ? fits_workers(seats, workers_seen, workers)
                                               : fits_cores(seats, settings.cores, local);
}

bool by_workers(const std::vector<MatchSeat>& seats, bool workers) {
    return workers && !seats.empty() &&
           std::all_of(seats.begin(), seats.end(), [](const MatchSeat& s) { return s.command; });
}

bool fits_workers(std::vector<MatchSeat>& seats, const input::Workers& workers,
                  int& workers_in_play) {
    if (workers.cores <= 0 || workers.largest < 2)
        return false;
    shed_to(seats, workers.largest);
    if (local_seats(seats) > workers.largest)
        return false;
    return fits_cores(seats, workers.cores, workers_in_play);
}

bool fits_cores(std::vector<MatchSeat>& seats, int cores, int& local_in_play) {
    if (cores <= 0)
        return true;
    shed_to(seats, cores);
    if (local_in_play + local_seats(seats) > cores)
        return false;
    local_in_play += local_seats(seats);
    return true;
}

MatchResult result_of(const std::vector<MatchSeat>& seats, const std::vector<StoredGame>& games,
                      const Roster& roster) {
    const std::size_t k = seats.size();
    std::vector<std::vector<int>> places(games.size(), std::vector<int>(k, 0));
    MatchResult result;
    result.faults.resize(k);
    for (std::size_t g = 0; g < games.size(); ++g) {
        const auto& players = games[g].result.players;
        for (std::size_t s = 0; s < players.size() && s < k; ++s) {
            // Seat s of rotation r holds entrant (s + r) mod K.
            const std::size_t e = (s + static_cast<std::size_t>(games[g].rotation)) % k;
            places[g][e] = players[s].rank;
            if (!result.faults[e])
                result.faults[e] = players[s].out_code;
        }
    }
    std::vector<int> entries;
    for (const MatchSeat& seat : seats)
        entries.push_back(seat.entry.id);
    result.rated = rating_step(
        entries, match_ranks(places), [&](int entry) { return roster.standing(entry); },
        roster.model());
    return result;
}

std::string machine_fault(const std::vector<MatchSeat>& seats, const std::vector<StoredGame>& games,
                          const std::vector<std::uint64_t>& stalled_ms,
                          std::uint64_t stall_bar_ms) {
    const std::size_t k = seats.size();
    for (std::size_t g = 0; g < games.size(); ++g) {
        const StoredGame& game = games[g];
        const auto& players = game.result.players;
        for (std::size_t s = 0; s < players.size() && s < k; ++s) {
            const MatchSeat& seat = seats[(s + static_cast<std::size_t>(game.rotation)) % k];
            const auto out = players[s].out_code;
            if (out != OutCode::not_ready && out != OutCode::could_not_start)
                continue;
            if (g < stalled_ms.size() && stall_bar_ms > 0 && stalled_ms[g] >= stall_bar_ms)
                return fmt::format(
                    "the machine was too slow: the arena's loop stalled for {:.1f} s in game {}, "
                    "in which {} was not ready, which no bot is rated for",
                    static_cast<double>(stalled_ms[g]) / 1000.0, game.rotation + 1, seat.bot.name);
            if (seat.command && !seat.hosted)
                return fmt::format(
                    "the machine was too slow: house bot {} was not ready in its game {}, which "
                    "no bot is rated for",
                    seat.bot.name, game.rotation + 1);
            if (game.result.contended.value_or(false))
                return fmt::format(
                    "the machine was too busy: {} was not ready in its game {}, whose players "
                    "waited for a CPU (a contended race), which no bot is rated for",
                    seat.bot.name, game.rotation + 1);
        }
    }
    return "";
}

std::string void_reason(const std::vector<MatchSeat>& seats, const input::Played& played,
                        const CoreSettings& settings) {
    if (!played.complete)
        return played.why.empty() ? "incomplete" : played.why;
    const std::string spar = sparring(seats);
    return spar.empty()
               ? machine_fault(seats, played.games, played.stalled_ms, settings.loop_stall_bar_ms)
               : spar;
}

std::uint64_t game_clock(const std::vector<MatchSeat>& seats, std::uint64_t bots_ms,
                         std::uint64_t people_ms) {
    const bool person =
        std::any_of(seats.begin(), seats.end(), [](const MatchSeat& s) { return s.bot.person; });
    return person && bots_ms > 0 ? std::max(bots_ms, people_ms) : bots_ms;
}

std::string sparring(const std::vector<MatchSeat>& seats) {
    for (const MatchSeat& seat : seats)
        if (seat.sparring)
            for (const MatchSeat& other : seats)
                if (other.command)
                    return fmt::format(
                        "a sparring match, which is never rated: {} asked to play {}",
                        seat.bot.name, other.bot.name);
    return "";
}

std::vector<std::pair<int, std::string>> to_pause(const MatchResult& result, const Roster& roster,
                                                  std::map<int, int>& streaks, int after) {
    std::vector<std::pair<int, std::string>> paused;
    for (std::size_t i = 0; i < result.rated.size(); ++i) {
        const Entry* entry = roster.entry(result.rated[i].entry);
        const Bot* bot = entry ? roster.account(entry->bot) : nullptr;
        if (!bot)
            continue;
        const auto fault = i < result.faults.size() ? result.faults[i] : std::nullopt;
        if (bot->person || !fault || *fault == OutCode::other) {
            streaks[bot->id] = 0;
        } else if (++streaks[bot->id] >= after) {
            streaks[bot->id] = 0;
            paused.emplace_back(
                bot->id, fmt::format("out of {} matches in a row for its own fault, the last: {}",
                                     after, label(*fault)));
        }
    }
    return paused;
}

}  // namespace bg::arena
