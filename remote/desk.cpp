#include "remote/desk.hpp"

#include <algorithm>

#include "remote/remote_seat.hpp"
#include "remote/token.hpp"

namespace bg::remote {

Desk::Known& Desk::known(const std::string& digest) {
    return known_[digest];
}

Desk::Known* Desk::find(const std::string& digest) {
    const auto found = known_.find(digest);
    return found == known_.end() ? nullptr : &found->second;
}

const Desk::Known* Desk::find(const std::string& digest) const {
    const auto found = known_.find(digest);
    return found == known_.end() ? nullptr : &found->second;
}

Desk::Known* Desk::of(const RemoteSeat& seat) {
    const auto digest = seat_digests_.find(&seat);
    return find(digest != seat_digests_.end() ? digest->second : token_digest(seat.token()));
}

void Desk::forget_if_empty(const std::string& digest) {
    const auto found = known_.find(digest);
    if (found != known_.end() && !found->second.expected && found->second.seats.empty() &&
        found->second.waiting.empty())
        known_.erase(found);
}

void Desk::add(RemoteSeat* seat) {
    const std::string digest = token_digest(seat->token());
    seat_digests_[seat] = digest;
    known(digest).seats.push_back(seat);
    continues(*seat);  // a game of its token begins in it
}

// A game of the seat's token begins: one fewer to come.
void Desk::continues(const RemoteSeat& seat) {
    const auto digest = seat_digests_.find(&seat);
    Known& entry =
        known(digest != seat_digests_.end() ? digest->second : token_digest(seat.token()));
    entry.expected = true;
    entry.to_come = std::max(0, entry.to_come - 1);
}

void Desk::remove(RemoteSeat* seat) {
    const auto digest = seat_digests_.find(seat);
    if (digest == seat_digests_.end())
        return;
    const std::string d = digest->second;
    seat_digests_.erase(digest);
    if (Known* entry = find(d)) {
        std::erase(entry->seats, seat);
        no_more_for_waiting(*entry);
    }
    forget_if_empty(d);
}

void Desk::expect(std::string token, int games) {
    Known& entry = known(token_digest(token));
    entry.expected = true;
    entry.to_come = std::max(0, games);
}

void Desk::expect_no_more() {
    for (auto& [digest, entry] : known_)
        entry.to_come = 0;
    for (auto& [digest, entry] : known_)
        no_more_for_waiting(entry);
}

void Desk::abandon(std::string_view token) {
    Known& entry = known(token_digest(token));
    entry.expected = true;
    entry.abandoned = true;
    for (RemoteSeat* seat : entry.seats)
        seat->abandon();
}

bool Desk::in_play(std::string_view token) const {
    const Known* entry = find(token_digest(token));
    return entry && std::any_of(entry->seats.begin(), entry->seats.end(),
                                [](const RemoteSeat* seat) { return seat->in_play(); });
}

bool Desk::abandoned(std::string_view token) const {
    const Known* entry = find(token_digest(token));
    return entry && entry->abandoned;
}

void Desk::forget_token(std::string_view token) {
    const std::string digest = token_digest(token);
    if (Known* entry = find(digest)) {
        entry->expected = false;
        entry->abandoned = false;
        entry->to_come = 0;
    }
    forget_if_empty(digest);
}

int Desk::games_after(const Known& entry, const RemoteSeat* playing) const {
    int games = entry.to_come;
    for (const RemoteSeat* other : entry.seats)
        if (other != playing && other->door() != RemoteSeat::Door::closed)
            ++games;
    return games;
}

int Desk::games_after(std::string_view token, const RemoteSeat* playing) const {
    const Known* entry = find(token_digest(token));
    return entry ? games_after(*entry, playing) : 0;
}

void Desk::wait(std::string token, Sitter& sitter) {
    const std::string digest = token_digest(token);
    Known* entry = find(digest);
    if (entry)
        for (RemoteSeat* seat : entry->seats)
            if (seat->door() == RemoteSeat::Door::open)
                return sitter.sit(*seat);
    if (!entry || games_after(*entry, nullptr) == 0)
        return sitter.no_more_games();
    stop_waiting(sitter);
    entry->waiting.push_back(&sitter);
    waiting_[&sitter] = digest;
}

bool Desk::waiting(const Sitter& sitter) const {
    return waiting_.count(&sitter) > 0;
}

void Desk::stop_waiting(Sitter& sitter) {
    const auto found = waiting_.find(&sitter);
    if (found == waiting_.end())
        return;
    const std::string digest = found->second;
    waiting_.erase(found);
    if (Known* entry = find(digest))
        std::erase(entry->waiting, &sitter);
    forget_if_empty(digest);
}

void Desk::opened(RemoteSeat& seat) {
    Known* entry = of(seat);
    if (!entry || entry->waiting.empty())
        return;
    Sitter* sitter = entry->waiting.front();
    entry->waiting.erase(entry->waiting.begin());
    waiting_.erase(sitter);
    sitter->sit(seat);
}

void Desk::no_more_for_waiting(Known& entry) {
    if (entry.waiting.empty() || games_after(entry, nullptr) > 0)
        return;
    for (Sitter* sitter : std::exchange(entry.waiting, {})) {
        waiting_.erase(sitter);
        sitter->no_more_games();
    }
}

std::variant<RemoteSeat*, Gate::Wait, Desk::Refusal> Desk::admit(const Knock& knock) const {
    const std::string_view path = knock.path;
    const std::string_view origin = knock.origin;
    const std::string_view host = knock.host;
    if (!path.starts_with(seat_path))
        return Refusal{404, "no seat is taken there", 0, "path"};
    // A browser names the page that opened the connection: only the server's own pages (served
    // as they are, or through a TLS proxy that keeps the Host) may take a seat, so that no other
    // site a person visits can take one with a token it learnt.
    if (!origin.empty() && origin != "http://" + std::string(host) &&
        origin != "https://" + std::string(host))
        return Refusal{403, "a page of another origin", 0, "origin"};
    const std::string_view offered = path.substr(seat_path.size());
    if (offered.empty())
        return Refusal{401, "no token", 0, "no-token"};
    // A bot in two games at once (a tournament's) has a seat in each with its token: a
    // connection takes one that is open, or is told of the one nearest to opening (one not
    // begun, then one taken).
    const auto rank = [](RemoteSeat::Door door) {
        switch (door) {
            case RemoteSeat::Door::open:
                return 3;
            case RemoteSeat::Door::not_yet:
                return 2;
            case RemoteSeat::Door::taken:
                return 1;
            case RemoteSeat::Door::closed:
                break;
        }
        return 0;
    };
    const Known* entry = token_problem(offered).empty() ? find(token_digest(offered)) : nullptr;
    RemoteSeat* found = nullptr;
    if (entry)
        for (RemoteSeat* seat : entry->seats)
            if (!found || rank(seat->door()) > rank(found->door()))
                found = seat;
    const bool is_known = entry && entry->expected;
    const int to_come = entry ? entry->to_come : 0;
    if (found && found->door() == RemoteSeat::Door::open)
        return found;
    if (found && found->door() == RemoteSeat::Door::taken)
        return Refusal{409, "the seat is taken", 0, "seat-taken"};
    // A session waits here for its player's next seat.
    if (knock.session && ((found && found->door() == RemoteSeat::Door::not_yet) || to_come > 0))
        return Wait{};
    if (found && found->door() == RemoteSeat::Door::not_yet)
        return Refusal{503, "the seat's game has not begun", 0, "not-begun"};
    // A tournament's bot between its games (its last game's seat closing, the next not made yet)
    // is told to try again; after its last, that its games are over.
    if (to_come > 0)
        return Refusal{503, "no game waits for this seat's player now: try again", 0,
                       "between-games"};
    if (is_known)
        return Refusal{410, "this seat's games are over: no game waits for its player", 0,
                       "games-over"};
    return Refusal{403, "a wrong token", 0, "wrong-token"};
}

}  // namespace bg::remote
