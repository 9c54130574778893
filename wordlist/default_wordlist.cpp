#include "wordlist/default_wordlist.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>

#include <fmt/format.h>

#include "default_wordlist_source.hpp"
#include "wordlist/word_file.hpp"

extern "C" {
extern const unsigned char bg_default_wordlist_image[];
extern const std::uint64_t bg_default_wordlist_image_size;
}

namespace bg {

namespace {

// Every list a published host had built in before this one's, oldest first. A list is added
// here when the default changes, never removed: its logs must go on replaying.
constexpr FormerDefault formers[] = {
    {"wamerican-large",
     "the lower-case lines of Debian's wamerican-large, the built-in list of hosts up to 1.0",
     "/usr/share/dict/american-english-large", DictionaryOptions{.lowercase_only = true},
     0x30164250aa211910},
};

}  // namespace

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

const char* default_wordlist_name() {
    return default_wordlist_name_text;
}

std::span<const FormerDefault> former_defaults() {
    return formers;
}

std::optional<std::string> builtin_wordlist_name(std::uint64_t fingerprint) {
    if (fingerprint == default_wordlist().stats().fingerprint)
        return default_wordlist_name();
    for (const auto& former : formers)
        if (former.fingerprint == fingerprint)
            return former.name;
    return std::nullopt;
}

std::variant<const Dictionary*, std::string> builtin_wordlist(std::uint64_t fingerprint,
                                                              std::optional<Dictionary>& loaded) {
    if (fingerprint == default_wordlist().stats().fingerprint)
        return &default_wordlist();
    for (const auto& former : formers) {
        if (former.fingerprint != fingerprint)
            continue;
        auto file = load_word_file(former.file, former.options);
        if (auto* error = std::get_if<std::string>(&file))
            return fmt::format("the game was played on the word list {} ({}): {}", former.name,
                               former.about, *error);
        if (std::get<Dictionary>(file).stats().fingerprint != fingerprint)
            return fmt::format(
                "the game was played on the word list {} ({}), but {} is not that list now",
                former.name, former.about, former.file);
        loaded.emplace(std::move(std::get<Dictionary>(file)));
        return &*loaded;
    }
    return fmt::format(
        "the game was played on a built-in word list (fingerprint {:016x}) that is neither this "
        "host's ({}) nor one an earlier host had",
        fingerprint, default_wordlist_name());
}

}  // namespace bg
