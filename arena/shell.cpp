#include "arena/shell.hpp"

#include <sys/random.h>

#include "arena/admin.hpp"
#include "arena/api.hpp"
#include "core/text.hpp"
#include "remote/token.hpp"

namespace bg::arena {

LiveState live_of(const ArenaCore& core, const std::map<int, std::unique_ptr<MatchPlay>>& matches) {
    return live_state(core, [&matches](int id) {
        const auto found = matches.find(id);
        return found == matches.end() ? 0 : static_cast<int>(found->second->games().size());
    });
}

std::uint64_t seed_from_the_kernel() {
    std::uint64_t seed = 0;
    if (::getrandom(&seed, sizeof seed, 0) != static_cast<ssize_t>(sizeof seed))
        throw std::runtime_error("the kernel's random source cannot be read");
    return seed;
}

namespace {

void say(const effect::Note& note) {
    const log::Level level = note.level == effect::Note::error     ? log::Level::error
                             : note.level == effect::Note::warning ? log::Level::warning
                                                                   : log::Level::info;
    log::say(level, note.text);
}

// At the arena's end, how long its connections have to close once told there are no more games
// (a loaded machine's bots take a while to answer; a connection that never does is cut).
constexpr std::uint64_t close_grace_ms = 10'000;

// The connections that did not close when told there are no more games, cut.
void say_cut(const serve::Server& server) {
    if (const int cut = server.counts().cut; cut > 0)
        log::warning("{} connection{} not closed within {} s cut", cut, cut == 1 ? "" : "s",
                     close_grace_ms / 1000);
}

// An arrival's account and entry as the store has them now, as the core takes it: a write the
// core made since the lobby read them (a pause) is in them.
void refresh(Store& store, input::Arrived& arrived) {
    try {
        if (auto bot = store.bot(arrived.bot.name)) {
            arrived.bot = std::move(*bot);
            arrived.entry = store.entry(arrived.bot, arrived.entry.label);
        }
    } catch (const std::exception& e) {
        log::warning("bot {} could not be read again: {}", arrived.bot.name, e.what());
    }
}

// A write effect done: what the store made of it, or why it could not; a begun match's seed is
// drawn from the kernel here (a finals match's is its round's), and kept in `seeds` for its play.
Input write_to(Store& store, const Effect& effect, std::map<int, std::uint64_t>& seeds) {
    try {
        if (const auto* begin = std::get_if<effect::BeginMatch>(&effect)) {
            // A finals match's deal is its round's, the same for every pair of it.
            const std::uint64_t seed = begin->finals ? begin->finals->seed : seed_from_the_kernel();
            const Store::Begun begun =
                begin->finals ? store.begin_finals_match(*begin->finals) : store.begin_match(seed);
            seeds[begun.id] = seed;
            return input::Written{begun.id, begun.started};
        }
        if (const auto* rate = std::get_if<effect::RateMatch>(&effect))
            return input::Written{rate->match,
                                  store.rate_match(rate->match, rate->rated, rate->games)};
        if (const auto* v = std::get_if<effect::VoidMatch>(&effect))
            return input::Written{v->match, store.void_match(v->match, v->why)};
        if (const auto* pause = std::get_if<effect::Pause>(&effect))
            return input::Written{0, store.set_paused(pause->bot, pause->why)};
        const auto& check = std::get<effect::RecordCheck>(effect);
        return input::Written{0, store.record_check(check.entry, check.passed, check.why)};
    } catch (const std::exception& e) {
        return input::NotWritten{e.what()};
    }
}

}  // namespace

// Every account as the store has it, and the house bots added since started (their commands
// added to the venue, their entries made).
input::Reread reread(Store& store, Venue& venue, const std::vector<HouseSeats>& houses) {
    input::Reread reread;
    reread.accounts = store.bots(true);
    for (const Bot& bot : reread.accounts) {
        if (!bot.command || bot.state == "removed" ||
            std::any_of(houses.begin(), houses.end(),
                        [&](const auto& h) { return h.house.bot == bot.id; }))
            continue;
        auto added = venue.add_command(*bot.command);
        if (auto* error = std::get_if<std::string>(&added)) {
            log::error("house bot {} cannot be started: {}", bot.name, escape_for_terminal(*error));
            continue;
        }
        const Entry entry = store.entry(bot, *bot.command);  // on the leaderboard from now
        reread.added.push_back({bot.id, std::get<int>(added), entry.id});
        reread.entries.push_back(entry);
    }
    return reread;
}

// ---- the core's inputs and effects ----

// One input to the core, and what it decides done; an input that comes while effects are being
// done (a connection back in the lobby as a match is let go) waits its turn, and a write's
// outcome is always the next.
void ArenaShell::feed(Input input) {
    inbox_.push_back(std::move(input));
    if (feeding_)
        return;
    feeding_ = true;
    // Timed whole, with all it brings (its writes, their follow-ups), under its first input's
    // name: what held the loop, as the loop's lag names it.
    const LoopLag::Scope scope(lag_.get(), input_name(inbox_.front()));
    for (bool first = true; !inbox_.empty(); first = false) {
        Input next = std::move(inbox_.front());
        inbox_.pop_front();
        // An arrival that waited behind others may have been read before a write of theirs: read
        // again (the first was read just now).
        if (auto* arrived = std::get_if<input::Arrived>(&next); arrived && !first)
            refresh(store_, *arrived);
        for (Effect& effect : core_->take(next)) {
            if (is_write(effect))
                inbox_.push_front(write_to(store_, effect, seeds_));
            else if (!handed_->perform(effect))  // a front's connection's, done: its front's
                perform(effect);
        }
    }
    feeding_ = false;
}

void ArenaShell::perform(Effect& effect) {
    std::visit(
        [this](const auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, effect::Play>) {
                play(e);
            } else if constexpr (std::is_same_v<E, effect::Check>) {
                checks_->start(e);
            } else if constexpr (std::is_same_v<E, effect::CheckDone>) {
                checks_->done(e);
            } else if constexpr (std::is_same_v<E, effect::Release>) {
                release(e.match);
            } else if constexpr (std::is_same_v<E, effect::TurnAway>) {
                lobby_->turn_away(e.connections);
            } else if constexpr (std::is_same_v<E, effect::Abort>) {
                for (auto& [id, match] : matches_)
                    match->abort(e.signal);
                handed_->end(true);
            } else if constexpr (std::is_same_v<E, effect::CloseDoors>) {
                handed_->end(false);
                checks_->cancel();
                lobby_->close();
                for (auto& [id, match] : matches_)
                    match->stop_by(now() + settings_.core.stop_grace_ms);
            } else if constexpr (std::is_same_v<E, effect::Finish>) {
                finishing_ = true;
                finish_if_done();
            } else if constexpr (std::is_same_v<E, effect::Soon>) {
                tick_timer_->start(0);
            } else if constexpr (std::is_same_v<E, effect::Began>) {
                shows_->event("begin", began_json(e).dump());
            } else if constexpr (std::is_same_v<E, effect::Over>) {
                shows_->event("match", match_json(e.record, core_->roster()).dump());
                lobby_->tell_over(e.record.match.id, told_over(e.record));
                seasons_->soon();
            } else if constexpr (std::is_same_v<E, effect::Statuses>) {
                shows_->event("status", statuses_json(e).dump());
            } else if constexpr (std::is_same_v<E, effect::Note>) {
                say(e);
            }
        },
        effect);
}

