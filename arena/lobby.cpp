#include "arena/lobby.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::arena {

std::variant<remote::RemoteSeat*, remote::Gate::Wait, remote::Gate::Refusal> Lobby::admit(
    const Knock& knock) const {
    const LoopLag::Scope scope(lag, "a connection let in (the lobby's part of its handshake)");
    if (closing_)
        return Refusal{410, "the arena is closing", 0, "closing"};
    if (auto refused = door_.admit(knock))
        return *refused;
    return Wait{};
}

int Lobby::games_after(std::string_view, const remote::RemoteSeat*) const {
    // A standing arena has games after every one, until it closes.
    return closing_ ? 0 : 1;
}

void Lobby::wait(std::string token, Sitter& sitter) {
    Open* open = opens_.of(&sitter);
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
    if (!on_note)
        return &open;
    if (bot->person)
        on_note(fmt::format("person {} came from {}, to play {}", bot->name, said.peer,
                            said.opponent.empty() ? "whoever is waiting" : said.opponent));
    else
        on_note(fmt::format(
            "bot {} connected from {}{} ({} connection{})", bot->name, said.peer,
            said.version.empty() ? "" : " as version " + escape_for_terminal(said.version),
            before + 1, before == 0 ? "" : "s"));
    return &open;
}

void Lobby::waits(Open& open) {
    open.waiting = true;
    opens_.seat(open, "", 0);
    opens_.count(open, true);
    if (on_arrive)
        on_arrive(open.arrival);
}

// Told there are no more games for it, or sent away with `why`.
void Lobby::told(Sitter& sitter, const std::string& why) {
    if (Open* open = opens_.of(&sitter)) {
        open->waiting = false;
        opens_.count(*open, false);
    }
    if (why.empty())
        sitter.no_more_games();
    else
        sitter.sent_away(why);
}

void Lobby::stop_waiting(Sitter& sitter) {
    desk_.stop_waiting(sitter);
    checked_.erase(&sitter);
    Open* open = opens_.of(&sitter);
    if (!open)
        return;
    if (!open->seat_token.empty()) {
        // Gone within its match (or check): its later seats there are left at once, not
        // waited for (it comes back to the queue, never to them).
        desk_.abandon(open->seat_token);
    } else if (open->waiting && on_note) {
        on_note(fmt::format("{} {} left (a connection closed)",
                            open->arrival.bot.person ? "person" : "bot", open->arrival.bot.name));
    }
    const Connection connection = open->connection;
    opens_.remove(*open);
    if (on_leave)
        on_leave(connection);
}

bool Lobby::take(Connection connection, const std::string& seat_token, int games) {
    Open* open = opens_.named(connection);
    if (!open)
        return false;
    open->waiting = false;
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

void Lobby::forget(Sitter& sitter) {
    stop_waiting(sitter);
}

void Lobby::match_over(const std::vector<std::string>& seat_tokens) {
    std::vector<Connection> back;
    for (const std::string& token : seat_tokens) {
        desk_.forget_token(token);
        Open* open = opens_.seated_under(token);
        if (!open)
            continue;
        // Its next wait brings it back to play. Cut short, it waits at the desk for a seat that
        // will not come: it waits to play again now. (One in a seat, or whose game has just
        // ended, comes back by itself: wait().)
        opens_.seat(*open, "", 0);
        if (desk_.waiting(*open->sitter)) {
            desk_.stop_waiting(*open->sitter);
            back.push_back(open->connection);
        }
    }
    for (const Connection connection : back)
        if (Open* open = opens_.named(connection))
            closing_ ? told(*open->sitter) : waits(*open);
}

void Lobby::turn_away(const std::vector<Connection>& connections) {
    for (const Connection connection : connections)
        if (Open* open = opens_.named(connection))
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
}

// ---- the connections ----

Opens::Open& Opens::add(Sitter* sitter, Arrival arrival) {
    Open& open = by_sitter_[sitter];
    open.connection = next_++;
    open.sitter = sitter;
    open.arrival = std::move(arrival);
    open.arrival.connection = open.connection;
    by_name_[open.connection] = sitter;
    return open;
}

void Opens::remove(Open& open) {
    count(open, false);
    seat(open, "", 0);
    by_name_.erase(open.connection);
    by_sitter_.erase(open.sitter);
}

Opens::Open* Opens::of(const Sitter* sitter) {
    const auto found = by_sitter_.find(sitter);
    return found == by_sitter_.end() ? nullptr : &found->second;
}

Opens::Open* Opens::named(Connection connection) {
    const auto found = by_name_.find(connection);
    return found == by_name_.end() ? nullptr : of(found->second);
}

Opens::Open* Opens::seated_under(const std::string& token) {
    const auto found = by_token_.find(token);
    return found == by_token_.end() ? nullptr : named(found->second);
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
    for (const auto& [sitter, open] : by_sitter_)
        if (!waiting_only || open.waiting)
            all.push_back(open.connection);
    return all;
}

}  // namespace bg::arena
