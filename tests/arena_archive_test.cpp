// A hosted bot's archive (arena/archive.hpp): a good one unpacked whole with its manifest; each
// hostile one refused with its own kind, and nothing of it left behind. The archives are made
// here with libarchive's writer, entry by entry, as a hostile author's tool would make them.
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "arena/archive.hpp"
#include "arena/store.hpp"

using namespace bg::arena;
namespace fs = std::filesystem;

namespace {

// One entry of an archive to make: a file (its bytes), a folder, or a link of either kind.
struct Item {
    std::string path;
    std::string bytes;
    unsigned type = AE_IFREG;
    unsigned mode = 0644;
    std::string link;  // a symbolic link's target, or a hard link's
    bool hard = false;
};

Item file(std::string path, std::string bytes, unsigned mode = 0644) {
    return {std::move(path), std::move(bytes), AE_IFREG, mode, "", false};
}

const std::string good_manifest = R"({"command": "python3 bot.py", "label": "v1.2"})";

// The archive of `entries`, gzipped (or not).
std::string make_archive(const std::vector<Item>& entries, bool gzip = true) {
    std::vector<char> out(64u << 20);
    std::size_t used = 0;
    std::unique_ptr<archive, decltype(&archive_write_free)> writer(archive_write_new(),
                                                                   archive_write_free);
    if (gzip)
        archive_write_add_filter_gzip(writer.get());
    archive_write_set_format_pax_restricted(writer.get());
    REQUIRE(archive_write_open_memory(writer.get(), out.data(), out.size(), &used) == ARCHIVE_OK);
    for (const Item& e : entries) {
        std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(),
                                                                            archive_entry_free);
        archive_entry_set_pathname(entry.get(), e.path.c_str());
        archive_entry_set_filetype(entry.get(), e.type);
        archive_entry_set_perm(entry.get(), e.mode);
        if (e.type == AE_IFLNK)
            archive_entry_set_symlink(entry.get(), e.link.c_str());
        if (e.hard)
            archive_entry_set_hardlink(entry.get(), e.link.c_str());
        if (e.type == AE_IFCHR)
            archive_entry_set_rdev(entry.get(), makedev(1, 3));
        archive_entry_set_size(entry.get(), static_cast<la_int64_t>(e.hard ? 0 : e.bytes.size()));
        REQUIRE(archive_write_header(writer.get(), entry.get()) == ARCHIVE_OK);
        if (!e.bytes.empty() && !e.hard)
            REQUIRE(archive_write_data(writer.get(), e.bytes.data(), e.bytes.size()) ==
                    static_cast<la_ssize_t>(e.bytes.size()));
    }
    REQUIRE(archive_write_close(writer.get()) == ARCHIVE_OK);
    return std::string(out.data(), used);
}

struct Scratch {
    Scratch() {
        const char* tmp = std::getenv("TMPDIR");
        base = fs::path(tmp ? tmp : "/tmp") /
               ("bg-archive-test-" + std::to_string(::getpid()) + "-" + std::to_string(++count));
        fs::create_directories(base);
    }
    ~Scratch() { fs::remove_all(base); }
    fs::path base;
    fs::path into() const { return base / "bot"; }
    static inline int count = 0;
};

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The kind of the refusal of `archive`, having checked that nothing of it was left.
std::string refused(const std::string& archive, const ArchiveLimits& limits = {}) {
    Scratch scratch;
    const auto got = unpack_archive(archive, scratch.into(), limits);
    REQUIRE(std::holds_alternative<ArchiveRefusal>(got));
    CHECK(!fs::exists(scratch.into()));
    const auto& refusal = std::get<ArchiveRefusal>(got);
    CHECK(!refusal.why.empty());
    INFO(refusal.why);
    return refusal.kind;
}

}  // namespace

TEST_CASE("arena: a hosted bot's archive is unpacked whole, its manifest read, kept by its digest",
          "[arena][archive]") {
    Scratch scratch;
    const std::string archive = make_archive({
        {"./", "", AE_IFDIR, 0755, "", false},
        file("./bananagrams.json", good_manifest),
        file("./bot.py", "print('r')\n", 0755),
        {"lib", "", AE_IFDIR, 0755, "", false},
        file("lib/words.txt", "AA\nAB\n"),
        file("deep/er/still.txt", "x"),  // its folders made as they are needed
    });
    const auto got = unpack_archive(archive, scratch.into());
    REQUIRE(std::holds_alternative<Unpacked>(got));
    const auto& unpacked = std::get<Unpacked>(got);
    CHECK(unpacked.sha256 == token_hash(archive));
    CHECK(unpacked.manifest.command == "python3 bot.py");
    CHECK(unpacked.manifest.protocol == "v2");
    CHECK(unpacked.manifest.label == "v1.2");
    CHECK(unpacked.entries == 6);
    CHECK(read(scratch.into() / "lib/words.txt") == "AA\nAB\n");
    CHECK(read(scratch.into() / "deep/er/still.txt") == "x");
    // Whether it may be run is kept; nothing else of its mode.
    CHECK((fs::status(scratch.into() / "bot.py").permissions() & fs::perms::owner_exec) !=
          fs::perms::none);
    CHECK((fs::status(scratch.into() / "lib/words.txt").permissions() & fs::perms::owner_exec) ==
          fs::perms::none);
    // Not gzipped: the same.
    Scratch plain;
    CHECK(std::holds_alternative<Unpacked>(unpack_archive(
        make_archive({file("bananagrams.json", good_manifest)}, false), plain.into())));
}

