#include "players/crossword.hpp"

#include <algorithm>
#include <string_view>

#include "core/random.hpp"

namespace bg {

namespace {

constexpr int canvas_side = 2 * 160 + 1;  // room for 144 tiles in a line either way of the middle

class Canvas {
  public:
    Canvas() : cells_(static_cast<std::size_t>(canvas_side) * canvas_side, '.') {}

    char at(int x, int y) const {
        if (x < 0 || y < 0 || x >= canvas_side || y >= canvas_side)
            return '.';
        return cells_[static_cast<std::size_t>(y) * canvas_side + x];
    }
    bool inside(int x, int y) const {
        return x >= 1 && y >= 1 && x < canvas_side - 1 && y < canvas_side - 1;
    }
    void set(int x, int y, char c) {
        cells_[static_cast<std::size_t>(y) * canvas_side + x] = c;
        tiles_.push_back({x, y});
    }
    const std::vector<std::pair<int, int>>& tiles() const { return tiles_; }

    // Whether `word`, laid from (x, y) across (dx=1) or down (dy=1), fits touching only the
    // tiles it crosses.
    bool fits(const std::string& word, int x, int y, int dx, int dy) const {
        const int n = static_cast<int>(word.size());
        if (!inside(x, y) || !inside(x + dx * (n - 1), y + dy * (n - 1)))
            return false;
        if (at(x - dx, y - dy) != '.' || at(x + dx * n, y + dy * n) != '.')
            return false;
        bool crosses = false;
        for (int i = 0; i < n; ++i) {
            const int cx = x + dx * i, cy = y + dy * i;
            const char here = at(cx, cy);
            if (here == word[i]) {
                crosses = true;
                continue;
            }
            if (here != '.')
                return false;
            // A new tile may not touch anything sideways.
            if (at(cx + dy, cy + dx) != '.' || at(cx - dy, cy - dx) != '.')
                return false;
        }
        return crosses || tiles_.empty();
    }

    Grid crop() const {
        int x0 = canvas_side, y0 = canvas_side, x1 = -1, y1 = -1;
        for (auto [x, y] : tiles_) {
            x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
        Grid grid;
        if (tiles_.empty())
            return grid;
        grid.width = x1 - x0 + 1;
        grid.height = y1 - y0 + 1;
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x)
                grid.cells += at(x, y);
        return grid;
    }

  private:
    std::vector<char> cells_;
    std::vector<std::pair<int, int>> tiles_;
};

// Lays `text` (its letters `letters`) across or down through a tile on the canvas, the rest of
// its tiles from `left`, which gives them up; false, and nothing laid, where it fits nowhere.
bool lay_crossing(Canvas& canvas, const std::string& text, const LetterCounts& letters,
                  LetterCounts& left) {
    for (std::size_t t = 0; t < canvas.tiles().size(); ++t) {
        const auto [ax, ay] = canvas.tiles()[t];
        const char anchor = canvas.at(ax, ay);
        // The word crosses the anchor, so the other tiles come from the hand.
        const bool across_free = canvas.at(ax - 1, ay) == '.' && canvas.at(ax + 1, ay) == '.';
        const bool down_free = canvas.at(ax, ay - 1) == '.' && canvas.at(ax, ay + 1) == '.';
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] != anchor)
                continue;
            LetterCounts needs = letters;
            needs.remove(anchor);
            if (!left.contains(needs))
                continue;
            const int offset = static_cast<int>(i);
            for (const auto& [dx, dy] : {std::pair{1, 0}, std::pair{0, 1}}) {
                if ((dx == 1 && !across_free) || (dy == 1 && !down_free))
                    continue;
                const int x = ax - dx * offset, y = ay - dy * offset;
                if (!canvas.fits(text, x, y, dx, dy))
                    continue;
                // The word may run through more tiles than the anchor: only its empty cells
                // take tiles from the hand.
                LetterCounts laid;
                for (std::size_t k = 0; k < text.size(); ++k)
                    if (canvas.at(x + dx * static_cast<int>(k), y + dy * static_cast<int>(k)) ==
                        '.')
                        laid.add(text[k]);
                if (!left.contains(laid))
                    continue;
                for (std::size_t k = 0; k < text.size(); ++k) {
                    const int cx = x + dx * static_cast<int>(k), cy = y + dy * static_cast<int>(k);
                    if (canvas.at(cx, cy) == '.')
                        canvas.set(cx, cy, text[k]);
                }
                left -= laid;
                return true;
            }
        }
    }
    return false;
}

}  // namespace

