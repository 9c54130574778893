// The programs' messages (cli/log.hpp): each line under the program's name, those below the
// level BANANAGRAMS_LOG_LEVEL names left out, and the journal's priorities where stderr is the
// journal's stream.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "cli/log.hpp"

using namespace bg;

namespace {

// What the messages said while `f` ran, with the environment as given.
template <class F>
std::string said_with(const char* level, bool journal, F f) {
    char* text = nullptr;
    std::size_t size = 0;
    std::FILE* memory = open_memstream(&text, &size);
    REQUIRE(memory);
    Console console(memory);
    if (level)
        ::setenv("BANANAGRAMS_LOG_LEVEL", level, 1);
    else
        ::unsetenv("BANANAGRAMS_LOG_LEVEL");
    struct stat status {};
    REQUIRE(::fstat(2, &status) == 0);
    if (journal)
        ::setenv("JOURNAL_STREAM", fmt::format("{}:{}", status.st_dev, status.st_ino).c_str(), 1);
    else
        ::unsetenv("JOURNAL_STREAM");
    log::start("prog", console);
    f();
    std::fclose(memory);
    std::string out(text, size);
    std::free(text);
    ::unsetenv("BANANAGRAMS_LOG_LEVEL");
    ::unsetenv("JOURNAL_STREAM");
    return out;
}

void every_level() {
    log::debug("a {}", 1);
    log::info("b {}", 2);
    log::warning("c");
    log::error("d\nand more");
}

}  // namespace

TEST_CASE("log: each message a line under the program's name, at info and above by default",
          "[log]") {
    CHECK(said_with(nullptr, false, every_level) == "prog: b 2\nprog: c\nprog: d\nand more\n");
    CHECK(said_with("debug", false, every_level) ==
          "prog: a 1\nprog: b 2\nprog: c\nprog: d\nand more\n");
    CHECK(said_with("warning", false, every_level) == "prog: c\nprog: d\nand more\n");
    CHECK(said_with("error", false, every_level) == "prog: d\nand more\n");
}

TEST_CASE("log: a level that is none is said, and info is kept", "[log]") {
    CHECK(said_with("loud", false, every_level) ==
          "prog: BANANAGRAMS_LOG_LEVEL is debug, info, warning or error, not 'loud': info it "
          "is\nprog: b 2\nprog: c\nprog: d\nand more\n");
}

TEST_CASE("log: where stderr is the journal's stream, each line carries its priority", "[log]") {
    CHECK(said_with("debug", true, every_level) ==
          "<7>prog: a 1\n<6>prog: b 2\n<4>prog: c\n<3>prog: d\n<3>and more\n");
    // Another stream named: not the journal.
    CHECK(said_with(nullptr, false, [] {
              ::setenv("JOURNAL_STREAM", "1:2", 1);
              log::info("x");
          }) == "prog: x\n");
}
