// The core's doors, and what it does of connections, checks, signals and statuses. Its matches
// (the turn, their beginning and their end) are in matches.cpp.
#include "arena/core/arena_core.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::arena {

bool is_write(const Effect& effect) {
    return std::holds_alternative<effect::BeginMatch>(effect) ||
           std::holds_alternative<effect::RateMatch>(effect) ||
           std::holds_alternative<effect::VoidMatch>(effect) ||
           std::holds_alternative<effect::Pause>(effect) ||
           std::holds_alternative<effect::RecordCheck>(effect);
}

std::string_view input_name(const Input& input) {
    static constexpr std::string_view names[] = {
        "the matchmaker's turn", "a connection waiting",    "a connection gone", "a check over",
        "a match over",          "the accounts read again", "a signal",          "a write done",
        "a write failed"};
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
    : settings_(std::move(settings)), roster_(std::move(start.roster)), seed_(start.seed) {
    for (const House& house : start.houses)
        houses_.push_back({house, 0});
    for (RecentMatch& group : start.recent)
        remember(std::move(group));
    for (Match& m : start.last_over)
        last_over_.push_back(std::move(m));
    while (last_over_.size() > last_over_kept)
        last_over_.pop_back();
}

Effects ArenaCore::take(const Input& input) {
    const bool outcome = std::holds_alternative<input::Written>(input) ||
                         std::holds_alternative<input::NotWritten>(input);
    if (awaiting_.has_value() != outcome)
        throw std::logic_error(awaiting_ ? "the arena's core awaits a write's outcome"
                                         : "the arena's core awaits no write");
    effects_.clear();
    std::visit([this](const auto& in) { handle(in); }, input);
    run();
    return std::exchange(effects_, {});
}

void ArenaCore::run() {
    while (!awaiting_ && !todo_.empty()) {
        Step step = std::move(todo_.front());
        todo_.pop_front();
        switch (step.kind) {
            case Step::void_unrecorded:
                if (!unrecorded_.empty()) {
                    const Match& m = unrecorded_.front();
                    const std::string why = "its result could not be stored as it ended";
                    write(effect::VoidMatch{m.id, why}, VoidAwaited{m, why, {}, false, true});
                }
                break;
            case Step::turn:
                turn();
                break;
            case Step::begin:
                begin(std::move(step));
                break;
            case Step::pause:
                write(effect::Pause{step.bot, step.why}, PauseAwaited{step.bot, step.why});
                break;
        }
    }
}

// ---- the clock, and the outcome of writes ----

void ArenaCore::handle(const input::Tick& in) {
    now_ms_ = in.now_ms;
    if (signal_ && !aborted_ && !playing_.empty() && now_ms_ >= stop_at_ms_) {
        aborted_ = true;
        effects_.push_back(effect::Abort{15});  // SIGTERM: their grace is over
    }
    if (statuses_changed_) {
        effect::Statuses said;
        for (const auto& [bot, status] : statuses())
            if (const Bot* account = roster_.account(bot))
                said.by_name[account->name] = status;
        effects_.push_back(std::move(said));
        statuses_changed_ = false;
    }
    if (!unrecorded_.empty())
        todo_.push_back(Step(Step::void_unrecorded));
    // Pauses that could not be stored: tried again, so that none is lost to a full disk.
    for (auto& [bot, why] : std::exchange(unpaused_, {})) {
        Step pause(Step::pause);
        pause.bot = bot;
        pause.why = std::move(why);
        todo_.push_back(std::move(pause));
    }
    if (!signal_)
        todo_.push_back(Step(Step::turn));
}

void ArenaCore::handle(const input::Written& in) {
    const Awaited awaited = std::move(*awaiting_);
    awaiting_.reset();
    store_written();
    std::visit(
        [&](const auto& a) {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, BeginAwaited>)
                begun(a, in);
            else if constexpr (std::is_same_v<A, RateAwaited>)
                rated(a, in);
            else if constexpr (std::is_same_v<A, VoidAwaited>)
                voided(a, in);
            else if constexpr (std::is_same_v<A, PauseAwaited>)
                paused(a, in);
            else
                checked(a, &in);
        },
        awaited);
}

