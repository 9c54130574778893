// The word lists the host plays and replays with: the built-in list, or a --dict file.
#pragma once

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

// For a replay: the word list the log names, checked against the fingerprint it recorded.
DictionaryFinder host_dictionaries(std::optional<Dictionary>& loaded);

}  // namespace bg