TEST_CASE("arena: a hostile archive is refused whole, with its own kind, and leaves nothing",
          "[arena][archive]") {
    const Item manifest = file("bananagrams.json", good_manifest);
    // Links of either kind, out of the folder or not.
    CHECK(refused(make_archive({manifest, {"out", "", AE_IFLNK, 0777, "/etc/passwd", false}})) ==
          "archive-entry");
    CHECK(
        refused(make_archive({manifest, {"in", "", AE_IFLNK, 0777, "bananagrams.json", false}})) ==
        "archive-entry");
    CHECK(refused(make_archive({manifest, {"hard", "", AE_IFREG, 0644, "/etc/passwd", true}})) ==
          "archive-entry");
    // A device, a fifo; a setuid, a setgid, a sticky bit.
    CHECK(refused(make_archive({manifest, {"null", "", AE_IFCHR, 0666, "", false}})) ==
          "archive-entry");
    CHECK(refused(make_archive({manifest, {"pipe", "", AE_IFIFO, 0644, "", false}})) ==
          "archive-entry");
    CHECK(refused(make_archive({manifest, file("bot", "x", 04755)})) == "archive-entry");
    CHECK(refused(make_archive({manifest, file("bot", "x", 02755)})) == "archive-entry");
    CHECK(refused(make_archive({manifest, {"tmp", "", AE_IFDIR, 01777, "", false}})) ==
          "archive-entry");
    // Paths that leave the folder, or say one thing twice.
    CHECK(refused(make_archive({manifest, file("/etc/cron.d/x", "x")})) == "archive-path");
    CHECK(refused(make_archive({manifest, file("../x", "x")})) == "archive-path");
    CHECK(refused(make_archive({manifest, file("a/../../x", "x")})) == "archive-path");
    CHECK(refused(make_archive({manifest, file("a//x", "x")})) == "archive-path");
    CHECK(refused(make_archive({manifest, file("bot.py", "1"), file("bot.py", "2")})) ==
          "archive-path");
    CHECK(refused(make_archive({manifest, file("a", "x"), file("a/b", "y")})) == "archive-path");
    // Too large as sent, unpacked (a bomb: a few KiB of gzip that unpack to MiBs), or too many
    // entries.
    ArchiveLimits small;
    small.archive_bytes = 64u << 10;
    small.unpacked_bytes = 1u << 20;
    small.entries = 100;
    const std::string bomb = make_archive({manifest, file("zeros", std::string(8u << 20, '\0'))});
    CHECK(bomb.size() < small.archive_bytes);
    CHECK(refused(bomb, small) == "archive-unpacks-too-large");
    std::string noise;
    for (std::uint32_t x = 1; noise.size() < (100u << 10);) {
        x = x * 1664525u + 1013904223u;
        noise += static_cast<char>(x >> 24);
    }
    CHECK(refused(make_archive({manifest, file("noise", noise)}), small) == "archive-too-large");
    std::vector<Item> many = {manifest};
    for (int i = 0; i < 100; ++i)
        many.push_back(file("f" + std::to_string(i), ""));
    CHECK(refused(make_archive(many), small) == "archive-too-many-entries");
    // Not an archive at all, or one cut short.
    CHECK(refused("not a tar file at all, nor gzip") == "not-an-archive");
    const std::string whole = make_archive({manifest, file("bot.py", std::string(4096, 'x'))});
    CHECK(refused(whole.substr(0, whole.size() / 2)) == "not-an-archive");
}

TEST_CASE("arena: a hosted bot's manifest says what runs it, and nothing else",
          "[arena][archive]") {
    CHECK(refused(make_archive({file("bot.py", "x")})) == "archive-manifest");  // none
    CHECK(refused(make_archive({file("bananagrams.json", "[1]")})) == "archive-manifest");
    CHECK(refused(make_archive({{"bananagrams.json", "", AE_IFDIR, 0755, "", false}})) ==
          "archive-manifest");
    const auto why = [](std::string_view text) {
        const auto got = parse_manifest(text);
        return std::holds_alternative<std::string>(got) ? std::get<std::string>(got) : "";
    };
    CHECK(why(R"({"command": "./bot"})").empty());
    CHECK(why(R"({"command": "./bot", "protocol": "v1"})").empty());
    CHECK(
        std::get<Manifest>(parse_manifest(R"({"command": "./bot", "protocol": "v1"})")).protocol ==
        "v1");
    CHECK(why(R"({})").find("\"command\"") != std::string::npos);
    CHECK(why(R"({"command": ""})").find("\"command\"") != std::string::npos);
    CHECK(why(R"({"command": "a\nb"})").find("one line") != std::string::npos);
    CHECK(why(R"({"command": "./bot", "protocol": "v3"})").find("\"protocol\"") !=
          std::string::npos);
    CHECK(why(R"({"command": "./bot", "label": "has space"})").find("\"label\"") !=
          std::string::npos);
    CHECK(why(R"({"command": "./bot", "network": true})").find("'network'") != std::string::npos);
    CHECK(why("not json").find("not a JSON object") != std::string::npos);
}
