#include "remote/desk.hpp"

#include <algorithm>

#include "remote/remote_seat.hpp"
#include "remote/token.hpp"

namespace bg::remote {

void Desk::remove(RemoteSeat* seat) {
    seats_.erase(std::remove(seats_.begin(), seats_.end(), seat), seats_.end());
}

std::variant<RemoteSeat*, Desk::Refusal> Desk::admit(std::string_view path, std::string_view origin,
                                                     std::string_view host) const {
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
    bool expected = false;
    for (const std::string& token : expected_)
        expected |= same_token(offered, token);
    // A tournament's bot between its games (its last game's seat closing, the next not made yet)
    // is told to try again.
    if (expected && (!found || found->door() == RemoteSeat::Door::closed))
        return Refusal{503, "no game waits for this seat's player now"};
    if (!found)
        return Refusal{403, "a wrong token"};
    switch (found->door()) {
        case RemoteSeat::Door::open:
            return found;
        case RemoteSeat::Door::taken:
            return Refusal{409, "the seat is taken"};
        case RemoteSeat::Door::not_yet:
            return Refusal{503, "the seat's game has not begun"};
        case RemoteSeat::Door::closed:
            break;
    }
    return Refusal{410, "the seat's game is over for it"};
}

}  // namespace bg::remote
