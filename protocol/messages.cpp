#include "protocol/messages.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bg::v2 {

std::string version(int version, PlayerId seat, int seats) {
    if (version == protocol_v2)
        return fmt::format("V{:03}.", version);
    return fmt::format("V{:03}{:02}{:02}.", version, seat + 1, seats);
}

std::string hand(int peel, std::string_view letters) {
    return fmt::format("H{:04}{}.", peel, letters);
}

std::string tile(int peel, char tile, int bunch) {
    return fmt::format("P{:04}{}{:04}.", peel, tile, bunch);
}

std::string ack(int peel) {
    return fmt::format("A{:04}.", peel);
}

std::string nak(int current, int reflects, std::string lacked) {
    std::sort(lacked.begin(), lacked.end());
    return fmt::format("N{:04}{:04}{}.", current, reflects, lacked);
}

std::string dumped(std::string_view tiles) {
    return fmt::format("D{}.", tiles);
}

std::string refused(char letter, int bunch) {
    return fmt::format("X{}{:04}.", letter, bunch);
}

std::string end(char outcome, int standing, std::optional<PlayerId> winner, std::string reason) {
    std::replace(reason.begin(), reason.end(), ' ', '_');
    return fmt::format("E{}{:02}{}{:04}{}.", outcome, standing,
                       winner ? fmt::format("{:02}", *winner + 1) : "--", reason.size(), reason);
}

std::string next_game(PlayerId seat, int seats) {
    return fmt::format("G{:02}{:02}.", seat + 1, seats);
}

std::string bye() {
    return "B.";
}

}  // namespace bg::v2
