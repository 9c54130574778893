// Build-time tool: turns a newline-separated word list into the dictionary image that the host
// embeds as its default word list.
#include <cstdio>
#include <fstream>
#include <string>
#include <variant>

#include <fmt/format.h>

#include "wordlist/word_file.hpp"

int main(int argc, char** argv) {
    bg::Dictionary::Options options;
    int arg = 1;
    if (arg < argc && std::string(argv[arg]) == "--lowercase-only") {
        options.lowercase_only = true;
        ++arg;
    }
    if (argc - arg != 2) {
        fmt::print(stderr, "usage: {} [--lowercase-only] WORDLIST IMAGE\n", argv[0]);
        return 2;
    }
    auto loaded = bg::load_word_file(argv[arg], options);
    if (auto* error = std::get_if<std::string>(&loaded)) {
        fmt::print(stderr, "compile_wordlist: {}\n", *error);
        return 1;
    }
    const auto& dict = std::get<bg::Dictionary>(loaded);
    const auto image = dict.image();
    std::ofstream out(argv[arg + 1], std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(image.data()),
              static_cast<std::streamsize>(image.size()));
    out.close();
    if (!out) {
        fmt::print(stderr, "compile_wordlist: cannot write {}\n", argv[arg + 1]);
        return 1;
    }
    fmt::print("compile_wordlist: {} words ({} lines skipped, {} duplicates), {} bytes\n",
               dict.stats().words, dict.stats().skipped, dict.stats().duplicates, image.size());
    return 0;
}
