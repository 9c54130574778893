// The part of a player's message after its command byte that the legacy and v2 protocols
// share: a dump's letter, or a peel's grid (which needs no terminator: its size says how long
// it is).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.hpp"
#include "core/grid_framer.hpp"

namespace bg {

class MessageBody {
  public:
    // After the command byte of a dump ('d', 'D') or a peel ('p', 'P'; with a v2 peel's number).
    void begin(char command, std::optional<int> reflects = std::nullopt);
    // Whether a message is under way.
    bool active() const { return command_ != 0; }
    // Consumes what it needs from the front of `bytes`, which starts at byte `offset` of the
    // stream, and appends the Dump or Peel when the message is complete. False, with `reason`,
    // at a byte the grammar does not allow.
    bool feed(std::string_view& bytes, std::size_t offset, PlayerId player, std::vector<Input>& out,
              std::string& reason);
    // Bytes held of a grid under way.
    std::size_t buffered() const { return grid_.buffered(); }

  private:
    char command_ = 0;
    std::optional<int> reflects_;
    GridFramer grid_;
};

}  // namespace bg
