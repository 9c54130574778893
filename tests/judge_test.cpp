#include "core/judge.hpp"

#include <catch2/catch.hpp>

using bg::Grid;
using bg::LetterCounts;
using bg::Verdict;

namespace {

const bg::Dictionary& words() {
    static const auto dict = bg::Dictionary::from_text("hate\nher\narty\nqi\nat\nta\nza\n");
    return dict;
}

Grid grid(std::string_view text) {
    return std::get<Grid>(bg::parse_grid(text));
}
LetterCounts hand(std::string_view letters) {
    return *LetterCounts::from_letters(letters);
}

Verdict judged(std::string_view grid_text, std::string_view hand_letters) {
    return bg::judge(grid(grid_text), hand(hand_letters), words());
}

}  // namespace

TEST_CASE("judge: the spec's examples are legal", "[judge]") {
    const auto small = judged("003005..AHERA.TT.YE..", "AAEEHRTTY");
    CHECK(small.legal());
    CHECK(small.message.empty());
    CHECK(judged("006007..........A...HER...A.T...T.Y...E.........", "AAEEHRTTY").legal());
}

TEST_CASE("judge: the grid's tiles must be exactly the hand", "[judge]") {
    const auto missing = judged("003005..AHERA.TT.YE..", "AAEEHRTTYZ");
    CHECK(missing.kind == Verdict::Kind::wrong_tiles);
    CHECK(missing.missing.to_string() == "Z");
    CHECK(missing.extra.empty());
    CHECK(missing.message == "grid tiles are not the hand; missing from the grid: Z (1)");

    const auto extra = judged("003005..AHERA.TT.YE..", "AEEHRTTY");
    CHECK(extra.extra.to_string() == "A");
    CHECK(extra.message == "grid tiles are not the hand; not in the hand: A (1)");

    const auto both = judged("003005..AHERA.TT.YE..", "AAEEHRTTQQ");
    CHECK(both.message ==
          "grid tiles are not the hand; missing from the grid: QQ (2); not in the hand: Y (1)");

    CHECK(judged("000000", "A").kind == Verdict::Kind::wrong_tiles);
}

TEST_CASE("judge: tiles must be joined through edges", "[judge]") {
    const auto apart = judged("005001AT.TA", "AATT");
    CHECK(apart.kind == Verdict::Kind::disconnected);
    CHECK(apart.stray_x == 3);
    CHECK(apart.stray_y == 0);
    CHECK(apart.message ==
          "grid is not connected: the tile at column 3, row 0 is not joined to the one at column "
          "0, row 0");

    // Diagonal neighbours are not joined.
    CHECK(judged("002002A..T", "AT").kind == Verdict::Kind::disconnected);
    // The end of one row and the start of the next are not neighbours.
    const auto wrapped = judged("003002..AT..", "AT");
    CHECK(wrapped.kind == Verdict::Kind::disconnected);
}

TEST_CASE("judge: every run of two or more tiles must be a word", "[judge]") {
    const auto across = judged("003001TAH", "AHT");
    CHECK(across.kind == Verdict::Kind::not_a_word);
    REQUIRE(across.bad_words.size() == 1);
    CHECK(across.bad_words[0].word == "TAH");
    CHECK(across.bad_words[0].across);
    CHECK(across.message == "not in the word list: TAH (across from column 0, row 0)");

    CHECK(judged("002002ZA.T", "ATZ").legal());  // ZA across, AT down
    const auto down = judged("002002ZAT.", "ATZ");
    CHECK(down.kind == Verdict::Kind::not_a_word);
    REQUIRE(down.bad_words.size() == 1);
    CHECK_FALSE(down.bad_words[0].across);
    CHECK(down.message == "not in the word list: ZT (down from column 0, row 0)");

    // Every bad run is listed, across first.
    const auto many = judged("003003HAT.I.QIZ", "AHIIQTZ");
    CHECK(many.kind == Verdict::Kind::not_a_word);
    CHECK(many.bad_words.size() == 3);
    CHECK(many.message ==
          "not in the word list: HAT (across from column 0, row 0), QIZ (across from column 0, "
          "row 2), AII (down from column 1, row 0)");
}

TEST_CASE("judge: a lone tile is legal for a one-tile hand", "[judge]") {
    CHECK(judged("001001Q", "Q").legal());
    CHECK(judged("003003....Q....", "Q").legal());
}

TEST_CASE("judge: a huge sparse grid is judged like its compact twin", "[judge]") {
    std::string text = "999999" + std::string(999 * 999, '.');
    const std::size_t origin = 6 + 997 * 999 + 995;  // near the bottom-right corner
    text.replace(origin, 3, "HER");
    text[origin - 999 + 1] = 'T';  // T above E makes TE down, not a word
    const auto verdict = judged(text, "EHRT");
    CHECK(verdict.kind == Verdict::Kind::not_a_word);
    CHECK(verdict.message == "not in the word list: TE (down from column 996, row 996)");
    text[origin - 999 + 1] = '.';
    text[origin + 999 + 2] = 'A';  // R over A is not a word either
    CHECK(judged(text, "AEHR").kind == Verdict::Kind::not_a_word);
    text[origin + 999 + 2] = '.';
    CHECK(judged(text, "EHR").legal());
}

TEST_CASE("judge: tiles_of counts the tiles of a grid", "[judge]") {
    CHECK(bg::tiles_of(grid("003005..AHERA.TT.YE..")).to_string() == "AAEEHRTTY");
    CHECK(bg::tiles_of(grid("000000")).empty());
}
