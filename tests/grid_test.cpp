#include "core/grid.hpp"

#include <catch2/catch.hpp>

using bg::Grid;
using bg::GridError;
using Kind = bg::GridError::Kind;

namespace {

Grid parsed(std::string_view text) {
    auto result = bg::parse_grid(text);
    const auto* error = std::get_if<GridError>(&result);
    INFO("parse error: " << (error ? error->message : ""));
    REQUIRE(std::holds_alternative<Grid>(result));
    return std::get<Grid>(result);
}

GridError failed(std::string_view text) {
    auto result = bg::parse_grid(text);
    REQUIRE(std::holds_alternative<GridError>(result));
    return std::get<GridError>(result);
}

}  // namespace

TEST_CASE("grid: the spec's examples parse", "[grid]") {
    const Grid small = parsed("003005..AHERA.TT.YE..");
    CHECK(small.width == 3);
    CHECK(small.height == 5);
    CHECK(small.at(2, 0) == 'A');
    CHECK(small.at(0, 1) == 'H');
    CHECK(small.at(0, 4) == 'E');
    CHECK(small.at(1, 4) == '.');

    const Grid padded = parsed("006007..........A...HER...A.T...T.Y...E.........");
    CHECK(padded.width == 6);
    CHECK(padded.height == 7);
    CHECK(padded.at(4, 1) == 'A');
    CHECK(padded.at(2, 5) == 'E');
}

TEST_CASE("grid: serialise is the inverse of parse", "[grid]") {
    for (const char* text : {"003005..AHERA.TT.YE..", "001001A", "000000", "002000", "000003",
                             "010001..........", "001003A.B"}) {
        CHECK(bg::serialise(parsed(text)) == text);
    }
    CHECK(bg::serialise(Grid{12, 1, "ABCDEFGHIJKL"}) == "012001ABCDEFGHIJKL");
}

TEST_CASE("grid: every malformation has its own precise error", "[grid]") {
    SECTION("too short for the size") {
        const auto e = failed("0030");
        CHECK(e.kind == Kind::short_header);
        CHECK(e.message == "grid needs a 6-digit size (width xxx, height yyy), got \"0030\"");
        CHECK(failed("").kind == Kind::short_header);
    }
    SECTION("a size byte that is not a digit") {
        auto e = failed("0a3005..AHERA.TT.YE..");
        CHECK(e.kind == Kind::bad_size_digit);
        CHECK(e.offset == 1);
        CHECK(e.message == "grid width digit 2 is 'a', not 0-9");
        e = failed("003 05..AHERA.TT.YE..");
        CHECK(e.offset == 3);
        CHECK(e.message == "grid height digit 1 is a space (0x20), not 0-9");
        CHECK(failed("-03005").kind == Kind::bad_size_digit);
    }
    SECTION("too few cells") {
        const auto e = failed("003005..AHERA.TT.YE.");
        CHECK(e.kind == Kind::too_few_cells);
        CHECK(e.message == "grid of width 3 and height 5 needs 15 cells, got 14");
    }
    SECTION("too many cells") {
        const auto e = failed("003005..AHERA.TT.YE...Q");
        CHECK(e.kind == Kind::too_many_cells);
        CHECK(e.offset == 21);
        CHECK(e.message == "grid of width 3 and height 5 needs 15 cells, got 17");
    }
    SECTION("a cell that is neither a tile nor empty") {
        auto e = failed("003005..aHERA.TT.YE..");
        CHECK(e.kind == Kind::bad_cell);
        CHECK(e.offset == 8);
        CHECK(e.message == "grid cell at column 2, row 0 is 'a', not A-Z or '.'");
        e = failed("003005..AHERA.TT.Y\n..");
        CHECK(e.message == "grid cell at column 0, row 4 is a newline (0x0a), not A-Z or '.'");
        CHECK(failed("001001\xff").kind == Kind::bad_cell);
        CHECK(failed("001001 ").kind == Kind::bad_cell);
        // Empty cells are skipped eight at a time: a bad cell after them is still found, the
        // first of several is the one named, and so is one in a short tail.
        e = failed("020001........A.-x........");
        CHECK(e.offset == 6 + 10);
        CHECK(e.message == "grid cell at column 10, row 0 is '-', not A-Z or '.'");
        CHECK(failed("011001........._.").offset == 6 + 9);
        CHECK(failed("011001..........*").offset == 6 + 10);
    }
}

TEST_CASE("grid: the largest grid parses", "[grid]") {
    std::string text = "999999" + std::string(999 * 999, '.');
    text[6 + 500 * 999 + 500] = 'Q';
    const Grid big = parsed(text);
    CHECK(big.at(500, 500) == 'Q');
    CHECK(text.size() == bg::grid_max_text_size);
}
