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
    // The layout that places the most of `hand`, from up to `attempts` starting words. Even
    // attempts lay the longest words they can; odd ones the words of the hardest letters first
    // (a Q without a U goes down as QI or QAT before the hand's I and A are spent elsewhere).
    Layout build(const LetterCounts& hand, int attempts, std::uint64_t seed) const;

  private:
    struct Word {
        std::string text;
        LetterCounts letters;
    };
    std::vector<Word> words_;                 // longest first
    std::vector<const Word*> hardest_first_;  // by their hardest letter, then longest first
};

}  // namespace bg
