#include "remote/desk.hpp"

#include <algorithm>

#include "remote/remote_seat.hpp"
#include "remote/token.hpp"

namespace bg::remote {

Desk::Known* Desk::known(std::string_view token) {
    for (Known& entry : known_)
        if (entry.token == token)
            return &entry;
    known_.push_back({std::string(token), 0});
    return &known_.back();
}

void Desk::add(RemoteSeat* seat) {
    seats_.push_back(seat);
    continues(*seat);  // a game of its token begins in it
}

// A game of the seat's token begins: one fewer to come.
void Desk::continues(const RemoteSeat& seat) {
    Known* entry = known(seat.token());
    entry->to_come = std::max(0, entry->to_come - 1);
}

void Desk::remove(RemoteSeat* seat) {
    seats_.erase(std::remove(seats_.begin(), seats_.end(), seat), seats_.end());
    no_more_for_waiting();
}

void Desk::expect(std::string token, int games) {
    known(token)->to_come = std::max(0, games);
}

void Desk::expect_no_more() {
    for (Known& entry : known_)
        entry.to_come = 0;
    no_more_for_waiting();
}

void Desk::abandon(std::string_view token) {
    known(token)->abandoned = true;
    for (RemoteSeat* seat : seats_)
        if (same_token(token, seat->token()))
            seat->abandon();
}

bool Desk::abandoned(std::string_view token) const {
    return std::any_of(known_.begin(), known_.end(), [&](const Known& entry) {
        return entry.abandoned && same_token(token, entry.token);
    });
}

void Desk::forget_token(std::string_view token) {
    std::erase_if(known_, [&](const Known& entry) { return entry.token == token; });
}

int Desk::games_after(std::string_view token, const RemoteSeat* playing) const {
    int games = 0;
    for (const Known& entry : known_)
        if (same_token(token, entry.token))
            games += entry.to_come;
    for (const RemoteSeat* other : seats_)
        if (other != playing && same_token(token, other->token()) &&
            other->door() != RemoteSeat::Door::closed)
            ++games;
    return games;
}

void Desk::wait(std::string token, Sitter& sitter) {
    for (RemoteSeat* seat : seats_)
        if (seat->door() == RemoteSeat::Door::open && same_token(token, seat->token()))
            return sitter.sit(*seat);
    if (games_after(token, nullptr) == 0)
        return sitter.no_more_games();
    waiting_.push_back({std::move(token), &sitter});
}

bool Desk::waiting(const Sitter& sitter) const {
    return std::any_of(waiting_.begin(), waiting_.end(),
                       [&](const Waiting& w) { return w.sitter == &sitter; });
}

void Desk::stop_waiting(Sitter& sitter) {
    std::erase_if(waiting_, [&](const Waiting& entry) { return entry.sitter == &sitter; });
}

void Desk::opened(RemoteSeat& seat) {
    const auto found = std::find_if(waiting_.begin(), waiting_.end(), [&](const Waiting& entry) {
        return same_token(entry.token, seat.token());
    });
    if (found == waiting_.end())
        return;
    Sitter* sitter = found->sitter;
    waiting_.erase(found);
    sitter->sit(seat);
}

void Desk::no_more_for_waiting() {
    std::vector<Sitter*> told;
    std::erase_if(waiting_, [&](const Waiting& entry) {
        if (games_after(entry.token, nullptr) > 0)
            return false;
        told.push_back(entry.sitter);
        return true;
    });
    for (Sitter* sitter : told)
        sitter->no_more_games();
}

std::variant<RemoteSeat*, Gate::Wait, Desk::Refusal> Desk::admit(const Knock& knock) const {
    const std::string_view path = knock.path;
    const std::string_view origin = knock.origin;
    const std::string_view host = knock.host;
    if (!path.starts_with(seat_path))
        return Refusal{404, "no seat is taken there"};
    // A browser names the page that opened the connection: only the server's own pages (served
    // as they are, or through a TLS proxy that keeps the Host) may take a seat, so that no other
    // site a person visits can take one with a token it learnt.
    if (!origin.empty() && origin != "http://" + std::string(host) &&
        origin != "https://" + std::string(host))
        return Refusal{403, "a page of another origin"};
    const std::string_view offered = path.substr(seat_path.size());
    if (offered.empty())
        return Refusal{401, "no token"};
    // Every seat's token is compared, whatever matched before. A bot in two games at once (a
    // tournament's) has a seat in each with its token: a connection takes one that is open, or
    // is told of the one nearest to opening (one not begun, then one taken).
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
    RemoteSeat* found = nullptr;
    for (RemoteSeat* seat : seats_)
        if (same_token(offered, seat->token()) &&
            (!found || rank(seat->door()) > rank(found->door())))
            found = seat;
    bool is_known = false;
    int to_come = 0;
    for (const Known& entry : known_)
        if (same_token(offered, entry.token)) {
            is_known = true;
            to_come += entry.to_come;
        }
    if (found && found->door() == RemoteSeat::Door::open)
        return found;
    if (found && found->door() == RemoteSeat::Door::taken)
        return Refusal{409, "the seat is taken"};
    // A session waits here for its player's next seat.
    if (knock.session && ((found && found->door() == RemoteSeat::Door::not_yet) || to_come > 0))
        return Wait{};
    if (found && found->door() == RemoteSeat::Door::not_yet)
        return Refusal{503, "the seat's game has not begun"};
    // A tournament's bot between its games (its last game's seat closing, the next not made yet)
    // is told to try again; after its last, that its games are over.
    if (to_come > 0)
        return Refusal{503, "no game waits for this seat's player now: try again"};
    if (is_known)
        return Refusal{410, "this seat's games are over: no game waits for its player"};
    return Refusal{403, "a wrong token"};
}

}  // namespace bg::remote
