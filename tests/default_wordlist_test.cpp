#include "wordlist/default_wordlist.hpp"

#include <catch2/catch.hpp>

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