Crossword::Crossword(std::vector<std::string> words) {
    for (auto& text : words) {
        if (text.size() < 2)
            continue;
        auto letters = LetterCounts::from_letters(text);
        if (letters)
            words_.push_back({std::move(text), *letters});
    }
    std::stable_sort(words_.begin(), words_.end(),
                     [](const Word& a, const Word& b) { return a.text.size() > b.text.size(); });
    // A letter's hardness: its rank among the letters by how few words hold it, fewest first.
    constexpr std::string_view by_hardness = "QZXJKVWYBFHGMPCUDLOTNSRAIE";
    const auto hardest = [&](const Word& word) {
        std::size_t rank = by_hardness.size();
        for (const char c : word.text)
            rank = std::min(rank, by_hardness.find(c));
        return rank;
    };
    for (const auto& word : words_)
        hardest_first_.push_back(&word);
    std::stable_sort(hardest_first_.begin(), hardest_first_.end(),
                     [&](const Word* a, const Word* b) { return hardest(*a) < hardest(*b); });
}

Crossword::Layout Crossword::build(const LetterCounts& hand, int attempts,
                                   std::uint64_t seed) const {
    // Only words that the hand can make with at most one tile already on the grid can be laid.
    std::vector<const Word*> usable, usable_hardest_first;
    std::vector<const Word*> starters;
    std::vector<bool> is_usable(words_.size());
    for (std::size_t i = 0; i < words_.size(); ++i) {
        const Word& word = words_[i];
        const auto missing = word.letters.minus_saturating(hand).total();
        is_usable[i] = missing <= 1;
        if (missing <= 1)
            usable.push_back(&word);
        if (missing == 0)
            starters.push_back(&word);
    }
    for (const Word* word : hardest_first_)
        if (is_usable[static_cast<std::size_t>(word - words_.data())])
            usable_hardest_first.push_back(word);
    SplitMix64 rng(seed);
    Layout best{{}, hand};
    if (hand.total() == 1) {
        best.grid = Grid{1, 1, hand.to_string()};
        best.leftover = {};
        return best;
    }
    for (int attempt = 0; attempt < attempts && attempt < static_cast<int>(starters.size());
         ++attempt) {
        // The longest starters first, then random ones.
        const Word* start =
            attempt < 3 ? starters[attempt]
                        : starters[rng.bounded(static_cast<std::uint32_t>(starters.size()))];
        Canvas canvas;
        LetterCounts left = hand;
        const int mid = canvas_side / 2;
        for (std::size_t i = 0; i < start->text.size(); ++i)
            canvas.set(mid + static_cast<int>(i), mid, start->text[i]);
        left -= start->letters;
        bool placed = true;
        while (placed && !left.empty()) {
            placed = false;
            for (const Word* word : attempt % 2 == 0 ? usable : usable_hardest_first) {
                if (word->text.size() > left.total() + 1)
                    continue;
                if (word->letters.minus_saturating(left).total() > 1)
                    continue;
                placed = lay_crossing(canvas, word->text, word->letters, left);
                if (placed)
                    break;
            }
        }
        if (left.total() < best.leftover.total() || best.grid.cells.empty()) {
            best.grid = canvas.crop();
            best.leftover = left;
        }
        if (left.empty())
            break;
    }
    return best;
}

}  // namespace bg
