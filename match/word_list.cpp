#include "match/word_list.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

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
    return [&loaded](const GameSetup& setup) {
        return recorded_word_list(setup.dictionary, setup.dictionary_fingerprint, loaded);
    };
}

namespace fs = std::filesystem;

namespace {

bool readable_file(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
           ::access(path.c_str(), R_OK) == 0;
}

// The built-in list's file: installed beside the host (bin/../share/bananagrams-host/wordlist),
// else the one it was compiled from; "" when neither is here.
std::string builtin_list_file() {
    const fs::path source = default_wordlist_source();
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (!error) {
        const fs::path installed = self.parent_path().parent_path() / "share" / "bananagrams-host" /
                                   "wordlist" / source.filename();
        if (readable_file(installed))
            return installed.string();
    }
    return readable_file(source) ? source.string() : "";
}

}  // namespace

bool readable_by_anyone(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !(info.st_mode & S_IROTH))
        return false;
    for (fs::path dir = fs::path(path).parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (::stat(dir.c_str(), &info) != 0 || !(info.st_mode & S_IXOTH))
            return false;
        if (dir == dir.root_path())
            break;
    }
    return true;
}

std::variant<PlayersWordList, std::string> PlayersWordList::make(const std::string& dict,
                                                                 const Dictionary& dictionary,
                                                                 bool others_read) {
    PlayersWordList list;
    std::error_code error;
    // Real: a sandbox binds it where it really is, and a link may point out of its /tmp.
    // A list an earlier host had built in (a tournament resumed on it) is copied: its file holds
    // words it left out.
    const bool builtin = dictionary.stats().fingerprint == default_wordlist().stats().fingerprint;
    const std::string named = !dict.empty() ? dict : builtin ? builtin_list_file() : "";
    const std::string file = named.empty() ? "" : fs::canonical(named, error).string();
    if (!file.empty() && !error && (!others_read || readable_by_anyone(file))) {
        list.path_ = file;
        return list;
    }
    // A copy of its own, in a folder anyone may enter, of the words the game is judged by.
    const char* tmpdir = std::getenv("TMPDIR");
    std::string dir =
        fmt::format("{}/bananagrams-words-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!::mkdtemp(dir.data()))
        return fmt::format("cannot make a folder for the players' copy of the word list in {}: {}",
                           fs::path(dir).parent_path().string(), std::strerror(errno));
    list.copy_dir_ = dir;
    list.path_ = dir + "/words.txt";
    std::string text;
    for (const auto& word : dictionary.words())
        text.append(word).push_back('\n');
    std::FILE* out = std::fopen(list.path_.c_str(), "we");
    const bool written = out && std::fwrite(text.data(), 1, text.size(), out) == text.size();
    const bool closed = out && std::fclose(out) == 0;
    if (!written || !closed || ::chmod(list.path_.c_str(), 0644) != 0 ||
        ::chmod(dir.c_str(), 0755) != 0)
        return fmt::format("cannot write the players' copy of the word list {}: {}", list.path_,
                           std::strerror(errno));
    return list;
}

PlayersWordList::PlayersWordList(PlayersWordList&& other) noexcept
    : path_(std::move(other.path_)), copy_dir_(std::exchange(other.copy_dir_, {})) {}

PlayersWordList::~PlayersWordList() {
    if (copy_dir_.empty())
        return;
    std::error_code ignored;
    fs::remove_all(copy_dir_, ignored);
}

}  // namespace bg
