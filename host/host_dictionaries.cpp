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

std::variant<const Dictionary*, std::string> recorded_word_list(const std::string& path,
                                                                std::uint64_t fingerprint,
                                                                std::optional<Dictionary>& loaded) {
    if (path.empty())
        return builtin_wordlist(fingerprint, loaded);
    auto found = host_word_list(path, loaded);
    if (const auto* dict = std::get_if<const Dictionary*>(&found);
        dict && (*dict)->stats().fingerprint != fingerprint)
        return fmt::format(
            "the word list {} is not the one recorded (it has changed: fingerprint {:016x}, "
            "recorded {:016x})",
            path, (*dict)->stats().fingerprint, fingerprint);
    return found;
}

std::string word_list_name(const std::string& path, std::uint64_t fingerprint) {
    if (!path.empty())
        return path;
    return builtin_wordlist_name(fingerprint).value_or("");
}

DictionaryFinder host_dictionaries(std::optional<Dictionary>& loaded) {
    return [&loaded](const Setup& setup) {
        return recorded_word_list(setup.dictionary, setup.dictionary_fingerprint, loaded);
    };
}

}  // namespace bg
