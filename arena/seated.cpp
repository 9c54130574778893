#include "arena/seated.hpp"

#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arena/door.hpp"

namespace bg::arena {

int Seated::games_after(const remote::RemoteSeat* playing, bool closing) const {
    if (playing)
        if (const Open* open = opens_.seated_under(playing->token()); open && open->match)
            return desk_.games_after(playing->token(), playing);
    // A standing arena has games after every match, until it closes.
    return closing ? 0 : 1;
}

Seated::Open* Seated::drain(Sitter& sitter) {
    Open* open = opens_.of(&sitter);
    if (!open || std::exchange(open->draining, true))
        return nullptr;
    if (note_)
        note_(fmt::format("{} asked to leave after its match", who(open->arrival)));
    return open;
}

void Seated::context(const remote::RemoteSeat& playing, nlohmann::json& start) const {
    if (const Open* open = opens_.seated_under(playing.token()); open && open->match)
        start["match"] = match_start_json(
            *open->match, open->match->rotations - desk_.games_after(playing.token(), &playing),
            open->arrival.bot.name);
}

void Seated::expect_over(int match, Connection connection, int entry) {
    to_tell_[match].push_back({connection, entry});
}

void Seated::tell_over(int match, const OverTold& message) {
    const auto found = to_tell_.find(match);
    if (found == to_tell_.end())
        return;
    for (const auto& [connection, entry] : found->second)
        if (Open* open = opens_.named(connection); open && open->sitter) {
            const auto told = message(connection, entry);
            if (!told)
                continue;
            open->sitter->tell(told->dump());
            open->told_over = true;
            if (open->draining && open->seat_token.empty())
                open->sitter->no_more_games();
        }
    to_tell_.erase(found);
}

void Seated::leaving(Open& open) {
    opens_.seat(open, "", 0);
    if (!open.match || open.told_over)
        open.sitter->no_more_games();
}

bool Seated::hold(Open& open) {
    // Not at a check (whose seats have no match): its bot is checked again as it next connects.
    if (grace_ms_ == 0 || open.seat_token.empty() || open.games_left <= 0 || !open.match)
        return false;
    opens_.hold(open, now_ms_() + grace_ms_);
    opens_.count(open, false);
    if (note_)
        note_(fmt::format("{}'s connection dropped within its match: held for {} s",
                          who(open.arrival), static_cast<double>(grace_ms_) / 1000.0));
    return true;
}

namespace {

// The connection held for the account whose secret `knock` offers (a person's code, a bot's
// token), or none.
const Opens::Open* held_for(const Opens& opens, const remote::Gate::Knock& knock) {
    const std::string_view key = knock.path == person_path ? knock.code : knock.bearer;
    return key.empty() ? nullptr : opens.held(token_hash(std::string(key)));
}

}  // namespace

std::optional<remote::Gate::Refusal> Seated::nothing_held(const remote::Gate::Knock& knock) const {
    if (!knock.resume || held_for(opens_, knock))
        return std::nullopt;
    return remote::Gate::Refusal{410,
                                 "nothing of yours is held to come back to: your match is over, "
                                 "or you were away past its grace",
                                 0, "nothing-held"};
}

remote::RemoteSeat* Seated::seat_for(const remote::Gate::Knock& knock) const {
    const Open* held = held_for(opens_, knock);
    if (!held)
        return nullptr;
    // Asked of the desk as a session at the seat's own path: the seat of the game under way
    // where it is open to the connection (one in its grace, or its next game's, open now).
    remote::Gate::Knock seat = knock;
    const std::string path = std::string(remote::seat_path) + held->seat_token;
    seat.path = path;
    seat.origin = "";
    seat.session = true;
    const auto admitted = desk_.admit(seat);
    auto* const* taken = std::get_if<remote::RemoteSeat*>(&admitted);
    return taken ? *taken : nullptr;
}

Seated::Open* Seated::come_back(const std::string& token, Sitter& sitter, int games_left) {
    Open* held = opens_.held(token_hash(token));
    if (!held)
        return nullptr;
    opens_.take_up(*held, sitter);
    opens_.count(*held, true);
    held->games_left = games_left;
    if (note_)
        note_(fmt::format("{} came back into its match", who(held->arrival)));
    return held;
}

void Seated::joined(std::string_view token, Sitter& sitter, const remote::RemoteSeat& seat) {
    // Into a game of its match: this one and those after it are left for it.
    if (const Open* held = opens_.held(token_hash(std::string(token)));
        held && !opens_.of(&sitter) && held->seat_token == seat.token())
        come_back(std::string(token), sitter, desk_.games_after(seat.token(), &seat) + 1);
}

Seated::Open* Seated::between_games(const std::string& token, Sitter& sitter) {
    // Those the desk has still to play are left (counted as one more, which the lobby takes as
    // a game's end: wait()).
    const Open* held = opens_.held(token_hash(token));
    return held ? come_back(token, sitter, desk_.games_after(held->seat_token, nullptr) + 1)
                : nullptr;
}

std::vector<Connection> Seated::expired() {
    const std::uint64_t now = now_ms_();
    std::vector<Connection> gone;
    for (const Connection connection : opens_.held_names())
        if (const Open* open = opens_.named(connection);
            open && now >= open->held_until && !desk_.in_play(open->seat_token)) {
            gone.push_back(connection);
            if (note_)
                note_(fmt::format("{} did not come back within {} s: out of its match",
                                  who(open->arrival), static_cast<double>(grace_ms_) / 1000.0));
        }
    return gone;
}

}  // namespace bg::arena
