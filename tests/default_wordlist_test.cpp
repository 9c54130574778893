#include "wordlist/default_wordlist.hpp"

#include <catch2/catch.hpp>

#include <dirent.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/judge.hpp"
#include "wordlist/word_file.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

const char* const scowl_dir = "/usr/share/dict/scowl";

}  // namespace

TEST_CASE("default word list: scowl-80, the file kept in wordlist/, and its fingerprint",
          "[wordlist]") {
    const auto& dict = bg::default_wordlist();
    CHECK(std::string(bg::default_wordlist_name()) == "scowl-80");
    const auto words = lines_of(BG_SOURCE_DIR "/wordlist/scowl-80.txt");
    CHECK(words.size() == 242'788);
    CHECK(dict.stats().words == words.size());
    // A bot reading the file gets the list the host judges with.
    const auto file = bg::load_word_file(BG_SOURCE_DIR "/wordlist/scowl-80.txt");
    REQUIRE(std::holds_alternative<bg::Dictionary>(file));
    CHECK(std::get<bg::Dictionary>(file).stats().fingerprint == dict.stats().fingerprint);
    // Pinned: a change of the list is a change of every game's judging, and of its name.
    CHECK(dict.stats().fingerprint == 0x13b498d63183a9a9);
    CHECK(bg::builtin_wordlist_name(dict.stats().fingerprint) == "scowl-80");
    // Sorted, distinct, lower case a-z, two letters or more.
    CHECK(std::is_sorted(words.begin(), words.end()));
    CHECK(std::adjacent_find(words.begin(), words.end()) == words.end());
    for (const auto& word : words) {
        INFO(word);
        REQUIRE(word.size() >= 2);
        REQUIRE(word.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos);
    }
}

TEST_CASE("default word list: its two-letter words are these 101", "[wordlist]") {
    const std::set<std::string> expected = {
        "AD", "AG", "AH", "AI", "AM", "AN", "AS", "AT", "AX", "BA", "BE", "BI", "BY", "DA", "DE",
        "DO", "EF", "EH", "EM", "EN", "ER", "ES", "ET", "EX", "FA", "FE", "FY", "GE", "GO", "HA",
        "HE", "HI", "HO", "ID", "IF", "IN", "IO", "IS", "IT", "JA", "JO", "KA", "KI", "KO", "KY",
        "LA", "LO", "MA", "ME", "MI", "MU", "MY", "NA", "NE", "NO", "NU", "NY", "OD", "OF", "OH",
        "OI", "OM", "ON", "OO", "OR", "OU", "OW", "OX", "OY", "PA", "PE", "PI", "PO", "QI", "RE",
        "SE", "SH", "SI", "SO", "TA", "TE", "TI", "TO", "UG", "UH", "UM", "UN", "UP", "UR", "US",
        "UT", "WE", "WO", "XI", "XU", "YA", "YE", "YO", "YU", "ZA", "ZO"};
    REQUIRE(expected.size() == 101);
    std::set<std::string> found;
    for (const auto& word : bg::default_wordlist().words())
        if (word.size() == 2)
            found.insert(word);
    CHECK(found == expected);
    // The old default's abbreviations are gone.
    for (const char* word : {"BD", "CC", "KT", "QT", "SC", "KB", "MB", "CS"}) {
        INFO(word);
        CHECK_FALSE(bg::default_wordlist().contains(word));
    }
}

TEST_CASE("default word list: nothing SCOWL files as an abbreviation or a contraction",
          "[wordlist]") {
    // Debian's scowl package (scripts/setup installs it): every list of those kinds, every size.
    DIR* dir = opendir(scowl_dir);
    INFO("install Debian's scowl package: " << scowl_dir);
    REQUIRE(dir != nullptr);
    // SCOWL spells an entry as it is written: "ACT" (the abbreviation) is not "act" (the word),
    // and the list holds only lower-case entries (see above), so an entry is compared as it is.
    const auto words = lines_of(BG_SOURCE_DIR "/wordlist/scowl-80.txt");
    const std::set<std::string> list(words.begin(), words.end());
    int lists = 0, lower_case = 0;
    while (const dirent* entry = readdir(dir)) {
        const std::string name = entry->d_name;
        if (name.find("-abbreviations.") == std::string::npos &&
            name.find("-contractions.") == std::string::npos)
            continue;
        ++lists;
        for (const auto& line : lines_of(std::string(scowl_dir) + "/" + name)) {
            lower_case += line.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos;
            INFO(name << ": " << line);
            CHECK(list.count(line) == 0);
        }
    }
    closedir(dir);
    CHECK(lists >= 20);
    CHECK(lower_case > 1000);  // "kg", "abbr", "adj"...: the kind the old default held
}

TEST_CASE("default word list: the lists earlier hosts had built in are found by fingerprint",
          "[wordlist]") {
    std::optional<bg::Dictionary> loaded;
    const auto& dict = bg::default_wordlist();
    auto same = bg::builtin_wordlist(dict.stats().fingerprint, loaded);
    REQUIRE(std::holds_alternative<const bg::Dictionary*>(same));
    CHECK(std::get<const bg::Dictionary*>(same) == &dict);
    CHECK_FALSE(loaded);

    // Hosts up to 1.0: the lower-case lines of Debian's wamerican-large, read from its file.
    const auto formers = bg::former_defaults();
    REQUIRE(formers.size() == 1);
    CHECK(std::string(formers[0].name) == "wamerican-large");
    auto old = bg::builtin_wordlist(0x30164250aa211910, loaded);
    INFO((std::holds_alternative<std::string>(old) ? std::get<std::string>(old) : ""));
    REQUIRE(std::holds_alternative<const bg::Dictionary*>(old));
    const bg::Dictionary& former = *std::get<const bg::Dictionary*>(old);
    CHECK(former.stats().fingerprint == 0x30164250aa211910);
    CHECK(former.contains("QT"));
    CHECK_FALSE(former.contains("PARIS"));
    CHECK(bg::builtin_wordlist_name(0x30164250aa211910) == "wamerican-large");

    auto unknown = bg::builtin_wordlist(0x1234, loaded);
    REQUIRE(std::holds_alternative<std::string>(unknown));
    CHECK(std::get<std::string>(unknown).find("0000000000001234") != std::string::npos);
    CHECK_FALSE(bg::builtin_wordlist_name(0x1234));
}

TEST_CASE("default word list: real English words, no proper nouns", "[wordlist]") {
    const auto& dict = bg::default_wordlist();
    for (const char* word : {"HATE", "HER", "ARTY", "BANANA", "QUIZ", "ZEBRA", "ZYGOTE"}) {
        INFO(word);
        CHECK(dict.contains(word));
    }
    for (const char* word : {"XQZ", "ARTYY", "LONDON", "NASA"}) {
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
