#include "core/grid.hpp"

#include <fmt/format.h>

#include "core/letters.hpp"
#include "core/text.hpp"

namespace bg {

std::variant<GridSize, GridError> parse_grid_size(std::string_view text, ByteNames names) {
    using Kind = GridError::Kind;
    if (text.size() < grid_header_size)
        return GridError{Kind::short_header, text.size(),
                         fmt::format("grid needs a 6-digit size (width xxx, height yyy), got {}",
                                     quote_bytes(text))};
    int sides[2] = {0, 0};
    for (std::size_t i = 0; i < grid_header_size; ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            return GridError{
                Kind::bad_size_digit, i,
                fmt::format("grid {} digit {} is {}, not 0-9", i < 3 ? "width" : "height",
                            i % 3 + 1, quote_byte(c, names))};
        sides[i / 3] = sides[i / 3] * 10 + (c - '0');
    }
    return GridSize{sides[0], sides[1]};
}

std::variant<Grid, GridError> parse_grid(std::string_view text, ByteNames names) {
    using Kind = GridError::Kind;
    auto size = parse_grid_size(text, names);
    if (auto* error = std::get_if<GridError>(&size))
        return std::move(*error);
    Grid grid{std::get<GridSize>(size).width, std::get<GridSize>(size).height, {}};
    const std::size_t expected = std::get<GridSize>(size).cells();
    const std::string_view cells = text.substr(grid_header_size);
    if (cells.size() != expected) {
        const bool few = cells.size() < expected;
        return GridError{few ? Kind::too_few_cells : Kind::too_many_cells,
                         few ? text.size() : grid_header_size + expected,
                         fmt::format("grid of width {} and height {} needs {} cells, got {}",
                                     grid.width, grid.height, expected, cells.size())};
    }
    std::size_t bad = cells.size();
    for_each_non_dot(cells, [&](std::size_t i) {
        if (is_tile_letter(cells[i]))
            return true;
        bad = i;
        return false;
    });
    if (bad < cells.size())
        return GridError{
            Kind::bad_cell, grid_header_size + bad,
            fmt::format("grid cell at column {}, row {} is {}, not A-Z or '.'", bad % grid.width,
                        bad / grid.width, quote_byte(cells[bad], names))};
    grid.cells.assign(cells);
    return grid;
}

std::string serialise(const Grid& grid) {
    return fmt::format("{:03}{:03}{}", grid.width, grid.height, grid.cells);
}

}  // namespace bg
