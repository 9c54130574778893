#include "arena/archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arena/store.hpp"
#include "core/text.hpp"

namespace bg::arena {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t longest_command = 1000;
constexpr std::size_t longest_path = 1024;
constexpr std::size_t longest_manifest = 64u << 10;

// A name from an archive or a manifest as a sentence shows it: at most 80 bytes of it, escaped
// as a terminal would need it (the sentence goes to the arena's log as well as to the author).
std::string shown(std::string_view text) {
    return escape_for_terminal(text.substr(0, 80)) + (text.size() > 80 ? "..." : "");
}

// The entry's path inside the folder ("" for the folder itself, "./"), or none where it would
// not stay inside: absolute, with "..", or with an empty or "." part.
std::optional<std::string> inside(std::string_view path) {
    while (path.starts_with("./"))
        path.remove_prefix(2);
    while (path.ends_with('/'))
        path.remove_suffix(1);
    if (path.empty() || path == ".")
        return std::string();
    if (path.size() > longest_path || path.starts_with('/') || !one_line(path))
        return std::nullopt;
    std::size_t from = 0;
    while (from <= path.size()) {
        const std::size_t to = std::min(path.find('/', from), path.size());
        const std::string_view part = path.substr(from, to - from);
        if (part.empty() || part == "." || part == ".." || part.size() > 255)
            return std::nullopt;
        from = to + 1;
    }
    return std::string(path);
}

// What is wrong with an entry of this type and these bits, or "" where nothing is.
std::string wrong_entry(archive_entry* entry, const std::string& path) {
    if (archive_entry_hardlink(entry))
        return fmt::format("{} is a hard link: an archive holds files and folders only",
                           shown(path));
    const auto type = archive_entry_filetype(entry);
    if (type == AE_IFLNK)
        return fmt::format("{} is a symbolic link: an archive holds files and folders only",
                           shown(path));
    if (type != AE_IFREG && type != AE_IFDIR)
        return fmt::format(
            "{} is a device, a fifo or a socket: an archive holds files and folders only",
            shown(path));
    if (archive_entry_perm(entry) & 07000)
        return fmt::format("{} has a setuid, setgid or sticky bit: a hosted bot's files have none",
                           shown(path));
    return "";
}

using Reader = std::unique_ptr<archive, decltype(&archive_read_free)>;

// Reads the archive's entries into `into`, which exists and is empty.
class Unpacker {
  public:
    Unpacker(archive* reader, fs::path into, const ArchiveLimits& limits)
        : reader_(reader), into_(std::move(into)), limits_(limits) {}

    std::optional<ArchiveRefusal> run() {
        archive_entry* entry = nullptr;
        while (true) {
            const int read = archive_read_next_header(reader_, &entry);
            if (read == ARCHIVE_EOF)
                return std::nullopt;
            if (read < ARCHIVE_WARN)
                return unreadable();
            if (++entries_ > limits_.entries)
                return ArchiveRefusal{
                    413, "archive-too-many-entries",
                    fmt::format("the archive holds more than {} files and folders, its most",
                                limits_.entries)};
            if (auto refused = take(entry))
                return refused;
        }
    }
    std::size_t entries() const { return entries_; }
    std::uint64_t bytes() const { return bytes_; }

  private:
    std::optional<ArchiveRefusal> take(archive_entry* entry) {
        const char* raw = archive_entry_pathname(entry);
        const auto path = inside(raw ? raw : "");
        if (!path)
            return ArchiveRefusal{400, "archive-path",
                                  fmt::format("{}: an archive's paths are relative and stay "
                                              "inside it (no /, no .., no empty part)",
                                              shown(raw ? raw : ""))};
        if (const std::string wrong = wrong_entry(entry, *path); !wrong.empty())
            return ArchiveRefusal{400, "archive-entry", wrong};
        if (path->empty())
            return std::nullopt;  // the folder itself
        const fs::path target = into_ / *path;
        std::error_code error;
        const bool folder = archive_entry_filetype(entry) == AE_IFDIR;
        // No link is ever made inside: nothing here leads out of the folder.
        fs::create_directories(folder ? target : target.parent_path(), error);
        if (error)
            return ArchiveRefusal{400, "archive-path",
                                  fmt::format("{}: a file of the archive stands where its folder "
                                              "would be",
                                              shown(*path))};
        return folder ? std::nullopt : write(target, *path, archive_entry_perm(entry) & 0111);
    }

