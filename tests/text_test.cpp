#include "core/text.hpp"

#include <catch2/catch.hpp>

TEST_CASE("text: bytes are quoted without control characters", "[text]") {
    CHECK(bg::quote_byte('a') == "'a'");
    CHECK(bg::quote_byte(' ') == "a space (0x20)");
    CHECK(bg::quote_byte('\n') == "a newline (0x0a)");
    CHECK(bg::quote_byte('\n', bg::ByteNames::codes) == "0x0a");
    CHECK(bg::quote_byte('\t') == "a tab (0x09)");
    CHECK(bg::quote_byte('\r') == "a carriage return (0x0d)");
    CHECK(bg::quote_byte('\0') == "a NUL byte (0x00)");
    CHECK(bg::quote_byte('\x1b') == "a control character (0x1b)");
    CHECK(bg::quote_byte('\xff') == "a byte outside ASCII (0xff)");
    CHECK(bg::quote_bytes("ab\n\"c") == "\"ab\\x0a\\x22c\"");
    CHECK(bg::quote_bytes("abcdef", 3) == "\"abc\"... (6 bytes)");
}

TEST_CASE("text: UTF-8 is told from other bytes", "[text]") {
    CHECK(bg::valid_utf8(""));
    CHECK(bg::valid_utf8("plain ASCII"));
    CHECK(bg::valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8d\x8c"));  // é € 🍌
    CHECK_FALSE(bg::valid_utf8("\xff"));
    CHECK_FALSE(bg::valid_utf8("\xc3"));              // cut off
    CHECK_FALSE(bg::valid_utf8("\xc0\xaf"));          // overlong '/'
    CHECK_FALSE(bg::valid_utf8("\xed\xa0\x80"));      // a surrogate
    CHECK_FALSE(bg::valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
}

TEST_CASE("text: nothing a player writes can drive the terminal", "[text]") {
    using bg::escape_for_terminal;
    CHECK(escape_for_terminal("peel 3, caf\xc3\xa9") == "peel 3, caf\xc3\xa9");
    // Erase the line and write a fake one; set the clipboard (OSC 52); a C1 CSI.
    CHECK(escape_for_terminal("\x1b[2K\rgame over") == "\\x1b[2K\\x0dgame over");
    CHECK(escape_for_terminal("\x1b]52;c;aGk=\x07") == "\\x1b]52;c;aGk=\\x07");
    CHECK(escape_for_terminal("\xc2\x9b"
                              "31m") == "\\x9b31m");
    CHECK(escape_for_terminal("a\xff\xfe") == "a\\xff\\xfe");
    CHECK(escape_for_terminal("\xe2\x80\xae"
                              "evil") == "\\u{202e}evil");  // right-to-left override
    // A backslash is doubled, so that no escape can be faked by writing one.
    CHECK(escape_for_terminal("\\x1b") == "\\\\x1b");
}
