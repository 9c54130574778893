#include <fmt/format.h>

#include "host/replay.hpp"
#include "wordlist/default_wordlist.hpp"

namespace bg {

DictionaryFinder host_dictionaries(std::optional<Dictionary>& loaded) {
    return [&loaded](const Setup& setup) -> std::variant<const Dictionary*, std::string> {
        const Dictionary* dict = &default_wordlist();
        if (!setup.dictionary.empty()) {
            auto file = Dictionary::from_file(setup.dictionary);
            if (auto* error = std::get_if<std::string>(&file))
                return *error;
            loaded.emplace(std::move(std::get<Dictionary>(file)));
            dict = &*loaded;
        }
        if (dict->stats().fingerprint != setup.dictionary_fingerprint)
            return fmt::format(
                "the word list {} is not the one the game was played with",
                setup.dictionary.empty() ? "built into this host" : setup.dictionary);
        return dict;
    };
}

}  // namespace bg
