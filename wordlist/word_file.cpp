#include "wordlist/word_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

namespace bg {

std::variant<Dictionary, std::string> load_word_file(const std::string& path,
                                                     DictionaryOptions options) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fmt::format("cannot open word list {}: {}", path, std::strerror(errno));
    // Read at most one byte past the limit: /dev/zero or a log file given by mistake must not
    // take the host's memory.
    std::string contents;
    char chunk[1 << 16];
    while (contents.size() <= max_word_file_bytes && in.read(chunk, sizeof chunk).gcount() > 0)
        contents.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (in.bad())
        return fmt::format("cannot read word list {}", path);
    if (contents.size() > max_word_file_bytes)
        return fmt::format("word list {} is larger than {} MiB: is it a word list?", path,
                           max_word_file_bytes >> 20);
    Dictionary dict = Dictionary::from_text(contents, options);
    const Dictionary::Stats& stats = dict.stats();
    if (stats.words == 0)
        return fmt::format("word list {} holds no words ({} lines skipped)", path, stats.skipped);
    if (stats.skipped > stats.words + stats.duplicates)
        return fmt::format(
            "word list {} is mostly not words: {} of its {} lines are not all letters (the first "
            "is line {}); give a list of one word a line",
            path, stats.skipped, stats.skipped + stats.words + stats.duplicates,
            stats.first_skipped_line);
    return dict;
}

}  // namespace bg
