// The grid format of the spec: "xxxyyy" (three-digit width, three-digit height) followed by
// yyy rows of exactly xxx cells, each a tile A-Z or '.' for an empty cell.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>

#include "core/text.hpp"

namespace bg {

inline constexpr int grid_max_side = 999;
inline constexpr std::size_t grid_header_size = 6;
// The longest grid text: a 999x999 grid.
inline constexpr std::size_t grid_max_text_size =
    grid_header_size + std::size_t{grid_max_side} * grid_max_side;

struct Grid {
    int width = 0;
    int height = 0;
    std::string cells;  // `height` rows of `width` bytes, top row first

    char at(int x, int y) const { return cells[static_cast<std::size_t>(y) * width + x]; }
    friend bool operator==(const Grid&, const Grid&) = default;
};

struct GridError {
    enum class Kind { short_header, bad_size_digit, too_few_cells, too_many_cells, bad_cell };
    Kind kind;
    std::size_t offset;   // byte of the grid text where the problem is
    std::string message;  // for people: says what was expected and what came
};

struct GridSize {
    int width = 0;
    int height = 0;
    std::size_t cells() const { return static_cast<std::size_t>(width) * height; }
};

// The size in the first six bytes of a grid text (which may go on past them).
std::variant<GridSize, GridError> parse_grid_size(std::string_view text,
                                                  ByteNames names = ByteNames::words);
// A bad cell's byte is named as `names` says (core/text.hpp).
std::variant<Grid, GridError> parse_grid(std::string_view text, ByteNames names = ByteNames::words);

// Calls visit(i) for the index i of every byte of `cells` that is not '.', in order, while it
// returns true. Grids are mostly empty, so whole 8-byte words of '.' are skipped at once.
template <typename Visit>
void for_each_non_dot(std::string_view cells, Visit&& visit) {
    constexpr std::uint64_t all_dots = 0x2e2e2e2e2e2e2e2eULL;
    const std::size_t n = cells.size();
    std::size_t i = 0;
    while (i < n) {
        if (i + 8 <= n) {
            std::uint64_t chunk;
            std::memcpy(&chunk, cells.data() + i, 8);
            if (chunk == all_dots) {
                i += 8;
                continue;
            }
        }
        for (const std::size_t end = std::min(n, i + 8); i < end; ++i)
            if (cells[i] != '.' && !visit(i))
                return;
    }
}
std::string serialise(const Grid& grid);

}  // namespace bg
