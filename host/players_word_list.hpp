// The game's word list as its players read it: every player is given BANANAGRAMS_WORDLIST, the
// path of a file holding the list its game is judged by (protocol-v2.md, "The game"), whether
// that is the built-in list or the organiser's --dict file.
#pragma once

#include <string>
#include <variant>

#include "core/dictionary.hpp"

namespace bg {

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