void ArenaCore::handle(const input::NotWritten& in) {
    const Awaited awaited = std::move(*awaiting_);
    awaiting_.reset();
    store_failed(in.why);
    std::visit(
        [&](const auto& a) {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, BeginAwaited>) {
                // No match begins until the store can be written: the queue waits.
                std::erase_if(todo_, [](const Step& s) { return s.kind == Step::begin; });
            } else if constexpr (std::is_same_v<A, RateAwaited>) {
                not_recorded(a.match, in.why);
            } else if constexpr (std::is_same_v<A, VoidAwaited>) {
                if (a.unrecorded)  // still not: the next tick tries again, and no match begins
                    std::erase_if(todo_, [](const Step& s) {
                        return s.kind == Step::void_unrecorded || s.kind == Step::turn;
                    });
                else
                    not_recorded(a.match.id, in.why);
            } else if constexpr (std::is_same_v<A, PauseAwaited>) {
                note(fmt::format("bot {} could not be paused: {} (tried again at the next turn)",
                                 name_of(a.bot), escape_for_terminal(in.why)),
                     effect::Note::error);
                unpaused_.push_back({a.bot, a.why});
            } else {
                note(fmt::format("bot {}: its check could not be recorded: {}",
                                 name_of(a.checking.bot), escape_for_terminal(in.why)),
                     effect::Note::error);
                checked(a, nullptr);
            }
        },
        awaited);
}

void ArenaCore::store_written() {
    if (store_failing_)
        note("the database can be written again");
    store_failing_ = false;
}

void ArenaCore::store_failed(const std::string& why) {
    if (!store_failing_)
        note(fmt::format("the database cannot be written: {} (no match begins until it can)",
                         escape_for_terminal(why)),
             effect::Note::error);
    store_failing_ = true;
}

void ArenaCore::note(std::string text, effect::Note::Level level) {
    effects_.push_back(effect::Note{level, std::move(text)});
}

std::string ArenaCore::name_of(int bot) const {
    const Bot* account = roster_.account(bot);
    return account ? account->name : fmt::format("#{}", bot);
}

// ---- connections ----

void ArenaCore::handle(const input::Arrived& in) {
    now_ms_ = in.now_ms;
    roster_.put(in.bot);
    if (!roster_.entry(in.entry.id))
        roster_.put(in.entry);
    if (signal_ || in.bot.state != "active") {
        // Stopping; or disabled or removed since it was let in: no more games for it.
        effects_.push_back(effect::TurnAway{{in.connection}});
        return;
    }
    if (place_.count(in.connection) || checking_.count(in.connection))
        return;  // queued, or checked, already
    const Entry& entry = *roster_.entry(in.entry.id);
    if (checked_first(in.bot, entry)) {
        // Not yet checked, or paused: checked first, over this connection.
        note(fmt::format("bot {}{} is checked before it is queued{}", in.bot.name,
                         entry.label.empty() ? "" : " " + escape_for_terminal(entry.label),
                         in.bot.paused.empty() ? "" : " (paused: " + in.bot.paused + ")"));
        checking_[in.connection] = {in.bot.id, entry.id};
        doing(in.bot.id, &Doing::checking, +1);
        effects_.push_back(effect::Check{in.connection, in.bot, entry});
        return;
    }
    queue_[++arrivals_] = {in.connection, in.bot.id, entry.id, now_ms_, in.opponent};
    place_[in.connection] = arrivals_;
    doing(in.bot.id, &Doing::queued, +1);
    effects_.push_back(effect::Soon{});
}

void ArenaCore::handle(const input::Left& in) {
    dequeue(in.connection);
}

void ArenaCore::dequeue(Connection connection) {
    const auto place = place_.find(connection);
    if (place == place_.end())
        return;
    const auto queued = queue_.find(place->second);
    doing(queued->second.bot, &Doing::queued, -1);
    queue_.erase(queued);
    place_.erase(place);
}

std::vector<ArenaCore::Queued> ArenaCore::queue() const {
    std::vector<Queued> all;
    for (const auto& [order, queued] : queue_)
        all.push_back(queued);
    return all;
}

// The waiting connections of bots that may no longer play (disabled, removed, paused): told
// that there are no more games.
void ArenaCore::turn_away_unplayable() {
    effect::TurnAway away;
    for (const auto& [order, queued] : queue_) {
        const Bot* bot = roster_.account(queued.bot);
        if (!bot || bot->state != "active" || !bot->paused.empty())
            away.connections.push_back(queued.connection);
    }
    for (const Connection connection : away.connections)
        dequeue(connection);
    if (!away.connections.empty())
        effects_.push_back(std::move(away));
}

// ---- checks ----