// ---- matches ----

void ArenaShell::play(const effect::Play& play) {
    const std::uint64_t seed = seeds_.at(play.match);
    seeds_.erase(play.match);
    if (play.by_workers || !play.node.empty())
        return handed_->hand_out(play, game_of(settings_, play.seats), seed);
    MatchPlay::Plan plan{play.match,     seed,      {}, game_of(settings_, play.seats),
                         settings_.logs, lag_.get()};
    const auto context = std::make_shared<const MatchContext>(match_context(play));
    for (const MatchSeat& seat : play.seats)
        plan.entrants.push_back(seats_->entrant(seat, *lobby_, context));
    auto match = std::make_unique<MatchPlay>(loop_, *venue_, *seats_, std::move(plan),
                                             [this, id = play.match] {
                                                 over_.push_back(id);
                                                 reaper_->start(0);
                                             });
    MatchPlay& started = *match;
    matches_[play.match] = std::move(match);
    if (const std::string error = started.start(); !error.empty()) {
        log::error("match {} could not begin: {}", play.match, escape_for_terminal(error));
        over_.push_back(play.match);
        reaper_->start(0);
    }
}

// Matches over: each told to the core (which rates or voids it, and lets it go); and those let
// go swept once their players are gone.
void ArenaShell::matches_over() {
    for (const int id : std::exchange(over_, {})) {
        const auto found = matches_.find(id);
        if (found == matches_.end() || !found->second->over())
            continue;
        const MatchPlay& match = *found->second;
        feed(input::Played{id, match.complete(), match.why(), match.logs_failed(), match.games(),
                           now(), match.stalled_ms()});
        release(id);  // where the core did not (a match it does not know)
    }
    std::erase_if(leaving_, [](const auto& match) { return match->finished(); });
    if (!leaving_.empty())
        reaper_->start(100);
    finish_if_done();
}

// Its connections back to the lobby, its remote seats forgotten, its players let go.
void ArenaShell::release(int id) {
    const auto found = matches_.find(id);
    if (found == matches_.end())
        return;
    std::vector<std::string> tokens;
    for (const Entrant& e : found->second->plan().entrants)
        if (!e.seat_token.empty()) {
            tokens.push_back(e.seat_token);
            seats_->remove(e.command);
        }
    lobby_->match_over(tokens);
    found->second->dismiss();
    leaving_.push_back(std::move(found->second));
    matches_.erase(found);
    reaper_->start(0);
}

void ArenaShell::finish_if_done() {
    if (!finishing_ || !matches_.empty() || !leaving_.empty() || !handed_->empty() || server_done_)
        return;
    server_done_ = true;
    tick_timer_->stop();
    signals_.clear();
    handed_->finish();
    // Every connection is told there are no more games: each closes as its bot answers. One
    // that does not is cut.
    lobby_->finish();
    server_->finish(close_grace_ms, [this] { say_cut(*server_); });
}

}  // namespace bg::arena
