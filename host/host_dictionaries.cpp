#include "host/host_dictionaries.hpp"

#include <fmt/format.h>

#include "wordlist/default_wordlist.hpp"
#include "wordlist/word_file.hpp"

namespace bg {

std::variant<const Dictionary*, std::string> host_word_list(const std::string& path,
                                                            std::optional<Dictionary>& loaded) {
    if (path.empty())
        return &default_wordlist();
    auto file = load_word_file(path);
    if (auto* error = std::get_if<std::string>(&file))
        return std::move(*error);
    loaded.emplace(std::move(std::get<Dictionary>(file)));
    return &*loaded;
}

DictionaryFinder host_dictionaries(std::optional<Dictionary>& loaded) {
    return [&loaded](const Setup& setup) -> std::variant<const Dictionary*, std::string> {
        auto found = host_word_list(setup.dictionary, loaded);
        if (const auto* dict = std::get_if<const Dictionary*>(&found);
            dict && (*dict)->stats().fingerprint != setup.dictionary_fingerprint)
            return fmt::format(
                "the word list {} is not the one the game was played with",
                setup.dictionary.empty() ? "built into this host" : setup.dictionary);
        return found;
    };
}

}  // namespace bg
