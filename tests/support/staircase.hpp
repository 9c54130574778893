// A layout that is legal for any hand under a word list holding every two-letter string: tile k
// goes to column (k+1)/2, row k/2, so every run across or down is two tiles long and all are
// joined. Test and benchmark bots use it to make valid grids without searching.
#pragma once

#include <string>
#include <string_view>

#include "core/dictionary.hpp"
#include "core/grid.hpp"

namespace bg {

// Every two-letter string, AA to ZZ: the word list under which any staircase is legal.
inline const Dictionary& two_letter_words() {
    static const Dictionary dict = [] {
        std::string text;
        for (char a = 'A'; a <= 'Z'; ++a)
            for (char b = 'A'; b <= 'Z'; ++b)
                text += std::string{a, b, '\n'};
        return Dictionary::from_text(text);
    }();
    return dict;
}

inline Grid staircase_grid(std::string_view letters) {
    const int n = static_cast<int>(letters.size());
    Grid grid;
    grid.width = n == 0 ? 0 : n / 2 + 1;
    grid.height = (n + 1) / 2;
    grid.cells.assign(static_cast<std::size_t>(grid.width) * grid.height, '.');
    for (int k = 0; k < n; ++k)
        grid.cells[static_cast<std::size_t>(k / 2) * grid.width + (k + 1) / 2] = letters[k];
    return grid;
}

}  // namespace bg
