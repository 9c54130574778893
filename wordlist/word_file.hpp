// Word lists from files: the one place a file becomes a Dictionary (the host's --dict, a
// replay's word list, the reference bot's, and the build's default list).
#pragma once

#include <cstddef>
#include <string>
#include <variant>

#include "core/dictionary.hpp"

namespace bg {

// A word list file larger than this is refused (the largest Debian list is 4 MiB).
inline constexpr std::size_t max_word_file_bytes = std::size_t{64} << 20;

// The file's words, or a message saying why it could not be read, or why it is not a word
// list: larger than max_word_file_bytes, no words, or more lines skipped than kept.
std::variant<Dictionary, std::string> load_word_file(const std::string& path,
                                                     DictionaryOptions options = {});

}  // namespace bg
