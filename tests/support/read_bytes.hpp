// Feeding bytes to a player's reader (legacy or v2) as the host does, in chunks of any size.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/events.hpp"

namespace bg::test {

// Everything `reader` makes of `bytes` fed `chunk` bytes at a time, then the end of input.
template <typename Reader>
std::vector<Input> read_all(Reader reader, std::string_view bytes, std::size_t chunk) {
    std::vector<Input> out;
    for (std::size_t i = 0; i < bytes.size(); i += chunk)
        reader.feed(bytes.substr(i, chunk), out);
    reader.finish(out);
    return out;
}

// The reason of the violation that `out` must end with, which must name `player`.
inline std::string violation_reason(const std::vector<Input>& out, PlayerId player) {
    REQUIRE_FALSE(out.empty());
    const auto* v = std::get_if<input::Violation>(&out.back());
    REQUIRE(v != nullptr);
    CHECK(v->player == player);
    return v->reason;
}

}  // namespace bg::test
