// A hosted bot's archive, as its author submits it (docs/arena.md, "Hosting a bot"): a tar file,
// gzipped or not, read by libarchive (Debian's), holding the bot's files and, at its top, its
// manifest (bananagrams.json). It is checked as it is unpacked, and unpacked only into a folder
// of its own: files and folders alone (no link of either kind, no device, no fifo), relative
// paths that stay inside (no absolute path, no "..", no entry twice), no setuid, setgid or sticky
// bit (a file keeps only whether it may be run), and within the limits of its size, its size
// unpacked (counted as the bytes come, not as a header says) and its count of entries. Anything
// else refuses the whole archive, with a status, a kind and a sentence, and leaves nothing
// behind.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace bg::arena {

// The manifest's name, at the archive's top.
inline constexpr std::string_view manifest_name = "bananagrams.json";

struct ArchiveLimits {
    std::size_t archive_bytes = 16u << 20;     // as submitted
    std::uint64_t unpacked_bytes = 64u << 20;  // its files' bytes, together
    std::size_t entries = 2000;                // its files and folders
};

// What bananagrams.json says: {"command": the command that runs the bot, from its folder (sh
// -c, as a house bot's), "protocol": "v2" (protocol v2, which asks for any later version; the
// default) or "v1" (the original spec's), "label": the version's name (optional: up to 64
// printable characters, no spaces)}. Other keys are refused: a manifest that says what this
// document does not is a mistake worth saying.
struct Manifest {
    std::string command;
    std::string protocol = "v2";
    std::string label;
};

struct Unpacked {
    std::string sha256;  // the archive's, in hex: what it is kept by
    Manifest manifest;
    std::size_t entries = 0;
    std::uint64_t bytes = 0;  // unpacked
};

struct ArchiveRefusal {
    int status = 400;  // an HTTP status: 400 what it holds, 413 too large, 415 not an archive
    std::string kind;  // in a word or two ("archive-link", "archive-too-large", ...)
    std::string why;   // a sentence for the bot's author
};

// A file's whole bytes, or none where it cannot be read.
std::optional<std::string> read_whole(const std::filesystem::path& path);

// The manifest in `text`, or why it is not one.
std::variant<Manifest, std::string> parse_manifest(std::string_view text);

// `archive` unpacked into `into` (made here: it must not exist; its parent must) and its
// manifest read, or why not (and then nothing of it is left at `into`).
std::variant<Unpacked, ArchiveRefusal> unpack_archive(std::string_view archive,
                                                      const std::filesystem::path& into,
                                                      const ArchiveLimits& limits = {});

}  // namespace bg::arena
