// Where bananagrams-connect keeps the word lists it fetched from seats' servers, each under its
// fingerprint, so that a bot's evening fetches each list once: $XDG_CACHE_HOME/bananagrams-connect,
// else ~/.cache/bananagrams-connect. A kept list is used only while it still holds the list of
// its fingerprint.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace bg::connect {

class WordListCache {
  public:
    // The folder, made if missing; or, where there is none to be had (no $HOME), a folder of
    // this run's own, removed with it.
    static std::variant<WordListCache, std::string> open();
    WordListCache(WordListCache&& other) noexcept;
    WordListCache& operator=(WordListCache&&) = delete;
    ~WordListCache();

    const std::string& folder() const { return folder_; }
    // The kept file of the list with this fingerprint, when there is one that holds it.
    std::optional<std::string> find(std::uint64_t fingerprint) const;
    // Keeps `text` as the list with this fingerprint: its file; or nullopt, and why in `why`
    // (it is not that list, or it cannot be written).
    std::optional<std::string> keep(std::uint64_t fingerprint, std::string_view text,
                                    std::string& why) const;

  private:
    WordListCache() = default;
    std::string path_of(std::uint64_t fingerprint) const;

    std::string folder_;
    bool own_ = false;  // a folder of this run's, removed with it
};

// The fingerprint of a word list's text, as the host computes it (core/dictionary.hpp).
std::uint64_t word_list_fingerprint(std::string_view text);

}  // namespace bg::connect