void ArenaCore::handle(const input::Checked& in) {
    const auto found = checking_.find(in.connection);
    if (found == checking_.end())
        return;
    const Checking checking = found->second;
    checking_.erase(found);
    doing(checking.bot, &Doing::checking, -1);
    write(effect::RecordCheck{checking.entry, in.passed, in.why},
          CheckAwaited{in.connection, checking, in});
}

// A check recorded (`written`), or not: the entry and its bot as the store has them now, and
// the connection queued again or sent away.
void ArenaCore::checked(const CheckAwaited& a, const input::Written* written) {
    const input::Checked& outcome = a.outcome;
    const Entry* stored = roster_.entry(a.checking.entry);
    const Bot* bot = roster_.account(a.checking.bot);
    if (!stored || !bot)
        return;
    Entry entry = *stored;
    const bool was_paused = !bot->paused.empty();
    if (written && outcome.passed) {
        entry.checked = written->at;
        entry.check_failed.clear();
        Bot unpaused = *bot;
        unpaused.paused.clear();
        unpaused.paused_at.clear();
        roster_.put(unpaused);
    } else if (written) {
        entry.check_failed = outcome.why;
    }
    roster_.put(entry);
    const std::string version = entry.label.empty() ? "" : " " + escape_for_terminal(entry.label);
    if (outcome.passed)
        note(fmt::format("bot {}{} passed its check ({} checks){}", name_of(a.checking.bot),
                         version, outcome.checks, was_paused ? ": no longer paused" : ""));
    else
        note(fmt::format("bot {}{} failed its check, not queued: {}", name_of(a.checking.bot),
                         version, escape_for_terminal(outcome.why)));
    effects_.push_back(effect::CheckDone{a.connection, outcome.passed, outcome.told});
}

// ---- the accounts read again, and the stop ----

void ArenaCore::handle(const input::Reread& in) {
    for (const Bot& bot : in.accounts)
        roster_.put(bot);
    for (const Entry& entry : in.entries)
        roster_.put(entry);
    for (const House& house : in.added) {
        houses_.push_back({house, 0});
        note(fmt::format("house bot {} added", name_of(house.bot)));
    }
    turn_away_unplayable();
    note("the bots read again (SIGHUP)");
    effects_.push_back(effect::Soon{});
}

void ArenaCore::handle(const input::Signalled& in) {
    now_ms_ = in.now_ms;
    if (signal_) {  // again: the matches playing are voided now
        effects_.push_back(effect::Abort{in.signal});
        return;
    }
    signal_ = in.signal;
    stop_at_ms_ = now_ms_ + settings_.stop_grace_ms;
    // No one more is let in; a check under way is cut short (its bot is checked again as it
    // next connects), and the queue told there are no more games.
    effects_.push_back(effect::CloseDoors{});
    for (const auto& [connection, checking] : checking_)
        doing(checking.bot, &Doing::checking, -1);
    checking_.clear();
    while (!queue_.empty())
        dequeue(queue_.begin()->second.connection);
    if (!playing_.empty())
        note(fmt::format("{}: {} match{} playing may finish within {} s (again: void them now)",
                         in.name, playing_.size(), playing_.size() == 1 ? "" : "es",
                         static_cast<double>(settings_.stop_grace_ms) / 1000.0));
    if (!playing_.empty() && settings_.stop_grace_ms == 0) {
        aborted_ = true;
        effects_.push_back(effect::Abort{in.signal});
    }
    finish_if_done();
}

void ArenaCore::finish_if_done() {
    if (!signal_ || !playing_.empty() || finished_)
        return;
    finished_ = true;
    effects_.push_back(effect::Finish{});
}

// ---- statuses ----

void ArenaCore::doing(int bot, int Doing::*what, int by) {
    Doing& d = doings_[bot];
    const std::string before = status_of(d);
    d.*what += by;
    if (status_of(d) != before)
        statuses_changed_ = true;
    if (d.queued <= 0 && d.checking <= 0 && d.playing <= 0)
        doings_.erase(bot);
}

// Playing over checking over queued, as one account may be all three at once.
std::string ArenaCore::status_of(const Doing& d) const {
    return d.playing > 0 ? "playing" : d.checking > 0 ? "checking" : d.queued > 0 ? "queued" : "";
}

std::map<int, std::string> ArenaCore::statuses() const {
    std::map<int, std::string> all;
    for (const auto& [bot, d] : doings_)
        if (const std::string status = status_of(d); !status.empty())
            all[bot] = status;
    return all;
}

}  // namespace bg::arena
