#include "core/dictionary.hpp"
#include "wordlist/word_file.hpp"

#include <cstdio>
#include <fstream>

#include <catch2/catch.hpp>

using bg::Dictionary;

TEST_CASE("dictionary: words are found case-insensitively, others are not", "[dictionary]") {
    const auto dict = Dictionary::from_text("hate\nHer\nARTY\nqi\n");
    CHECK(dict.contains("HATE"));
    CHECK(dict.contains("HER"));
    CHECK(dict.contains("ARTY"));
    CHECK(dict.contains("QI"));
    CHECK_FALSE(dict.contains("HAT"));
    CHECK_FALSE(dict.contains("HATES"));
    CHECK_FALSE(dict.contains(""));
    CHECK_FALSE(dict.contains(std::string(300, 'A')));
    CHECK(dict.stats().words == 4);
    CHECK(dict.stats().skipped == 0);
    CHECK(dict.words() == std::vector<std::string>{"HATE", "HER", "ARTY", "QI"});
}

TEST_CASE("dictionary: lines that are not all letters are skipped and counted", "[dictionary]") {
    const auto dict = Dictionary::from_text("cat\ndog's\n\nre-do\ncafé\nbird\r\nx y\n\n" +
                                            std::string(256, 'a') + "\n" + std::string(255, 'b'));
    CHECK(dict.contains("CAT"));
    CHECK(dict.contains("BIRD"));  // CRLF line endings are accepted
    CHECK(dict.contains(std::string(255, 'B')));
    CHECK_FALSE(dict.contains("DOGS"));
    CHECK_FALSE(dict.contains("REDO"));
    CHECK(dict.stats().words == 3);
    CHECK(dict.stats().skipped == 5);
    CHECK(dict.stats().first_skipped_line == 2);
}

TEST_CASE("dictionary: duplicates after case folding are kept once", "[dictionary]") {
    const auto dict = Dictionary::from_text("Bob\nbob\nBOB\nalice");
    CHECK(dict.stats().words == 2);
    CHECK(dict.stats().duplicates == 2);
    CHECK(dict.contains("BOB"));
    CHECK(dict.stats().fingerprint == Dictionary::from_text("ALICE\nbob").stats().fingerprint);
    CHECK(dict.stats().fingerprint != Dictionary::from_text("alice\nbobs").stats().fingerprint);
}

TEST_CASE("dictionary: lowercase_only drops capitalised entries", "[dictionary]") {
    const auto dict =
        Dictionary::from_text("Paris\nparis\nNASA\nrome\nRome", {.lowercase_only = true});
    CHECK(dict.contains("PARIS"));
    CHECK(dict.contains("ROME"));
    CHECK_FALSE(dict.contains("NASA"));
    CHECK(dict.stats().words == 2);
    CHECK(dict.stats().skipped == 3);
}

TEST_CASE("dictionary: an image round-trips and is used in place", "[dictionary]") {
    std::string text;
    for (int i = 0; i < 5000; ++i)
        text.append("w").append(std::to_string(i * 7919)).append("\n");  // all skipped
    for (char a = 'a'; a <= 'z'; ++a)
        for (char b = 'a'; b <= 'z'; ++b)
            text += std::string{a, b, 'x'} + "\n";
    const auto dict = Dictionary::from_text(text);
    const auto image = dict.image();
    const auto copy = Dictionary::from_image(image);
    REQUIRE(copy);
    CHECK(copy->stats().words == 26 * 26);
    CHECK(copy->stats().skipped == 5000);
    CHECK(copy->stats().fingerprint == dict.stats().fingerprint);
    CHECK(copy->contains("QZX"));
    CHECK(copy->contains("AAX"));
    CHECK_FALSE(copy->contains("AAY"));
    CHECK(copy->image() == image);
}

TEST_CASE("dictionary: bytes that are not an image are refused", "[dictionary]") {
    auto image = Dictionary::from_text("one\ntwo").image();
    CHECK_FALSE(Dictionary::from_image({}));
    CHECK_FALSE(Dictionary::from_image(std::span(image).first(image.size() - 1)));
    auto bad_magic = image;
    bad_magic[0] = 'X';
    CHECK_FALSE(Dictionary::from_image(bad_magic));
    auto bad_slots = image;
    bad_slots[8] = 3;  // not a power of two
    CHECK_FALSE(Dictionary::from_image(bad_slots));
}

TEST_CASE("dictionary: files load, and failures say why", "[dictionary]") {
    const std::string path = "dictionary_test_words.txt";
    {
        std::ofstream out(path);
        out << "zebra\nyak\n";
    }
    auto loaded = bg::load_word_file(path);
    REQUIRE(std::holds_alternative<Dictionary>(loaded));
    CHECK(std::get<Dictionary>(loaded).contains("ZEBRA"));

    {
        std::ofstream out(path);
        out << "1234\n!!\n";
    }
    loaded = bg::load_word_file(path);
    REQUIRE(std::holds_alternative<std::string>(loaded));
    CHECK(std::get<std::string>(loaded) ==
          "word list " + path + " holds no words (2 lines skipped)");

    {
        std::ofstream out(path);
        out << "zebra\nyak\n\xff\x01\n123\n^^\n";
    }
    loaded = bg::load_word_file(path);
    REQUIRE(std::holds_alternative<std::string>(loaded));
    CHECK(std::get<std::string>(loaded) ==
          "word list " + path +
              " is mostly not words: 3 of its 5 lines are not all letters (the first is line 3); "
              "give a list of one word a line");
    std::remove(path.c_str());

    // Read no further than the limit: the host must not fill its memory from /dev/zero.
    loaded = bg::load_word_file("/dev/zero");
    REQUIRE(std::holds_alternative<std::string>(loaded));
    CHECK(std::get<std::string>(loaded) ==
          "word list /dev/zero is larger than 64 MiB: is it a word list?");

    loaded = bg::load_word_file("/nonexistent/words");
    REQUIRE(std::holds_alternative<std::string>(loaded));
    CHECK(std::get<std::string>(loaded) ==
          "cannot open word list /nonexistent/words: No such file or directory");
}

TEST_CASE("dictionary: an empty list makes an image too", "[dictionary]") {
    // Found by fuzz_dictionary: the image of a list with no words copied from a null blob.
    const auto empty = Dictionary::from_text("");
    const auto image = empty.image();  // a dictionary over an image uses its bytes in place
    const auto copy = Dictionary::from_image(image);
    REQUIRE(copy);
    CHECK(copy->stats().words == 0);
    CHECK_FALSE(copy->contains("A"));
}
