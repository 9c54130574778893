#include "core/text.hpp"

#include <catch2/catch.hpp>

TEST_CASE("text: bytes are quoted without control characters", "[text]") {
    CHECK(bg::quote_byte('a') == "'a'");
    CHECK(bg::quote_byte(' ') == "0x20");
    CHECK(bg::quote_byte('\n') == "0x0a");
    CHECK(bg::quote_byte('\xff') == "0xff");
    CHECK(bg::quote_bytes("ab\n\"c") == "\"ab\\x0a\\x22c\"");
    CHECK(bg::quote_bytes("abcdef", 3) == "\"abc\"... (6 bytes)");
}
