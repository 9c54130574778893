// libFuzzer: the word-list loader. Every word it keeps is found again, its image reads back to
// the same words, and lookups of the input's own lines never crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/dictionary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto dict = bg::Dictionary::from_text(text);
    const auto words = dict.words();
    if (words.size() != dict.stats().words)
        std::abort();
    for (const auto& word : words)
        if (!dict.contains(word))
            std::abort();
    const auto image = dict.image();
    const auto copy = bg::Dictionary::from_image(image);
    if (!copy || copy->words() != words || copy->stats().fingerprint != dict.stats().fingerprint)
        std::abort();
    for (std::size_t start = 0; start < text.size() && start < 4096; start += 7)
        dict.contains(text.substr(start, 9));
    bg::Dictionary::from_image({data, size});  // arbitrary bytes are not an image, or are one
    return 0;
}
