#include "core/judge.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace bg {

namespace {

constexpr std::size_t bad_words_in_message = 5;

constexpr std::uint32_t no_tile = UINT32_MAX;

// Cell indices of the tiles of a grid, in reading order.
std::vector<std::uint32_t> tile_positions(const std::string& cells) {
    std::vector<std::uint32_t> positions;
    for_each_non_dot(cells, [&](std::size_t i) {
        positions.push_back(static_cast<std::uint32_t>(i));
        return true;
    });
    return positions;
}

std::string describe_letters(const LetterCounts& letters) {
    return fmt::format("{} ({})", letters.to_string(), letters.total());
}

// How the tiles of a grid touch, by index into GridTiles::cells: each tile's right and lower
// neighbours, found in one pass since the cells ascend. Connectivity and the words both follow
// these links, so that judging costs no search and no division per tile.
struct Links {
    std::vector<std::uint32_t> right;  // the tile right of tile i in its row, or no_tile
    std::vector<std::uint32_t> below;  // the tile under tile i, or no_tile

    Links(const Grid& grid, const std::vector<std::uint32_t>& cells)
        : right(cells.size(), no_tile), below(cells.size(), no_tile) {
        const auto w = static_cast<std::uint32_t>(grid.width);
        const std::size_t n = cells.size();
        std::uint32_t row_end = 0;  // the first cell after the current tile's row
        std::size_t lower = 0;      // cursor: the first tile not before the cell under tile i
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t cell = cells[i];
            if (cell >= row_end)
                row_end = (cell / w + 1) * w;
            if (i + 1 < n && cells[i + 1] == cell + 1 && cell + 1 < row_end)
                right[i] = static_cast<std::uint32_t>(i + 1);
            while (lower < n && cells[lower] < cell + w)
                ++lower;
            if (lower < n && cells[lower] == cell + w)
                below[i] = static_cast<std::uint32_t>(lower);
        }
    }
};

// Index of the first tile not joined to tile 0 through edges, or npos: union-find over the
// links, each tile's root being the lowest index of its set.
std::size_t first_unreached(const Links& links) {
    const std::size_t n = links.right.size();
    if (n == 0)
        return std::string::npos;
    std::vector<std::uint32_t> root(n);
    for (std::size_t i = 0; i < n; ++i)
        root[i] = static_cast<std::uint32_t>(i);
    const auto find = [&](std::uint32_t i) {
        while (root[i] != i) {
            root[i] = root[root[i]];
            i = root[i];
        }
        return i;
    };
    const auto join = [&](std::uint32_t a, std::uint32_t b) {
        a = find(a);
        b = find(b);
        if (a != b)
            root[std::max(a, b)] = std::min(a, b);
    };
    for (std::size_t i = 0; i < n; ++i) {
        for (const std::uint32_t next : {links.right[i], links.below[i]})
            if (next != no_tile)
                join(static_cast<std::uint32_t>(i), next);
    }
    for (std::size_t i = 1; i < n; ++i)
        if (find(static_cast<std::uint32_t>(i)) != 0)
            return i;
    return std::string::npos;
}

std::vector<Verdict::BadWord> bad_words(const Grid& grid, const std::vector<std::uint32_t>& cells,
                                        const Links& links, const Dictionary& dictionary) {
    std::vector<Verdict::BadWord> bad;
    const auto w = static_cast<std::size_t>(grid.width);
    const auto check = [&](std::string_view word, std::size_t first, bool across) {
        if (word.size() >= 2 && !dictionary.contains(word))
            bad.push_back({std::string(word), static_cast<int>(first % w),
                           static_cast<int>(first / w), across});
    };
    // Across: a run follows right links; in reading order, its tiles are consecutive.
    for (std::size_t i = 0; i < cells.size();) {
        std::size_t j = i;
        while (links.right[j] != no_tile)
            j = links.right[j];
        check(std::string_view(grid.cells).substr(cells[i], j - i + 1), cells[i], true);
        i = j + 1;
    }
    // Down: a run starts at a tile with a tile below it and none above.
    std::string word;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::uint32_t cell = cells[i];
        if (links.below[i] == no_tile || (cell >= w && grid.cells[cell - w] != '.'))
            continue;
        word.clear();
        for (std::uint32_t t = static_cast<std::uint32_t>(i); t != no_tile; t = links.below[t])
            word += grid.cells[cells[t]];
        check(word, cells[i], false);
    }
    return bad;
}

}  // namespace

GridTiles tiles_on(const Grid& grid) {
    GridTiles tiles{tile_positions(grid.cells), {}};
    for (const std::uint32_t cell : tiles.cells)
        tiles.letters.add(grid.cells[cell]);
    return tiles;
}

LetterCounts tiles_of(const Grid& grid) {
    return tiles_on(grid).letters;
}

Verdict judge(const Grid& grid, const LetterCounts& hand, const Dictionary& dictionary) {
    return judge(grid, tiles_on(grid), hand, dictionary);
}

Verdict judge(const Grid& grid, const GridTiles& tiles, const LetterCounts& hand,
              const Dictionary& dictionary) {
    Verdict verdict;
    const std::vector<std::uint32_t>& positions = tiles.cells;
    const LetterCounts& on_grid = tiles.letters;
    if (on_grid != hand) {
        verdict.kind = Verdict::Kind::wrong_tiles;
        verdict.missing = hand.minus_saturating(on_grid);
        verdict.extra = on_grid.minus_saturating(hand);
        std::vector<std::string> parts;
        if (!verdict.missing.empty())
            parts.push_back("missing from the grid: " + describe_letters(verdict.missing));
        if (!verdict.extra.empty())
            parts.push_back("not in the hand: " + describe_letters(verdict.extra));
        verdict.message = fmt::format("grid tiles are not the hand; {}", fmt::join(parts, "; "));
        return verdict;
    }
    const Links links(grid, positions);
    if (const std::size_t stray = first_unreached(links); stray != std::string::npos) {
        verdict.kind = Verdict::Kind::disconnected;
        verdict.stray_x = static_cast<int>(positions[stray] % grid.width);
        verdict.stray_y = static_cast<int>(positions[stray] / grid.width);
        verdict.message = fmt::format(
            "grid is not connected: the tile at column {}, row {} is not joined to the one at "
            "column {}, row {}",
            verdict.stray_x, verdict.stray_y, positions[0] % grid.width, positions[0] / grid.width);
        return verdict;
    }
    verdict.bad_words = bad_words(grid, positions, links, dictionary);
    if (!verdict.bad_words.empty()) {
        verdict.kind = Verdict::Kind::not_a_word;
        std::vector<std::string> parts;
        for (std::size_t i = 0; i < verdict.bad_words.size() && i < bad_words_in_message; ++i) {
            const auto& b = verdict.bad_words[i];
            parts.push_back(fmt::format("{} ({} from column {}, row {})", b.word,
                                        b.across ? "across" : "down", b.x, b.y));
        }
        const std::size_t more = verdict.bad_words.size() - parts.size();
        verdict.message = fmt::format("not in the word list: {}{}", fmt::join(parts, ", "),
                                      more ? fmt::format(" and {} more", more) : "");
    }
    return verdict;
}

}  // namespace bg
