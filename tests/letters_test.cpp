#include "core/letters.hpp"

#include <catch2/catch.hpp>

using bg::LetterCounts;

TEST_CASE("letters: from_letters counts A-Z and rejects anything else", "[letters]") {
    const auto counts = LetterCounts::from_letters("BANANA");
    REQUIRE(counts);
    CHECK(counts->count('A') == 3);
    CHECK(counts->count('N') == 2);
    CHECK(counts->count('B') == 1);
    CHECK(counts->total() == 6);
    CHECK(counts->to_string() == "AAABNN");
    CHECK_FALSE(LetterCounts::from_letters("banana"));
    CHECK_FALSE(LetterCounts::from_letters("AB."));
    CHECK_FALSE(LetterCounts::from_letters("A B"));
    CHECK(LetterCounts::from_letters("")->empty());
}

TEST_CASE("letters: remove refuses a letter that is not there", "[letters]") {
    auto counts = *LetterCounts::from_letters("AB");
    CHECK(counts.remove('A'));
    CHECK_FALSE(counts.remove('A'));
    CHECK(counts.to_string() == "B");
}

TEST_CASE("letters: multiset arithmetic", "[letters]") {
    const auto ab = *LetterCounts::from_letters("AB");
    const auto aab = *LetterCounts::from_letters("AAB");
    const auto z = *LetterCounts::from_letters("Z");
    CHECK(aab.contains(ab));
    CHECK_FALSE(ab.contains(aab));
    CHECK_FALSE(aab.contains(z));
    auto sum = ab;
    sum += z;
    CHECK(sum.to_string() == "ABZ");
    sum -= ab;
    CHECK(sum == z);
    CHECK(aab.minus_saturating(ab).to_string() == "A");
    CHECK(ab.minus_saturating(aab).empty());
    CHECK(z.minus_saturating(ab).to_string() == "Z");
}
