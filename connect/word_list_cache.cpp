#include "connect/word_list_cache.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "core/dictionary.hpp"

namespace bg::connect {

namespace fs = std::filesystem;

std::uint64_t word_list_fingerprint(std::string_view text) {
    return Dictionary::from_text(text).stats().fingerprint;
}

std::variant<WordListCache, std::string> WordListCache::open() {
    WordListCache cache;
    std::string base;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home == '/')
        base = std::string(home) + "/.cache";
    std::error_code error;
    if (!base.empty()) {
        cache.folder_ = base + "/bananagrams-connect";
        fs::create_directories(cache.folder_, error);
        if (!error)
            return cache;
    }
    std::string temporary =
        (fs::temp_directory_path(error) / "bananagrams-connect-XXXXXX").string();
    if (error || !::mkdtemp(temporary.data()))
        return fmt::format("no folder to keep the word list in ({})",
                           error ? error.message() : std::strerror(errno));
    cache.folder_ = temporary;
    cache.own_ = true;
    return cache;
}

WordListCache::WordListCache(WordListCache&& other) noexcept
    : folder_(std::move(other.folder_)), own_(std::exchange(other.own_, false)) {}

WordListCache::~WordListCache() {
    if (own_) {
        std::error_code ignored;
        fs::remove_all(folder_, ignored);
    }
}

std::string WordListCache::path_of(std::uint64_t fingerprint) const {
    return fmt::format("{}/wordlist-{:016x}.txt", folder_, fingerprint);
}

std::optional<std::string> WordListCache::find(std::uint64_t fingerprint) const {
    const std::string path = path_of(fingerprint);
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return std::nullopt;
    const std::string text((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    if (word_list_fingerprint(text) != fingerprint)
        return std::nullopt;
    return path;
}

std::optional<std::string> WordListCache::keep(std::uint64_t fingerprint, std::string_view text,
                                               std::string& why) const {
    const std::uint64_t found = word_list_fingerprint(text);
    if (found != fingerprint) {
        why = fmt::format(
            "the list fetched is not the one the host named (fingerprint {:016x}, not {:016x})",
            found, fingerprint);
        return std::nullopt;
    }
    const std::string path = path_of(fingerprint);
    // Written beside, then renamed: a reader never sees half a list.
    const std::string partial = fmt::format("{}.{}.partial", path, ::getpid());
    {
        std::ofstream file(partial, std::ios::binary | std::ios::trunc);
        file.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!file.flush()) {
            why = fmt::format("cannot write {}", partial);
            return std::nullopt;
        }
    }
    std::error_code error;
    fs::rename(partial, path, error);
    if (error) {
        why = fmt::format("cannot write {}: {}", path, error.message());
        fs::remove(partial, error);
        return std::nullopt;
    }
    return path;
}

}  // namespace bg::connect
