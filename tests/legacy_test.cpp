#include "compat/legacy.hpp"

#include <catch2/catch.hpp>

#include "tests/support/read_bytes.hpp"

using namespace bg;

namespace {

constexpr PlayerId player = 3;

std::vector<Input> read_all(std::string_view bytes, std::size_t chunk = 1000000) {
    return test::read_all(LegacyReader(player), bytes, chunk);
}

std::string violation(std::string_view bytes) {
    return test::violation_reason(read_all(bytes), player);
}

}  // namespace

TEST_CASE("legacy: messages need no terminator, in any chunking", "[legacy]") {
    const std::string stream = "rdQp003005..AHERA.TT.YE..dZp001001A";
    const std::vector<Input> expected = {input::Ready{3}, input::Dump{3, 'Q'},
                                         input::Peel{3, "003005..AHERA.TT.YE..", {}},
                                         input::Dump{3, 'Z'}, input::Peel{3, "001001A", {}}};
    for (std::size_t chunk : {1, 2, 5, 7, 100}) {
        INFO("chunks of " << chunk);
        CHECK(read_all(stream, chunk) == expected);
    }
}

TEST_CASE("legacy: every byte the grammar does not allow is a precise violation", "[legacy]") {
    CHECK(violation("r\n") ==
          "byte 1 of its output is a newline (0x0a), where a message (r, p or d) should start");
    CHECK(violation(" r") ==
          "byte 0 of its output is a space (0x20), where a message (r, p or d) should start");
    CHECK(violation("R") ==
          "byte 0 of its output is 'R', where a message (r, p or d) should start");
    CHECK(violation("rdq") == "byte 2 of its output is 'q': d (dump) takes a letter A-Z");
    CHECK(violation("p00a") == "p (peel): grid width digit 3 is 'a', not 0-9");
    CHECK(violation("p\n") == "p (peel): grid width digit 1 is a newline (0x0a), not 0-9");
    CHECK(violation("p001001") == "its output ended in the middle of a message (7 bytes of it)");
    CHECK(violation("d") == "its output ended in the middle of a message (1 bytes of it)");
}

TEST_CASE("legacy: nothing is read after a violation", "[legacy]") {
    const auto out = read_all("rxrrr");
    REQUIRE(out.size() == 2);
    CHECK(std::holds_alternative<input::Ready>(out[0]));
    CHECK(std::holds_alternative<input::Violation>(out[1]));
}

TEST_CASE("legacy: a grid's cells are passed on for the judge, whatever they are", "[legacy]") {
    // The size frames the message; the judge names the bad cell.
    CHECK(read_all("p001002a\n") == std::vector<Input>{input::Peel{3, "001002a\n", {}}});
}

TEST_CASE("legacy: the largest grid is buffered, and no more", "[legacy]") {
    LegacyReader reader(0);
    std::vector<Input> out;
    reader.feed("p999999", out);
    reader.feed(std::string(999 * 999 - 1, '.'), out);
    CHECK(out.empty());
    CHECK(reader.buffered() == 6 + 999 * 999 - 1);
    reader.feed(".r", out);
    REQUIRE(out.size() == 2);
    CHECK(std::get<input::Peel>(out[0]).grid.size() == 6 + 999 * 999);
    CHECK(reader.buffered() == 0);
}

TEST_CASE("legacy: host messages in both dialects", "[legacy]") {
    CHECK(legacy_message(LegacyDialect::v1, "EEGK") == "EEGK.");
    CHECK(legacy_message(LegacyDialect::v0, "EEGK") == "EEGK");
    CHECK(legacy_dialect_from_string("v0") == LegacyDialect::v0);
    CHECK(legacy_dialect_from_string("v1") == LegacyDialect::v1);
    CHECK_FALSE(legacy_dialect_from_string("v2"));
}
