// The arena's matchmaker's preferences (arena/matchmaker.hpp), each on a queue made to show it:
// ratings met by the nearest, the neediest seated first, recent groups avoided, short tables
// only after the wait, owners kept apart. Its rules on random queues are props/'s.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "arena/core/matchmaker.hpp"

using namespace bg::arena;

namespace {

Waiting seat(int entry, double mu, int matches = 10, std::uint64_t since_ms = 0) {
    return {entry, "owner-" + std::to_string(entry), mu, 3.0, matches, since_ms};
}

}  // namespace

TEST_CASE("matchmaker: tables are filled from the nearest ratings", "[arena][matchmaker]") {
    std::vector<Waiting> queue;
    for (int i = 0; i < 40; ++i)
        queue.push_back(seat(i, (i * 37) % 40 * 2.5));  // 0 to 97.5, shuffled
    MatchmakerConfig config;
    config.max_players = 2;
    const auto tables = make_tables(queue, {}, config, 0, 7);
    REQUIRE(tables.size() == 20);
    double gap = 0;
    for (const auto& t : tables)
        gap += std::abs(queue[static_cast<std::size_t>(t[0])].mu -
                        queue[static_cast<std::size_t>(t[1])].mu);
    // Pairs drawn at random would be 33 apart on average; neighbours are 2.5 apart, and each
    // table is made for the neediest left, not for whoever is nearest of all.
    CHECK(gap / 20 < 10);
    // The randomness blurs, but does not undo it, and another seed makes other tables.
    config.randomness = 4;
    CHECK(make_tables(queue, {}, config, 0, 8) != make_tables(queue, {}, config, 0, 9));
}

TEST_CASE("matchmaker: the neediest is seated first", "[arena][matchmaker]") {
    // Four seats at 20 to 23 and one far away at 60 with no match played: one table of four,
    // and the new one is at it.
    std::vector<Waiting> queue = {seat(0, 20), seat(1, 21), seat(2, 22), seat(3, 23),
                                  seat(4, 60, 0)};
    MatchmakerConfig config;
    const auto tables = make_tables(queue, {}, config, 0, 1);
    REQUIRE(tables.size() == 1);
    CHECK(tables[0][0] == 4);
    // Among equals in matches, the least certain; past the wait, the longest waiting.
    queue[4].matches = 10;
    queue[2].sigma = 8;
    CHECK(make_tables(queue, {}, config, 0, 1)[0][0] == 2);
    queue[1].since_ms = 0;
    for (std::size_t i = 0; i < queue.size(); ++i)
        queue[i].since_ms = i == 1 ? 0 : 20'000;
    CHECK(make_tables(queue, {}, config, 40'000, 1)[0][0] == 1);
}

TEST_CASE("matchmaker: a group that met recently is not made again while others wait",
          "[arena][matchmaker]") {
    const std::vector<Waiting> queue = {seat(0, 25), seat(1, 25.5), seat(2, 30), seat(3, 31)};
    MatchmakerConfig config;
    config.max_players = 2;
    config.randomness = 0;
    const auto fresh = make_tables(queue, {}, config, 0, 1);
    REQUIRE(fresh.size() == 2);
    CHECK(fresh[0] == std::vector<int>{0, 1});
    const auto again = make_tables(queue, {{0, 1}, {1, 0}, {0, 1}}, config, 0, 1);
    REQUIRE(again.size() == 2);
    CHECK(again[0][1] != 1);
}

TEST_CASE("matchmaker: fewer seats only after the wait, and never one owner twice",
          "[arena][matchmaker]") {
    std::vector<Waiting> queue = {seat(0, 25, 10, 1000), seat(1, 26, 10, 2000),
                                  seat(2, 27, 10, 3000)};
    MatchmakerConfig config;  // four seats, 30 s
    CHECK(make_tables(queue, {}, config, 30'999, 1).empty());
    const auto late = make_tables(queue, {}, config, 31'000, 1);
    REQUIRE(late.size() == 1);
    CHECK(late[0].size() == 3);
    // Two connections of one bot (one owner) never meet, however long they wait.
    queue = {seat(0, 25), seat(0, 25)};
    CHECK(make_tables(queue, {}, config, 1'000'000, 1).empty());
    // A house bot's free seat fills a table, but none is made for it alone.
    queue = {seat(1, 25), seat(2, 26)};
    queue[0].filler = queue[1].filler = true;
    CHECK(make_tables(queue, {}, config, 1'000'000, 1).empty());
    queue[1].filler = false;
    CHECK(make_tables(queue, {}, config, 1'000'000, 1).size() == 1);
    // A configuration that cannot be used is said why, and makes no table.
    config.max_players = 1;
    CHECK(check(config) != "");
    CHECK(make_tables(queue, {}, config, 1'000'000, 1).empty());
}