    std::optional<ArchiveRefusal> write(const fs::path& target, const std::string& path,
                                        bool runnable) {
        const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                              runnable ? 0755 : 0644);
        if (fd < 0)
            return ArchiveRefusal{
                400, "archive-path",
                errno == EEXIST
                    ? fmt::format("{} is in the archive twice", shown(path))
                    : fmt::format("{} cannot be written: {}", shown(path), std::strerror(errno))};
        std::array<char, 64 * 1024> buffer;
        std::optional<ArchiveRefusal> refused;
        while (!refused) {
            const la_ssize_t got = archive_read_data(reader_, buffer.data(), buffer.size());
            if (got == 0)
                break;
            if (got < 0) {
                refused = unreadable();
            } else if ((bytes_ += static_cast<std::uint64_t>(got)) > limits_.unpacked_bytes) {
                refused = ArchiveRefusal{
                    413, "archive-unpacks-too-large",
                    fmt::format("unpacked, the archive comes to more than {} bytes, its most",
                                limits_.unpacked_bytes)};
            } else if (::write(fd, buffer.data(), static_cast<std::size_t>(got)) != got) {
                refused = ArchiveRefusal{500, "archive-not-written",
                                         fmt::format("the arena could not write {}: {}",
                                                     shown(path), std::strerror(errno))};
            }
        }
        ::close(fd);
        return refused;
    }

    ArchiveRefusal unreadable() const {
        const char* said = archive_error_string(reader_);
        return {415, "not-an-archive",
                fmt::format("the archive cannot be read as a tar file, gzipped or not: {}",
                            said ? shown(said) : "no more said")};
    }

    archive* reader_;
    fs::path into_;
    const ArchiveLimits& limits_;
    std::size_t entries_ = 0;
    std::uint64_t bytes_ = 0;
};

// The manifest of the folder unpacked into `into`, or why not.
std::variant<Manifest, std::string> read_manifest(const fs::path& into) {
    const fs::path path = into / manifest_name;
    std::error_code error;
    if (!fs::is_regular_file(fs::symlink_status(path, error)))
        return fmt::format("no {} at the archive's top (what runs the bot: docs/arena.md)",
                           manifest_name);
    if (fs::file_size(path, error) > longest_manifest)
        return fmt::format("{} is longer than {} bytes", manifest_name, longest_manifest);
    return parse_manifest(read_whole(path).value_or(""));
}

}  // namespace

std::optional<std::string> read_whole(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return std::nullopt;
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad())
        return std::nullopt;
    return text.str();
}

std::variant<Manifest, std::string> parse_manifest(std::string_view text) {
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return fmt::format("{} is not a JSON object", manifest_name);
    for (const auto& [key, value] : json.items())
        if (key != "command" && key != "protocol" && key != "label")
            return fmt::format("{}: '{}' is not a manifest's key (command, protocol, label)",
                               manifest_name, shown(key));
    const auto text_of = [&](const char* key) -> std::optional<std::string> {
        const auto found = json.find(key);
        if (found == json.end() || !found->is_string())
            return std::nullopt;
        return found->get<std::string>();
    };
    Manifest manifest;
    const auto command = text_of("command");
    if (!command || command->empty() || command->size() > longest_command || !one_line(*command))
        return fmt::format(
            "{}: \"command\" is what runs the bot (sh -c, in its folder): 1 to {} "
            "characters on one line",
            manifest_name, longest_command);
    manifest.command = *command;
    if (json.contains("protocol")) {
        const auto protocol = text_of("protocol");
        if (protocol != "v1" && protocol != "v2")
            return fmt::format("{}: \"protocol\" is \"v2\" (the default) or \"v1\"", manifest_name);
        manifest.protocol = *protocol;
    }
    if (json.contains("label")) {
        const auto label = text_of("label");
        if (!label || !valid_version_label(*label))
            return fmt::format("{}: \"label\" is up to 64 printable characters, no spaces",
                               manifest_name);
        manifest.label = *label;
    }
    return manifest;
}

std::variant<Unpacked, ArchiveRefusal> unpack_archive(std::string_view archive,
                                                      const fs::path& into,
                                                      const ArchiveLimits& limits) {
    if (archive.size() > limits.archive_bytes)
        return ArchiveRefusal{413, "archive-too-large",
                              fmt::format("the archive is {} bytes: at most {}", archive.size(),
                                          limits.archive_bytes)};
    std::error_code error;
    if (!fs::create_directory(into, error) || error)
        return ArchiveRefusal{500, "archive-not-written",
                              fmt::format("the arena could not make the bot's folder: {}",
                                          error ? error.message() : "it is there already")};
    const auto refuse = [&](ArchiveRefusal refusal) {
        fs::remove_all(into, error);
        return refusal;
    };
    Reader reader(archive_read_new(), archive_read_free);
    archive_read_support_filter_gzip(reader.get());
    archive_read_support_format_tar(reader.get());
    if (archive_read_open_memory(reader.get(), archive.data(), archive.size()) != ARCHIVE_OK)
        return refuse(
            {415, "not-an-archive", "the archive cannot be read as a tar file, gzipped or not"});
    Unpacker unpacker(reader.get(), into, limits);
    if (auto refused = unpacker.run())
        return refuse(std::move(*refused));
    auto manifest = read_manifest(into);
    if (auto* why = std::get_if<std::string>(&manifest))
        return refuse({400, "archive-manifest", std::move(*why)});
    return Unpacked{token_hash(std::string(archive)), std::get<Manifest>(std::move(manifest)),
                    unpacker.entries(), unpacker.bytes()};
}

}  // namespace bg::arena
