// The original spec's protocol ("legacy"), in its two dialects. Player to host is the same in
// both and needs no terminator: "r", "d" + letter, "p" + grid, where the grid's size fixes its
// length. Host to player differs: v1 (the README.md revision) ends every message with '.', v0
// (the README.org original) sends bare letters.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.hpp"
#include "core/message_body.hpp"

namespace bg {

enum class LegacyDialect { v0, v1 };
std::string_view to_string(LegacyDialect dialect);
std::optional<LegacyDialect> legacy_dialect_from_string(std::string_view text);

// Cuts a player's byte stream into inputs for the core. The first byte the grammar does not
// allow becomes one Violation; everything after it is ignored.
class LegacyReader {
  public:
    explicit LegacyReader(PlayerId player) : player_(player) {}

    void feed(std::string_view bytes, std::vector<Input>& out);
    bool failed() const { return failed_; }
    // Bytes held for a message not yet complete (at most one grid).
    std::size_t buffered() const { return body_.buffered(); }
    // The stream ended: a message cut off in the middle is a violation.
    void finish(std::vector<Input>& out);

  private:
    void fail(std::string reason, std::vector<Input>& out);

    PlayerId player_;
    bool failed_ = false;
    MessageBody body_;
    std::size_t offset_ = 0;  // bytes of the stream consumed so far
};

// Host to player: a hand, a peel's tile, a dump's three tiles (letters in alphabetical order).
std::string legacy_message(LegacyDialect dialect, std::string_view letters);

}  // namespace bg
