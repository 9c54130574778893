#include "core/tiles.hpp"

#include <catch2/catch.hpp>

TEST_CASE("tiles: the standard set is the 144 tiles of the game", "[tiles]") {
    const auto& set = bg::standard_set();
    CHECK(set.total() == 144);
    CHECK(set.to_string() ==
          "AAAAAAAAAAAAABBBCCCDDDDDDEEEEEEEEEEEEEEEEEEFFFGGGGHHHIIIIIIIIIIIIJJKKLLLLLMMMNNNNNNNN"
          "OOOOOOOOOOOPPPQQRRRRRRRRRSSSSSSTTTTTTTTTUUUUUUVVVWWWXXYYYZZ");
}

TEST_CASE("tiles: hand sizes follow the number of players", "[tiles]") {
    struct Case {
        int players, sets, hand;
    };
    for (const auto& c :
         {Case{1, 1, 21}, Case{2, 1, 21}, Case{4, 1, 21}, Case{5, 1, 15}, Case{6, 1, 15},
          Case{7, 1, 11}, Case{8, 1, 11}, Case{9, 2, 15}, Case{12, 2, 15}, Case{13, 2, 11},
          Case{16, 2, 11}, Case{17, 3, 15}, Case{64, 8, 11}}) {
        INFO(c.players << " players");
        const auto rules = bg::tile_rules_for(c.players, 1, nullptr);
        REQUIRE(rules);
        CHECK(rules->sets == c.sets);
        CHECK(rules->hand_size == c.hand);
        CHECK(rules->tiles().total() == 144u * c.sets);
        CHECK(static_cast<unsigned>(rules->hand_size * c.players) <= rules->tiles().total());
    }
}

TEST_CASE("tiles: more sets on request give every player more room", "[tiles]") {
    const auto rules = bg::tile_rules_for(8, 2, nullptr);
    REQUIRE(rules);
    CHECK(rules->sets == 2);
    CHECK(rules->hand_size == 21);
    const auto six = bg::tile_rules_for(6, 3, nullptr);
    CHECK(six->hand_size == 21);
}

TEST_CASE("tiles: out-of-range players and sets are refused with a reason", "[tiles]") {
    std::string error;
    CHECK_FALSE(bg::tile_rules_for(0, 1, &error));
    CHECK(error == "0 players: a game has 1 to 64");
    CHECK_FALSE(bg::tile_rules_for(65, 1, &error));
    CHECK(error == "65 players: a game has 1 to 64");
    CHECK_FALSE(bg::tile_rules_for(2, 0, &error));
    CHECK(error == "0 sets of tiles: a game uses 1 to 16");
    CHECK_FALSE(bg::tile_rules_for(2, 17, &error));
}
