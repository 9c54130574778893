// Protocol v2, player to host (protocol-v2.md): after the handshake "v" + three digits,
// "R" (ready), "P" + four-digit peel number + grid, "D" + letter.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.hpp"
#include "core/message_body.hpp"

namespace bg {

inline constexpr int v2_number_width = 4;

class V2Reader {
  public:
    explicit V2Reader(PlayerId player) : player_(player) {}
    // A reader for a player whose process said its handshake in an earlier game (v004): it reads
    // messages from its first byte.
    static V2Reader after_handshake(PlayerId player) {
        V2Reader reader(player);
        reader.state_ = State::message_start;
        return reader;
    }

    // Its inputs are now the player's in `seat` (a v004 process's seat changes from game to
    // game).
    void seat_as(PlayerId seat) { player_ = seat; }

    // `bytes` starts with the handshake's "v" (unless after_handshake). The first byte the grammar
    // does not allow becomes one Violation; everything after it is ignored.
    void feed(std::string_view bytes, std::vector<Input>& out);
    void finish(std::vector<Input>& out);
    bool failed() const { return state_ == State::failed; }

  private:
    enum class State { handshake, version, message_start, number, body, failed };
    void fail(std::string reason, std::vector<Input>& out);

    PlayerId player_;
    State state_ = State::handshake;
    std::string digits_;
    MessageBody body_;
    std::size_t offset_ = 0;
};

}  // namespace bg
