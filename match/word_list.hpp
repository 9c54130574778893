// The word list a game is judged by: the built-in list or a --dict file, as the host plays and
// replays with it and a tournament resumes on it; and the file every player reads it from
// ($BANANAGRAMS_WORDLIST).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "core/dictionary.hpp"
#include "record/replay.hpp"

namespace bg {

// The built-in list when `path` is empty, else the file's (kept in `loaded`), or why it
// cannot be had.
std::variant<const Dictionary*, std::string> host_word_list(const std::string& path,
                                                            std::optional<Dictionary>& loaded);

// The word list a game or a tournament recorded: the file at `path`, or when `path` is empty the
// built-in list with that fingerprint (this host's, or an earlier host's from its file), and in
// either case that very list (its fingerprint checked); else why it cannot be had.
std::variant<const Dictionary*, std::string> recorded_word_list(const std::string& path,
                                                                std::uint64_t fingerprint,
                                                                std::optional<Dictionary>& loaded);

// The name a log or a database gives a word list: the built-in list's, or the file's path.
std::string word_list_name(const std::string& path, std::uint64_t fingerprint);

// For a replay: the word list the log names, checked against the fingerprint it recorded.
DictionaryFinder host_dictionaries(std::optional<Dictionary>& loaded);

inline constexpr const char* word_list_variable = "BANANAGRAMS_WORDLIST";

class PlayersWordList {
  public:
    // `dict`: the --dict file, or "" for the built-in list (its file beside an installed host, or
    // in the source tree of a built one). `others_read`: the players run as another user (the
    // sandbox's, when the host is root), so the file must be readable by anyone. Where no such
    // file is to be had, the list is written to a file of the host's own, removed with this.
    static std::variant<PlayersWordList, std::string> make(const std::string& dict,
                                                           const Dictionary& dictionary,
                                                           bool others_read);
    PlayersWordList(PlayersWordList&& other) noexcept;
    PlayersWordList& operator=(PlayersWordList&&) = delete;
    PlayersWordList(const PlayersWordList&) = delete;
    ~PlayersWordList();

    // The file, absolute.
    const std::string& path() const { return path_; }
    // NAME=path, as a player's environment holds it.
    std::string variable() const { return std::string(word_list_variable) + "=" + path_; }
    // Whether it is a copy the host wrote.
    bool copied() const { return !copy_dir_.empty(); }

  private:
    PlayersWordList() = default;

    std::string path_;
    std::string copy_dir_;  // the folder of the copy, removed with it
};

// Whether every user may read `path`: the file readable by others and every folder above it
// searchable by others.
bool readable_by_anyone(const std::string& path);

}  // namespace bg
