#include "wordlist/default_wordlist.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "core/judge.hpp"

TEST_CASE("default word list: real English words, no proper nouns", "[wordlist]") {
    const auto& dict = bg::default_wordlist();
    CHECK(dict.stats().words > 100000);
    for (const char* word : {"HATE", "HER", "ARTY", "BANANA", "QUIZ", "ZEBRA", "ZYGOTE"}) {
        INFO(word);
        CHECK(dict.contains(word));
    }
    for (const char* word : {"XQZ", "ARTYY", "PARIS", "NASA"}) {
        INFO(word);
        CHECK_FALSE(dict.contains(word));
    }
}

TEST_CASE("default word list: judges the spec's example", "[wordlist]") {
    const auto grid = std::get<bg::Grid>(bg::parse_grid("003005..AHERA.TT.YE.."));
    CHECK(bg::judge(grid, *bg::LetterCounts::from_letters("AAEEHRTTY"), bg::default_wordlist())
              .legal());
}

TEST_CASE("default word list: the protocol document's example grids are judged as it says",
          "[wordlist]") {
    std::ifstream file(BG_SOURCE_DIR "/protocol-v2.md");
    std::stringstream text;
    text << file.rdbuf();
    const std::string doc = text.str();
    std::smatch hand_match;
    REQUIRE(std::regex_search(
        doc, hand_match,
        std::regex("Examples with the default word list, for a hand of `([A-Z]+)`")));
    const auto hand = *bg::LetterCounts::from_letters(hand_match[1].str());
    const std::regex row(R"(\| `(\d{6}[A-Z.]*)` \| [^|]* \| ([^|]*) \|)");
    int rows = 0;
    for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator();
         ++it, ++rows) {
        const std::string grid_text = (*it)[1].str(), judged = (*it)[2].str();
        INFO(grid_text << ": " << judged);
        const auto grid = std::get<bg::Grid>(bg::parse_grid(grid_text));
        const auto verdict = bg::judge(grid, hand, bg::default_wordlist());
        using Kind = bg::Verdict::Kind;
        const Kind expected = judged.starts_with("legal")                      ? Kind::legal
                              : judged.find("not a word") != std::string::npos ? Kind::not_a_word
                              : judged.find("joined to nothing") != std::string::npos
                                  ? Kind::disconnected
                                  : Kind::wrong_tiles;
        CHECK(verdict.kind == expected);
    }
    CHECK(rows == 4);
}
