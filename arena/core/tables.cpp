#include "arena/core/tables.hpp"

#include <algorithm>
#include <csignal>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.hpp"

namespace bg::arena {

using Step = Deciding::Step;

Tables::Tables(Deciding& deciding, Lounge& lounge, const std::vector<House>& houses,
               const std::vector<RecentMatch>& recent, const std::vector<Match>& last_over,
               std::uint64_t seed)
    : d_(deciding), lounge_(lounge), pauses_(deciding, lounge), recent_(recent), seed_(seed) {
    houses_.add(houses, 0);
    while (recent_.size() > d_.settings.recent_kept)
        recent_.erase(recent_.begin());
    for (const Match& m : last_over)
        if (last_over_.size() < last_over_kept)
            last_over_.push_back(m);
}

// ---- the clock ----

void Tables::tick() {
    if (signal_ && !aborted_ && !playing_.empty() && d_.now_ms >= stop_at_ms_) {
        aborted_ = true;
        d_.effects.push_back(effect::Abort{SIGTERM});  // their grace is over
    }
    if (!unrecorded_.empty())
        d_.later(Step::void_unrecorded, [this] { void_unrecorded(); });
    pauses_.tick();
    if (!signal_)
        d_.later(Step::turn, [this] { turn(); });
}

// The matchmaker's turn: whoever waits (the queue, the house bots' free seats) made into
// tables, each a match to begin, as long as there is room for one more. None while the arena
// stops, or for a while after a game's log could not be written.
void Tables::turn() {
    const auto concurrency = static_cast<std::size_t>(d_.settings.concurrency);
    if (signal_ || d_.now_ms < logs_held_until_ || playing_.size() >= concurrency)
        return;
    const std::size_t room = std::min(concurrency - playing_.size(),
                                      static_cast<std::size_t>(d_.settings.begins_a_turn));
    InPlay in_play;
    for (const auto& [id, playing] : playing_)
        in_play.add(playing.seats, playing.by_workers, playing.node);
    // The seasons' finals first; the matchmaker's tables at the next turn, beside them.
    const auto fits = [&](std::vector<MatchSeat>& seats) {
        return in_play.fits(seats, d_.settings, d_.workers, d_.fronts);
    };
    auto finals = finals_.take(d_.roster, houses_.all(), d_.settings, playing_, fits, room);
    for (FinalsBegin& f : finals)
        d_.later(Step::begin, [this, f = std::move(f)] { begin(f.seats, f.of); });
    if (!finals.empty())
        return d_.effects.push_back(effect::Soon{});
    std::vector<HouseSeats> ladder = houses_.all();  // a finalist wanted by its finals aside
    std::erase_if(ladder, [this](const HouseSeats& h) { return finals_.wants(h.house.bot); });
    auto tables = tables_now(d_.roster, lounge_.queue(), ladder, d_.settings, d_.fronts, recent_,
                             d_.now_ms, seed_++, room);
    if (tables.size() == room && playing_.size() + room < concurrency)
        d_.effects.push_back(effect::Soon{});  // more may begin: at the next turn
    for (auto& seats : tables)
        if (fits(seats))
            d_.later(Step::begin, [this, seats = std::move(seats)] { begin(seats, {}); });
}

void Tables::finals(const input::Finals& in) {
    if (finals_.set(in.tables, playing_))
        d_.effects.push_back(effect::Soon{});
}

// ---- a match begun ----

// A table's match, once the store has it begun (its id); if it cannot be stored, no match
// begins until it can: the queue waits.
void Tables::begin(const std::vector<MatchSeat>& seats, const std::optional<FinalsOf>& finals) {
    effect::BeginMatch begin;
    for (const MatchSeat& seat : seats)
        begin.entries.push_back(seat.entry.id);
    begin.finals = finals;
    d_.write(std::move(begin),
             [this, seats, finals](const input::Written* written, const std::string&) {
                 if (written)
                     begun(seats, *written, finals);
                 else
                     d_.drop(Step::begin);
             });
}

void Tables::begun(const std::vector<MatchSeat>& seats, const input::Written& written,
                   const std::optional<FinalsOf>& finals) {
    const bool workers = by_workers(seats, d_.settings.workers);
    const std::string node = place_of(seats);
    playing_[written.match] = {written.match, written.at, seats, workers, node, finals};
    effect::Began began{written.match, names_of(seats)};
    for (const MatchSeat& seat : seats) {
        if (!houses_.seated(seat))
            lounge_.seated(seat.connection);
        d_.doings.add(seat.bot.id, Doings::playing, +1);
    }
    d_.note(fmt::format("match {} begins{}: {}", written.match,
                        node.empty() ? "" : " at front node " + node, fmt::join(began.bots, ", ")));
    d_.effects.push_back(effect::Play{written.match, seats, workers, node});
    d_.effects.push_back(std::move(began));
}

// ---- a match's end ----

Match Tables::running(int match) const {
    Match m;
    m.id = match;
    m.state = "running";
    if (const auto found = playing_.find(match); found != playing_.end())
        m.started = found->second.started;
    return m;
}

void Tables::played(const input::Played& in) {
    const auto found = playing_.find(in.match);
    if (found == playing_.end())
        return;
    if (const std::string why = void_reason(found->second.seats, in, d_.settings); !why.empty()) {
        d_.write(effect::VoidMatch{in.match, why},
                 [this, in, why, match = running(in.match)](const input::Written* written,
                                                            const std::string& failure) {
                     if (written)
                         voided(match, why, in.logs_failed, written->at, false);
                     else
                         not_recorded(in.match, failure);
                 });
        return;
    }
    MatchResult result = result_of(found->second.seats, in.games, d_.roster);
    effect::RateMatch rate{in.match, result.rated, in.games};
    d_.write(std::move(rate), [this, in, result = std::move(result)](const input::Written* written,
                                                                     const std::string& why) {
        if (written)
            rated(in, result, written->at);
        else
            not_recorded(in.match, why);
    });
}

void Tables::rated(const input::Played& in, const MatchResult& result,
                   const std::string& finished) {
    d_.roster.rated(result.rated, finished);
    RecentMatch group;
    std::string said;
    for (const Rated& r : result.rated) {
        group.push_back(r.entry);
        said += fmt::format("{}{} {} ({:.2f} -> {:.2f})", said.empty() ? "" : ", ",
                            d_.roster.named(r.entry).bot, r.rank, r.before.mu, r.after.mu);
    }
    recent_.push_back(std::move(group));
    if (recent_.size() > d_.settings.recent_kept)
        recent_.erase(recent_.begin());
    d_.note(fmt::format("match {} rated: {}", in.match, said));
    MatchRecord record{running(in.match), in.games};
    record.match.state = "rated";
    record.match.finished = finished;
    record.match.entrants = result.rated;
    over(std::move(record));
    pauses_.counted(result);
    release(in.match);
}

void Tables::voided(const Match& match, const std::string& why, bool logs_failed,
                    const std::string& finished, bool unrecorded) {
    d_.note(fmt::format("match {} void: {}", match.id, escape_for_terminal(why)));
    if (logs_failed) {
        if (d_.now_ms >= logs_held_until_)
            d_.note(fmt::format("no match begins for {} s: the games' logs cannot be written",
                                d_.settings.logs_held_ms / 1000),
                    effect::Note::warning);
        logs_held_until_ = d_.now_ms + d_.settings.logs_held_ms;
    }
    MatchRecord record{match, {}};
    record.match.state = "void";
    record.match.finished = finished;
    record.match.why = why;
    over(std::move(record));
    if (unrecorded) {
        std::erase_if(unrecorded_, [&](const Match& m) { return m.id == match.id; });
        if (!unrecorded_.empty())
            d_.later(
                Step::void_unrecorded, [this] { void_unrecorded(); }, true);
        return;
    }
    release(match.id);
}

// Matches over whose result could not be stored: voided as soon as the store can be written,
// one by one; one that still cannot be holds back the turn.
void Tables::void_unrecorded() {
    if (unrecorded_.empty())
        return;
    const Match match = unrecorded_.front();
    const std::string why = "its result could not be stored as it ended";
    d_.write(effect::VoidMatch{match.id, why},
             [this, match, why](const input::Written* written, const std::string&) {
                 if (written) {
                     voided(match, why, false, written->at, true);
                 } else {
                     d_.drop(Step::void_unrecorded);
                     d_.drop(Step::turn);
                 }
             });
}

void Tables::not_recorded(int match, const std::string& why) {
    d_.note(fmt::format("match {} could not be recorded: {}", match, escape_for_terminal(why)),
            effect::Note::error);
    unrecorded_.push_back(running(match));
    release(match);
}

// A match over, as stored: published, and among the last over.
void Tables::over(MatchRecord record) {
    Match shown = record.match;
    shown.entrants.clear();
    last_over_.push_front(std::move(shown));
    if (last_over_.size() > last_over_kept)
        last_over_.pop_back();
    d_.effects.push_back(effect::Over{std::move(record)});
}

// ---- seats let go, and the stop ----

// Its seats let go: the house bots' seats free again, its connections back to the lobby.
void Tables::release(int match) {
    const auto found = playing_.find(match);
    if (found == playing_.end())
        return;
    for (const MatchSeat& seat : found->second.seats) {
        houses_.freed(seat, d_.now_ms);
        d_.doings.add(seat.bot.id, Doings::playing, -1);
    }
    playing_.erase(found);
    d_.effects.push_back(effect::Release{match});
    d_.effects.push_back(effect::Soon{});
    finish_if_done();
}

void Tables::stop(int signal, const std::string& name) {
    if (signal_) {  // again: the matches playing are voided now
        d_.effects.push_back(effect::Abort{signal});
        return;
    }
    signal_ = signal;
    stop_at_ms_ = d_.now_ms + d_.settings.stop_grace_ms;
    if (!playing_.empty())
        d_.note(fmt::format("{}: {} match{} playing may finish within {} s (again: void them now)",
                            name, playing_.size(), playing_.size() == 1 ? "" : "es",
                            static_cast<double>(d_.settings.stop_grace_ms) / 1000.0));
    if (!playing_.empty() && d_.settings.stop_grace_ms == 0) {
        aborted_ = true;
        d_.effects.push_back(effect::Abort{signal});
    }
    finish_if_done();
}

void Tables::finish_if_done() {
    if (!signal_ || !playing_.empty() || finished_)
        return;
    finished_ = true;
    d_.effects.push_back(effect::Finish{});
}

}  // namespace bg::arena
