// Reads one player's output in whichever protocol it speaks, told by its first byte: "r" is
// a legacy player's ready, "v" a v2 handshake. No flag is needed, and a legacy player can
// never be taken for a v2 one: its first message is always r.
#pragma once

#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "compat/legacy.hpp"
#include "protocol/v2_reader.hpp"

namespace bg {

class PlayerReader {
  public:
    explicit PlayerReader(PlayerId player) : player_(player) {}
    // A v2 reader past its handshake, for a player whose process said it in an earlier game
    // (v004) and whose reader of that game is not at hand (a log's replay never needs one).
    static PlayerReader after_handshake(PlayerId player) {
        PlayerReader reader(player);
        reader.reader_ = V2Reader::after_handshake(player);
        return reader;
    }

    // Its inputs are now the player's in `seat`: a v004 process's reader goes on from game to
    // game, and its seat changes (only a v2 reader stays: a legacy player never does).
    void seat_as(PlayerId seat) {
        player_ = seat;
        if (auto* v2 = std::get_if<V2Reader>(&reader_))
            v2->seat_as(seat);
    }

    void feed(std::string_view bytes, std::vector<Input>& out);
    void finish(std::vector<Input>& out);
    bool failed() const;

  private:
    PlayerId player_;
    std::variant<std::monostate, LegacyReader, V2Reader> reader_;
    bool failed_ = false;
};

}  // namespace bg
