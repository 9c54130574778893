#include "protocol/player_reader.hpp"

#include <catch2/catch.hpp>

#include "tests/support/read_bytes.hpp"

using namespace bg;

namespace {

constexpr PlayerId player = 2;

std::vector<Input> read_all(std::string_view bytes, std::size_t chunk = 1000000) {
    return test::read_all(PlayerReader(player), bytes, chunk);
}

std::string violation(std::string_view bytes) {
    return test::violation_reason(read_all(bytes), player);
}

}  // namespace

TEST_CASE("player reader: the first byte tells the protocol", "[protocol]") {
    CHECK(read_all("rdQ") == std::vector<Input>{input::Ready{2}, input::Dump{2, 'Q'}});
    CHECK(read_all("v002RDQ") ==
          std::vector<Input>{input::Hello{2, 2}, input::Ready{2}, input::Dump{2, 'Q'}});
    CHECK(violation("x") ==
          "byte 0 of its output is 'x', where r (legacy ready) or v (v2 handshake) should start");
    CHECK(violation("R") ==
          "byte 0 of its output is 'R', where r (legacy ready) or v (v2 handshake) should "
          "start: a v2 player sends v002 before anything else (v002R when ready at once)");
}

TEST_CASE("v2 reader: peels carry the number they reflect, in any chunking", "[protocol]") {
    const std::vector<Input> expected = {input::Hello{2, 2}, input::Ready{2},
                                         input::Peel{2, "003005..AHERA.TT.YE..", 12},
                                         input::Peel{2, "001001A", 0}};
    for (std::size_t chunk : {1, 3, 8, 100}) {
        INFO("chunks of " << chunk);
        CHECK(read_all("v002RP0012003005..AHERA.TT.YE..P0000001001A", chunk) == expected);
    }
    // A version the host does not know is passed on: the host answers with the one it speaks.
    CHECK(read_all("v007") == std::vector<Input>{input::Hello{2, 7}});
    // So is one before 2: the rules refuse it in v2, with an E (game_test).
    CHECK(read_all("v001") == std::vector<Input>{input::Hello{2, 1}});
}

TEST_CASE("v2 reader: precise violations", "[protocol]") {
    CHECK(violation("v0a2") ==
          "byte 2 of its output is 'a', where a digit of the version (v + 3 digits) should be");
    CHECK(violation("v002Rp003005") ==
          "byte 5 of its output is the legacy message 'p' after a v2 handshake (v2 speaks R, P and "
          "D)");
    CHECK(violation("v002r") ==
          "byte 4 of its output is the legacy message 'r' after a v2 handshake (v2 speaks R, P and "
          "D)");
    CHECK(violation("v002RP00x") ==
          "byte 8 of its output is 'x', where a digit of the peel number (P + 4 digits) should be");
    CHECK(violation("v002RP0001 ") == "P (peel): grid width digit 1 is a space (0x20), not 0-9");
    CHECK(violation("v002Dq") == "byte 5 of its output is 'q': D (dump) takes a letter A-Z");
    CHECK(violation("v002R\n") ==
          "byte 5 of its output is a newline (0x0a), where a v2 message (R, P or D) should start");
    CHECK(violation("v002RP0001001") == "its output ended in the middle of a message");
}
