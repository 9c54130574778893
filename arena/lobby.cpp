#include "arena/lobby.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "remote/remote_seat.hpp"

namespace bg::arena {

namespace {

// The arena's line for a connection that came (its account's `connections`th open now).
std::string arrival_line(const Bot& bot, const Door::Said& said, int connections) {
    if (bot.person)
        return fmt::format("person {} came from {}, to play {}", bot.name, said.peer,
                           said.opponent.empty() ? "whoever is waiting" : said.opponent);
    return fmt::format(
        "bot {} connected from {}{} ({} connection{})", bot.name, said.peer,
        said.version.empty() ? "" : " as version " + escape_for_terminal(said.version), connections,
        connections == 1 ? "" : "s");
}

}  // namespace

std::variant<remote::RemoteSeat*, remote::Gate::Wait, remote::Gate::Refusal> Lobby::admit(
    const Knock& knock) const {
    const LoopLag::Scope scope(lag, "a connection let in (the lobby's part of its handshake)");
    if (closing_)
        return restarting_refusal();
    if (auto refused = door_.admit(knock))
        return *refused;
    if (auto nothing = seated_.nothing_held(knock))
        return *nothing;
    // Its account's connection that dropped within a match: this one takes it up, back into the
    // game under way, or to wait for the match's next.
    if (remote::RemoteSeat* seat = seated_.seat_for(knock))
        return seat;
    return Wait{};
}

void Lobby::wait(std::string token, Sitter& sitter) {
    Open* open = opens_.of(&sitter);
    if (!open)
        open = seated_.between_games(token, sitter);
    if (open && !open->seat_token.empty() && open->bearer_hash == token_hash(token) &&
        --open->games_left > 0) {
        // Between two games of its match (one has just ended for it): the next seat made for
        // it comes from the desk.
        desk_.wait(open->seat_token, sitter);
        return;
    }
    if (closing_)
        return told(sitter);
    if (const auto checked = checked_.find(&sitter); checked != checked_.end()) {
        const auto [passed, why] = checked->second;
        checked_.erase(checked);
        if (!passed)
            return told(sitter, why);
    }
    if (!open) {
        if (Open* arrived = arrive(token, sitter))
            waits(*arrived);
        return;
    }
    if (open->waiting)
        return;
    // Back from its match or check: its account and entry as they are now; a person's match
    // is over (the page says how it went, and plays again by coming again).
    const auto bot = store_.bot_by_token(token);
    if (!bot || door_.day_limit(*bot) || bot->person)
        return told(sitter);
    open->arrival.bot = *bot;
    open->arrival.entry = store_.entry(*bot, open->arrival.entry.label);
    waits(*open);
}

Lobby::Open* Lobby::arrive(const std::string& token, Sitter& sitter) {
    const auto bot = store_.bot_by_token(token);
    if (!bot || door_.day_limit(*bot)) {
        // Disabled or removed since it knocked, or its day's matches played.
        sitter.no_more_games();
        return nullptr;
    }
    const std::string hash = token_hash(token);
    const Door::Said said = door_.said(hash);
    const int before = opens_.connections(bot->id);
    Open& open = opens_.add(&sitter, {0, *bot, store_.entry(*bot, said.version), said.opponent});
    open.peer = said.peer;
    open.bearer_hash = hash;
    door_.arrived(bot->id);
    if (on_note)
        on_note(arrival_line(*bot, said, before + 1));
    return &open;
}

void Lobby::drain(Sitter& sitter) {
    // Marked and said; one waiting to play leaves now, another once its match (or check) is
    // over (waits()).
    if (Open* open = seated_.drain(sitter); open && open->waiting) {
        told(sitter);
        gone(*open);
    }
}

void Lobby::waits(Open& open) {
    if (open.draining)  // let go once told how its match went (tell_over), or a check's now
        return seated_.leaving(open);
    open.waiting = true;
    opens_.seat(open, "", 0);
    opens_.count(open, true);
    if (on_arrive)
        on_arrive(open.arrival);
}

// Told there are no more games for it (or, the arena closing, to come back once it has
// restarted), or sent away with `why`.
void Lobby::told(Sitter& sitter, const std::string& why) {
    if (Open* open = opens_.of(&sitter)) {
        open->waiting = false;
        opens_.count(*open, false);
    }
    if (!why.empty())
        sitter.sent_away(why);
    else if (closing_)
        sitter.restarting(come_back_s);
    else
        sitter.no_more_games();
}

void Lobby::stop_waiting(Sitter& sitter) {
    desk_.stop_waiting(sitter);
    checked_.erase(&sitter);
}

void Lobby::forget(Sitter& sitter, bool dropped) {
    stop_waiting(sitter);
    Open* open = opens_.of(&sitter);
    if (!open)
        return;
    if (!dropped || closing_ || !seated_.hold(*open))
        gone(*open);
}

void Lobby::gone(Open& open) {
    if (!open.seat_token.empty()) {
        // Gone within its match (or check): its later seats there are left at once, not
        // waited for (it comes back to the queue, never to them).
        desk_.abandon(open.seat_token);
    } else if (open.waiting && on_note) {
        on_note(fmt::format("{} left (a connection closed)", who(open.arrival)));
    }
    const Connection connection = open.connection;
    opens_.remove(open);
    if (on_leave)
        on_leave(connection);
}

void Lobby::expire() {
    gone(seated_.expired());
}

void Lobby::gone(const std::vector<Connection>& connections) {
    for (const Connection connection : connections)
        if (Open* open = opens_.named(connection))
            gone(*open);
}

bool Lobby::take(Connection connection, const std::string& seat_token, int games,
                 std::shared_ptr<const MatchContext> match) {
    Open* open = opens_.named(connection);
    if (!open || !open->sitter)
        return false;
    open->waiting = false;
    open->told_over = false;
    if (match)
        seated_.expect_over(match->match, connection, open->arrival.entry.id);
    open->match = std::move(match);
    opens_.seat(*open, seat_token, games);
    desk_.expect(seat_token, games);
    desk_.wait(seat_token, *open->sitter);
    return true;
}

void Lobby::check_over(const std::string& seat_token, bool passed, const std::string& why) {
    desk_.forget_token(seat_token);
    Open* open = opens_.seated_under(seat_token);
    if (!open)
        return;  // its connection is gone
    Sitter& sitter = *open->sitter;
    opens_.seat(*open, "", 0);
    if (!desk_.waiting(sitter)) {
        // Its last scenario's end is on its way: told once it is answered (wait()).
        checked_[&sitter] = {passed, why};
        return;
    }
    desk_.stop_waiting(sitter);
    if (closing_ || !passed)
        return told(sitter, closing_ ? "" : why);
    const auto bot = store_.bot(open->arrival.bot.name);
    if (!bot || bot->state != "active")
        return told(sitter);
    open->arrival.bot = *bot;
    open->arrival.entry = store_.entry(*bot, open->arrival.entry.label);
    waits(*open);
}

void Lobby::match_over(const std::vector<std::string>& seat_tokens) {
    std::vector<Connection> back, held_over;
    for (const std::string& token : seat_tokens) {
        desk_.forget_token(token);
        Open* open = opens_.seated_under(token);
        if (!open)
            continue;
        // Its next wait brings it back to play. Cut short, it waits at the desk for a seat that
        // will not come: it waits to play again now. (One in a seat, or whose game has just
        // ended, comes back by itself: wait().) One held is gone, not back before its end.
        opens_.seat(*open, "", 0);
        if (!open->sitter) {
            held_over.push_back(open->connection);
        } else if (desk_.waiting(*open->sitter)) {
            desk_.stop_waiting(*open->sitter);
            back.push_back(open->connection);
        }
    }
    for (const Connection connection : back)
        if (Open* open = opens_.named(connection))
            closing_ ? told(*open->sitter) : waits(*open);
    gone(held_over);
}

void Lobby::turn_away(const std::vector<Connection>& connections) {
    for (const Connection connection : connections)
        if (Open* open = opens_.named(connection); open && open->sitter)
            told(*open->sitter);
}

void Lobby::close() {
    closing_ = true;
    turn_away(opens_.names(true));
}

void Lobby::finish() {
    closing_ = true;
    checked_.clear();
    for (const Connection connection : opens_.names(false))
        if (Open* open = opens_.named(connection)) {
            desk_.stop_waiting(*open->sitter);
            told(*open->sitter);
        }
    gone(opens_.held_names());
}

}  // namespace bg::arena
