// A multiset of the 26 letters A-Z: hands, bunches and the tiles on a grid.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bg {

inline constexpr int alphabet_size = 26;

constexpr bool is_tile_letter(char c) {
    return c >= 'A' && c <= 'Z';
}
constexpr int letter_index(char c) {
    return c - 'A';
}
constexpr char index_letter(int i) {
    return static_cast<char>('A' + i);
}

class LetterCounts {
  public:
    LetterCounts() = default;

    // The letters of `text`, which must all be A-Z; nullopt otherwise.
    static std::optional<LetterCounts> from_letters(std::string_view text);

    std::uint32_t count(char letter) const { return counts_[letter_index(letter)]; }
    void add(char letter, std::uint32_t n = 1) { counts_[letter_index(letter)] += n; }
    // Removes one `letter`; false (and no change) when there is none.
    bool remove(char letter);

    std::uint32_t total() const;
    bool empty() const { return total() == 0; }
    // True when every letter of `other` is here at least as often.
    bool contains(const LetterCounts& other) const;

    LetterCounts& operator+=(const LetterCounts& other);
    // Requires contains(other).
    LetterCounts& operator-=(const LetterCounts& other);
    // The letters here that `other` lacks, letter by letter (saturating at zero).
    LetterCounts minus_saturating(const LetterCounts& other) const;

    // Every letter, repeated by its count, in alphabetical order.
    std::string to_string() const;

    friend bool operator==(const LetterCounts&, const LetterCounts&) = default;

  private:
    std::array<std::uint32_t, alphabet_size> counts_{};
};

}  // namespace bg
