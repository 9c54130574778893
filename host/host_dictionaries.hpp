// The word lists the host plays and replays with: the built-in list, or a --dict file.
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

}  // namespace bg
