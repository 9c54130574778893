// The core's matches: the matchmaker's turn, a match begun once the store has it, its end (rated
// through the one rating step, or voided), the faults that pause a bot, and its seats let go.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "arena/core/arena_core.hpp"
#include "core/out_code.hpp"
#include "core/text.hpp"

namespace bg::arena {

// ---- the turn ----

std::vector<Waiting> ArenaCore::waiting_for_matchmaker(std::vector<Source>& sources) const {
    std::vector<Waiting> waiting;
    // The house bots that play now, by name: a person who chose one plays it alone (one that no
    // longer plays: never).
    std::map<std::string, int, std::less<>> house_entries;
    for (const HouseSeats& h : houses_)
        if (const Bot* bot = roster_.account(h.house.bot);
            bot && bot->state == "active" && bot->paused.empty())
            house_entries[bot->name] = h.house.entry;
    const auto add = [&](int bot_id, int entry_id, std::uint64_t since, bool filler, int wants) {
        const Bot* bot = roster_.account(bot_id);
        const Entry* entry = roster_.entry(entry_id);
        if (!bot || !entry)
            return false;
        waiting.push_back({entry->id, bot->owner, entry->belief.mu, entry->belief.sigma,
                           entry->matches, since, filler, wants});
        return true;
    };
    for (const auto& [order, q] : queue_) {
        const auto chosen = house_entries.find(q.opponent);
        const int wants = q.opponent.empty()              ? 0
                          : chosen == house_entries.end() ? -1
                                                          : chosen->second;
        if (add(q.bot, q.entry, q.since_ms, false, wants))
            sources.push_back({order, -1});
    }
    for (std::size_t h = 0; h < houses_.size(); ++h) {
        const HouseSeats& house = houses_[h];
        const Bot* bot = roster_.account(house.house.bot);
        if (!bot || !house_entries.count(bot->name))
            continue;
        for (int free = settings_.house_seats - house.in_use; free > 0; --free)
            if (add(house.house.bot, house.house.entry, 0, true, 0))
                sources.push_back({0, static_cast<int>(h)});
    }
    return waiting;
}

MatchSeat ArenaCore::seat_of(const Source& source) const {
    MatchSeat seat;
    int bot = 0, entry = 0;
    if (source.house >= 0) {
        const House& house = houses_[static_cast<std::size_t>(source.house)].house;
        bot = house.bot;
        entry = house.entry;
        seat.command = house.command;
    } else {
        const Queued& queued = queue_.at(source.order);
        bot = queued.bot;
        entry = queued.entry;
        seat.connection = queued.connection;
    }
    seat.bot = *roster_.account(bot);
    seat.entry = *roster_.entry(entry);
    return seat;
}

// The matchmaker's turn: whoever waits (the queue, the house bots' free seats) made into
// tables, each a match to begin, as long as there is room for one more. None while the arena
// stops, or for a while after a game's log could not be written.
void ArenaCore::turn() {
    if (signal_ || now_ms_ < logs_held_until_ ||
        static_cast<int>(playing_.size()) >= settings_.concurrency)
        return;
    std::vector<Source> sources;
    const std::vector<Waiting> waiting = waiting_for_matchmaker(sources);
    const auto tables = make_tables(waiting, recent_, settings_.matchmaker, now_ms_, seed_++);
    std::size_t room = static_cast<std::size_t>(settings_.concurrency) - playing_.size();
    for (const auto& table : tables) {
        if (room-- == 0)
            break;
        Step step(Step::begin);
        for (const int index : table)
            step.seats.push_back(seat_of(sources[static_cast<std::size_t>(index)]));
        todo_.push_back(std::move(step));
    }
}

// A table's match, once the store has it begun (its id).
void ArenaCore::begin(Step step) {
    effect::BeginMatch begin;
    for (const MatchSeat& seat : step.seats)
        begin.entries.push_back(seat.entry.id);
    write(std::move(begin), BeginAwaited{std::move(step.seats)});
}

void ArenaCore::begun(const BeginAwaited& a, const input::Written& written) {
    Playing& match = playing_[written.match];
    match = {written.match, written.at, a.seats};
    effect::Began began{written.match, {}};
    for (const MatchSeat& seat : a.seats) {
        if (seat.command) {
            for (HouseSeats& house : houses_)
                if (house.house.bot == seat.bot.id) {
                    ++house.in_use;
                    break;
                }
        } else {
            dequeue(seat.connection);
        }
        doing(seat.bot.id, &Doing::playing, +1);
        began.bots.push_back(seat.bot.name);
    }
    note(fmt::format("match {} begins: {}", written.match, fmt::join(began.bots, ", ")));
    effects_.push_back(effect::Play{written.match, a.seats});
    effects_.push_back(std::move(began));
}

// ---- a match's end ----

void ArenaCore::handle(const input::Played& in) {
    now_ms_ = in.now_ms;
    const auto found = playing_.find(in.match);
    if (found == playing_.end())
        return;
    const std::vector<MatchSeat>& seats = found->second.seats;
    if (!in.complete) {
        write(effect::VoidMatch{in.match, in.why},
              VoidAwaited{record_of(in.match, "running", "", "").match, in.why, in.games,
                          in.logs_failed, false});
        return;
    }
    // Entrant e sits in seat (e - r) mod K of rotation r: seat s holds entrant (s + r) mod K.
    const std::size_t k = seats.size();
    std::vector<std::vector<int>> places(in.games.size(), std::vector<int>(k, 0));
    std::vector<std::optional<OutCode>> faults(k);
    for (std::size_t g = 0; g < in.games.size(); ++g) {
        const auto& players = in.games[g].result.players;
        for (std::size_t s = 0; s < players.size() && s < k; ++s) {
            const std::size_t e = (s + static_cast<std::size_t>(in.games[g].rotation)) % k;
            places[g][e] = players[s].rank;
            if (!faults[e])
                faults[e] = players[s].out_code;
        }
    }
    std::vector<int> entries;
    for (const MatchSeat& seat : seats)
        entries.push_back(seat.entry.id);
    auto rated = rating_step(
        entries, match_ranks(places), [this](int entry) { return roster_.standing(entry); },
        roster_.model());
    write(effect::RateMatch{in.match, rated, in.games},
          RateAwaited{in.match, rated, in.games, std::move(faults)});
}

MatchRecord ArenaCore::record_of(int match, const std::string& state, const std::string& finished,
                                 const std::string& why) const {
    MatchRecord record;
    record.match.id = match;
    record.match.state = state;
    record.match.finished = finished;
    record.match.why = why;
    if (const auto found = playing_.find(match); found != playing_.end())
        record.match.started = found->second.started;
    return record;
}

void ArenaCore::rated(const RateAwaited& a, const input::Written& written) {
    roster_.rated(a.rated, written.at);
    RecentMatch group;
    std::string said;
    for (const Rated& r : a.rated) {
        group.push_back(r.entry);
        said += fmt::format("{}{} {} ({:.2f} -> {:.2f})", said.empty() ? "" : ", ",
                            roster_.named(r.entry).bot, r.rank, r.before.mu, r.after.mu);
    }
    remember(std::move(group));
    note(fmt::format("match {} rated: {}", a.match, said));
    MatchRecord record = record_of(a.match, "rated", written.at, "");
    record.match.entrants = a.rated;
    record.games = a.games;
    over(std::move(record));
    count_faults(a.rated, a.faults);
    release(a.match);
}

void ArenaCore::voided(const VoidAwaited& a, const input::Written& written) {
    note(fmt::format("match {} void: {}", a.match.id, escape_for_terminal(a.why)));
    if (a.logs_failed) {
        if (now_ms_ >= logs_held_until_)
            note(fmt::format("no match begins for {} s: the games' logs cannot be written",
                             settings_.logs_held_ms / 1000),
                 effect::Note::warning);
        logs_held_until_ = now_ms_ + settings_.logs_held_ms;
    }
    MatchRecord record{a.match, {}};
    record.match.state = "void";
    record.match.finished = written.at;
    record.match.why = a.why;
    over(std::move(record));
    if (a.unrecorded) {
        std::erase_if(unrecorded_, [&](const Match& m) { return m.id == a.match.id; });
        if (!unrecorded_.empty())
            todo_.push_front(Step(Step::void_unrecorded));
        return;
    }
    release(a.match.id);
}

void ArenaCore::not_recorded(int match, const std::string& why) {
    note(fmt::format("match {} could not be recorded: {}", match, escape_for_terminal(why)),
         effect::Note::error);
    unrecorded_.push_back(record_of(match, "running", "", "").match);
    release(match);
}

// A bot out of a match's game for its own fault, faults_to_pause matches in a row, is paused with
// the reason: not matched again until the organiser enables it. A person is not paused: one who
// leaves, or is too slow, loses the game, no more.
void ArenaCore::count_faults(const std::vector<Rated>& rated,
                             const std::vector<std::optional<OutCode>>& faults) {
    for (std::size_t i = 0; i < rated.size(); ++i) {
        const Entry* entry = roster_.entry(rated[i].entry);
        const Bot* bot = entry ? roster_.account(entry->bot) : nullptr;
        if (!bot)
            continue;
        const auto fault = i < faults.size() ? faults[i] : std::nullopt;
        if (bot->person || !fault || *fault == OutCode::other) {
            faults_[bot->id] = 0;
            continue;
        }
        if (++faults_[bot->id] < settings_.faults_to_pause)
            continue;
        faults_[bot->id] = 0;
        Step pause(Step::pause);
        pause.bot = bot->id;
        pause.why = fmt::format("out of {} matches in a row for its own fault, the last: {}",
                                settings_.faults_to_pause, label(*fault));
        todo_.push_back(std::move(pause));
    }
}

void ArenaCore::paused(const PauseAwaited& a, const input::Written& written) {
    const Bot* stored = roster_.account(a.bot);
    if (!stored)
        return;
    Bot bot = *stored;
    bot.paused = a.why;
    bot.paused_at = written.at;
    roster_.put(bot);
    turn_away_unplayable();
    note(fmt::format("bot {} paused: {} ('arena bot enable {}' lets it play again)", bot.name,
                     a.why, bot.name),
         effect::Note::warning);
}

// Its seats let go: the house bots' seats free again, its connections back to the lobby.
void ArenaCore::release(int match) {
    const auto found = playing_.find(match);
    if (found == playing_.end())
        return;
    for (const MatchSeat& seat : found->second.seats) {
        if (seat.command)
            for (HouseSeats& house : houses_)
                if (house.house.bot == seat.bot.id && house.in_use > 0) {
                    --house.in_use;
                    break;
                }
        doing(seat.bot.id, &Doing::playing, -1);
    }
    playing_.erase(found);
    effects_.push_back(effect::Release{match});
    effects_.push_back(effect::Soon{});
    finish_if_done();
}

// A match over, as stored: published, and among the last over.
void ArenaCore::over(MatchRecord record) {
    Match shown = record.match;
    shown.entrants.clear();
    last_over_.push_front(std::move(shown));
    if (last_over_.size() > last_over_kept)
        last_over_.pop_back();
    effects_.push_back(effect::Over{std::move(record)});
}

void ArenaCore::remember(RecentMatch group) {
    recent_.push_back(std::move(group));
    if (recent_.size() > settings_.recent_kept)
        recent_.erase(recent_.begin());
}

}  // namespace bg::arena
