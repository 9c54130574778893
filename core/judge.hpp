// Whether a grid is a legal play of a hand: exactly the hand's tiles, connected through edges,
// and every run of two or more tiles, across or down, a word.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dictionary.hpp"
#include "core/grid.hpp"
#include "core/letters.hpp"

namespace bg {

struct Verdict {
    enum class Kind { legal, wrong_tiles, disconnected, not_a_word };
    struct BadWord {
        std::string word;
        int x = 0, y = 0;  // its first tile, 0-based from the top left
        bool across = true;
    };

    Kind kind = Kind::legal;
    LetterCounts missing;            // wrong_tiles: in the hand, not on the grid
    LetterCounts extra;              // wrong_tiles: on the grid, not in the hand
    int stray_x = 0, stray_y = 0;    // disconnected: a tile not joined to the first tile
    std::vector<BadWord> bad_words;  // not_a_word: every run that is not a word
    std::string message;             // for people; empty when legal

    bool legal() const { return kind == Kind::legal; }
};

// The tiles on a grid: their cells (indices into Grid::cells) in reading order, and their
// letters. Found in one scan, which a caller that needs the letters first can hand to judge().
struct GridTiles {
    std::vector<std::uint32_t> cells;
    LetterCounts letters;
};
GridTiles tiles_on(const Grid& grid);

Verdict judge(const Grid& grid, const LetterCounts& hand, const Dictionary& dictionary);
// The same, for the tiles tiles_on(grid) found.
Verdict judge(const Grid& grid, const GridTiles& tiles, const LetterCounts& hand,
              const Dictionary& dictionary);

// The tiles on a grid.
LetterCounts tiles_of(const Grid& grid);

}  // namespace bg
