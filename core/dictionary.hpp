// The word list that judges grids: an open-addressing hash table over a blob of words, which
// can also be stored as one flat image and used in place (the default list is compiled into the
// host that way, so it is ready without parsing anything).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bg {

struct DictionaryOptions {
    // Drop words with an upper-case letter (proper nouns in lists like wamerican).
    bool lowercase_only = false;
};

class Dictionary {
  public:
    struct Stats {
        std::size_t words = 0;       // distinct words kept
        std::size_t skipped = 0;     // lines with a byte that is not a letter, or over 255 letters
        std::size_t duplicates = 0;  // lines equal to an earlier one (case folded)
        std::size_t first_skipped_line = 0;  // 1-based; 0 when nothing was skipped
        // The same for the same set of words, whatever their order or case: names a list in logs.
        std::uint64_t fingerprint = 0;
    };
    using Options = DictionaryOptions;
    static constexpr std::size_t max_word_length = 255;

    // A newline-separated word list: case-insensitive, "\r\n" accepted, blank lines ignored.
    static Dictionary from_text(std::string_view text, Options options = {});
    // A dictionary over an image made by image(); the bytes must outlive it. nullopt when the
    // bytes are not such an image.
    static std::optional<Dictionary> from_image(std::span<const unsigned char> bytes);
    std::vector<unsigned char> image() const;

    Dictionary(Dictionary&&) noexcept = default;
    Dictionary& operator=(Dictionary&&) noexcept = default;
    Dictionary(const Dictionary&) = delete;
    Dictionary& operator=(const Dictionary&) = delete;

    // `word` in upper case A-Z.
    bool contains(std::string_view word) const;
    const Stats& stats() const { return stats_; }
    // Every word, in the order of the list it was made from.
    std::vector<std::string> words() const;

  private:
    Dictionary() = default;
    void insert_all(std::string_view normalised_blob);

    Stats stats_;
    // Slot i: 0 when empty, else (hash >> 32) << 32 | (offset of the word in the blob + 1).
    // Blob: each word as one length byte and its letters.
    std::vector<std::uint64_t> own_slots_;
    std::vector<char> own_blob_;
    const unsigned char* slots_ = nullptr;  // read with memcpy: image bytes need no alignment
    std::size_t slot_mask_ = 0;
    const char* blob_ = nullptr;
    std::size_t blob_size_ = 0;
};

}  // namespace bg
