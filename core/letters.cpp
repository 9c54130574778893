#include "core/letters.hpp"

namespace bg {

std::optional<LetterCounts> LetterCounts::from_letters(std::string_view text) {
    LetterCounts counts;
    for (char c : text) {
        if (!is_tile_letter(c))
            return std::nullopt;
        counts.add(c);
    }
    return counts;
}

bool LetterCounts::remove(char letter) {
    auto& n = counts_[letter_index(letter)];
    if (n == 0)
        return false;
    --n;
    return true;
}

std::uint32_t LetterCounts::total() const {
    std::uint32_t sum = 0;
    for (auto n : counts_)
        sum += n;
    return sum;
}

bool LetterCounts::contains(const LetterCounts& other) const {
    for (int i = 0; i < alphabet_size; ++i)
        if (counts_[i] < other.counts_[i])
            return false;
    return true;
}

LetterCounts& LetterCounts::operator+=(const LetterCounts& other) {
    for (int i = 0; i < alphabet_size; ++i)
        counts_[i] += other.counts_[i];
    return *this;
}

LetterCounts& LetterCounts::operator-=(const LetterCounts& other) {
    for (int i = 0; i < alphabet_size; ++i)
        counts_[i] -= other.counts_[i];
    return *this;
}

LetterCounts LetterCounts::minus_saturating(const LetterCounts& other) const {
    LetterCounts result;
    for (int i = 0; i < alphabet_size; ++i)
        result.counts_[i] = counts_[i] > other.counts_[i] ? counts_[i] - other.counts_[i] : 0;
    return result;
}

std::string LetterCounts::to_string() const {
    std::string out;
    out.reserve(total());
    for (int i = 0; i < alphabet_size; ++i)
        out.append(counts_[i], index_letter(i));
    return out;
}

}  // namespace bg
