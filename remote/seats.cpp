#include "remote/seats.hpp"

#include "remote/token.hpp"

namespace bg::remote {

Seats::Seats(std::vector<std::string> commands, Desk* desk, RemoteSeat::Options options,
             const SeatSource& others)
    : commands_(std::move(commands)), desk_(desk), options_(options), others_(others) {}

std::unique_ptr<Seat> Seats::seat(const Request& request) const {
    const std::string& command = commands_.at(static_cast<std::size_t>(request.command));
    if (desk_ && is_remote(command))
        return std::make_unique<RemoteSeat>(request.loop, *desk_, std::string(token_of(command)),
                                            options_);
    return others_.seat(request);
}

bool Seats::one_game_at_a_time(int command) const {
    return is_remote(commands_.at(static_cast<std::size_t>(command))) ||
           others_.one_game_at_a_time(command);
}

}  // namespace bg::remote
