#include "wordlist/default_wordlist.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>

#include "default_wordlist_source.hpp"

extern "C" {
extern const unsigned char bg_default_wordlist_image[];
extern const std::uint64_t bg_default_wordlist_image_size;
}

namespace bg {

const Dictionary& default_wordlist() {
    static const Dictionary dictionary = [] {
        auto dict = Dictionary::from_image(
            std::span(bg_default_wordlist_image, bg_default_wordlist_image_size));
        if (!dict)
            std::abort();  // the build made this image: a mismatch is a broken build
        return std::move(*dict);
    }();
    return dictionary;
}

const char* default_wordlist_source() {
    return default_wordlist_path;
}

}  // namespace bg
