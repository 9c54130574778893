// The reference bot's player: lays a hand out as a crossword of real words. It starts from a
// long word and keeps crossing new words through tiles already down, each placed so that it
// touches nothing but the tile it crosses, which keeps every run on the grid a word.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/grid.hpp"
#include "core/letters.hpp"

namespace bg {

class Crossword {
  public:
    // `words`: upper-case A-Z words; shorter than 2 letters are ignored.
    explicit Crossword(std::vector<std::string> words);

    struct Layout {
        Grid grid;              // the tiles placed, cropped to their bounding box
        LetterCounts leftover;  // the tiles it could not place
    };
    // The layout that places the most of `hand`, from up to `attempts` starting words.
    Layout build(const LetterCounts& hand, int attempts, std::uint64_t seed) const;

  private:
    struct Word {
        std::string text;
        LetterCounts letters;
    };
    std::vector<Word> words_;  // longest first
};

}  // namespace bg
