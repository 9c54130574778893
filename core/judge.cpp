#include "core/judge.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace bg {

namespace {

constexpr std::size_t bad_words_in_message = 5;

// Cell indices of the tiles of a grid, in reading order. Grids are mostly empty, so whole
// 8-byte words of '.' are skipped at once.
std::vector<std::uint32_t> tile_positions(const std::string& cells) {
    std::vector<std::uint32_t> positions;
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
        const std::size_t end = std::min(n, i + 8);
        for (; i < end; ++i)
            if (cells[i] != '.')
                positions.push_back(static_cast<std::uint32_t>(i));
    }
    return positions;
}

std::string describe_letters(const LetterCounts& letters) {
    return fmt::format("{} ({})", letters.to_string(), letters.total());
}

// Index of the first tile not reachable from tile 0 through edges, or npos.
std::size_t first_unreached(const Grid& grid, const std::vector<std::uint32_t>& positions) {
    if (positions.empty())
        return std::string::npos;
    std::vector<bool> reached(positions.size(), false);
    std::vector<std::uint32_t> stack{0};
    reached[0] = true;
    const auto w = static_cast<std::uint32_t>(grid.width);
    const auto visit = [&](std::uint32_t cell) {
        if (grid.cells[cell] == '.')
            return;
        const auto it = std::lower_bound(positions.begin(), positions.end(), cell);
        const std::size_t index = static_cast<std::size_t>(it - positions.begin());
        if (!reached[index]) {
            reached[index] = true;
            stack.push_back(static_cast<std::uint32_t>(index));
        }
    };
    while (!stack.empty()) {
        const std::uint32_t cell = positions[stack.back()];
        stack.pop_back();
        const std::uint32_t x = cell % w;
        if (x > 0)
            visit(cell - 1);
        if (x + 1 < w)
            visit(cell + 1);
        if (cell >= w)
            visit(cell - w);
        if (cell + w < grid.cells.size())
            visit(cell + w);
    }
    const auto it = std::find(reached.begin(), reached.end(), false);
    return it == reached.end() ? std::string::npos : static_cast<std::size_t>(it - reached.begin());
}

std::vector<Verdict::BadWord> bad_words(const Grid& grid,
                                        const std::vector<std::uint32_t>& positions,
                                        const Dictionary& dictionary) {
    std::vector<Verdict::BadWord> bad;
    const auto w = static_cast<std::size_t>(grid.width);
    const auto check = [&](std::string_view word, std::size_t first, bool across) {
        if (word.size() >= 2 && !dictionary.contains(word))
            bad.push_back({std::string(word), static_cast<int>(first % w),
                           static_cast<int>(first / w), across});
    };
    // Across: consecutive positions in one row form a run.
    for (std::size_t i = 0; i < positions.size();) {
        std::size_t j = i + 1;
        while (j < positions.size() && positions[j] == positions[j - 1] + 1 &&
               positions[j] % w != 0)
            ++j;
        check(std::string_view(grid.cells).substr(positions[i], j - i), positions[i], true);
        i = j;
    }
    // Down: a run starts at a tile with no tile above it.
    std::string word;
    for (const std::uint32_t start : positions) {
        if (start >= w && grid.cells[start - w] != '.')
            continue;
        word.clear();
        for (std::size_t cell = start; cell < grid.cells.size() && grid.cells[cell] != '.';
             cell += w)
            word += grid.cells[cell];
        check(word, start, false);
    }
    return bad;
}

}  // namespace

LetterCounts tiles_of(const Grid& grid) {
    LetterCounts tiles;
    for (const std::uint32_t cell : tile_positions(grid.cells))
        tiles.add(grid.cells[cell]);
    return tiles;
}

Verdict judge(const Grid& grid, const LetterCounts& hand, const Dictionary& dictionary) {
    Verdict verdict;
    const std::vector<std::uint32_t> positions = tile_positions(grid.cells);
    LetterCounts on_grid;
    for (const std::uint32_t cell : positions)
        on_grid.add(grid.cells[cell]);
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
    if (const std::size_t stray = first_unreached(grid, positions); stray != std::string::npos) {
        verdict.kind = Verdict::Kind::disconnected;
        verdict.stray_x = static_cast<int>(positions[stray] % grid.width);
        verdict.stray_y = static_cast<int>(positions[stray] / grid.width);
        verdict.message = fmt::format(
            "grid is not connected: the tile at column {}, row {} is not joined to the one at "
            "column {}, row {}",
            verdict.stray_x, verdict.stray_y, positions[0] % grid.width, positions[0] / grid.width);
        return verdict;
    }
    verdict.bad_words = bad_words(grid, positions, dictionary);
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
