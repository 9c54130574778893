// The judge against a plain reading of the rules: on random grids, the judge's verdict (which
// follows links between sorted tile cells, for speed) must equal what a flood fill over the
// two-dimensional grid and a scan of every row and column say.
#include <rapidcheck.h>
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/judge.hpp"

using namespace bg;

namespace {

const Dictionary& words() {
    static const auto dict = Dictionary::from_text("at\nta\nate\neat\ntea\ntat\nteat\naa\n");
    return dict;
}

// The first tile in reading order that a flood fill from the first tile does not reach.
std::optional<std::pair<int, int>> plain_stray(const Grid& grid) {
    const int w = grid.width, h = grid.height;
    std::vector<char> reached(grid.cells.size(), 0);
    std::vector<std::pair<int, int>> stack;
    for (int i = 0; i < w * h && stack.empty(); ++i)
        if (grid.cells[i] != '.') {
            reached[i] = 1;
            stack.emplace_back(i % w, i / w);
        }
    while (!stack.empty()) {
        const auto [x, y] = stack.back();
        stack.pop_back();
        for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
            const int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h || grid.at(nx, ny) == '.' ||
                reached[ny * w + nx])
                continue;
            reached[ny * w + nx] = 1;
            stack.emplace_back(nx, ny);
        }
    }
    for (int i = 0; i < w * h; ++i)
        if (grid.cells[i] != '.' && !reached[i])
            return std::pair{i % w, i / w};
    return std::nullopt;
}

// Every maximal run of two or more tiles that is not a word: across in reading order, then
// down in the reading order of their first tiles.
std::vector<Verdict::BadWord> plain_bad_words(const Grid& grid) {
    std::vector<Verdict::BadWord> bad;
    for (const bool across : {true, false}) {
        for (int y = 0; y < grid.height; ++y)
            for (int x = 0; x < grid.width; ++x) {
                const int px = across ? x - 1 : x, py = across ? y : y - 1;
                if (grid.at(x, y) == '.' || (px >= 0 && py >= 0 && grid.at(px, py) != '.'))
                    continue;  // empty, or not the first tile of its run
                std::string run;
                for (int cx = x, cy = y;
                     cx < grid.width && cy < grid.height && grid.at(cx, cy) != '.';
                     across ? ++cx : ++cy)
                    run += grid.at(cx, cy);
                if (run.size() >= 2 && !words().contains(run))
                    bad.push_back({run, x, y, across});
            }
    }
    return bad;
}

}  // namespace

TEST_CASE("props: the judge agrees with a plain reading of the rules", "[props][judge]") {
    rc::prop("connectivity and words match a flood fill and a row and column scan", [] {
        const int width = *rc::gen::inRange(1, 14);
        const int height = *rc::gen::inRange(1, 14);
        // From sparse (mostly disconnected) to dense (long runs, mostly connected).
        const int tile_percent = *rc::gen::inRange(10, 95);
        std::string cells;
        for (int i = 0; i < width * height; ++i)
            cells +=
                *rc::gen::inRange(0, 100) < tile_percent ? *rc::gen::element('A', 'T', 'E') : '.';
        const Grid grid{width, height, cells};
        const Verdict verdict = judge(grid, tiles_of(grid), words());

        RC_ASSERT(verdict.kind != Verdict::Kind::wrong_tiles);
        const auto stray = plain_stray(grid);
        RC_ASSERT((verdict.kind == Verdict::Kind::disconnected) == stray.has_value());
        if (stray) {
            RC_ASSERT(verdict.stray_x == stray->first);
            RC_ASSERT(verdict.stray_y == stray->second);
            return;
        }
        const auto bad = plain_bad_words(grid);
        RC_ASSERT(verdict.bad_words.size() == bad.size());
        for (std::size_t i = 0; i < bad.size(); ++i) {
            RC_ASSERT(verdict.bad_words[i].word == bad[i].word);
            RC_ASSERT(verdict.bad_words[i].x == bad[i].x);
            RC_ASSERT(verdict.bad_words[i].y == bad[i].y);
            RC_ASSERT(verdict.bad_words[i].across == bad[i].across);
        }
        RC_ASSERT(verdict.legal() == bad.empty());
    });
}
