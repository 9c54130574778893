// The tournament's schedule: every table plays every deal in every rotation, each bot sits in
// each seat equally often, and the same options give the same games.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "core/random.hpp"
#include "tournament/schedule.hpp"

using namespace bg::tournament;

namespace {

std::vector<Fixture> games_of(const ScheduleOptions& options) {
    auto made = schedule(options);
    REQUIRE(std::holds_alternative<std::vector<Fixture>>(made));
    return std::get<std::vector<Fixture>>(made);
}

std::string error_of(const ScheduleOptions& options) {
    auto made = schedule(options);
    REQUIRE(std::holds_alternative<std::string>(made));
    return std::get<std::string>(made);
}

}  // namespace

TEST_CASE("schedule: a round-robin seats every table in every rotation of every deal",
          "[tournament]") {
    const ScheduleOptions options{5, 3, Format::round_robin, 4, 99};
    const auto games = games_of(options);
    // C(5, 3) = 10 tables, 3 rotations, 4 deals.
    REQUIRE(games.size() == 10u * 3 * 4);
    std::map<std::pair<int, int>, int> seat_counts;  // (bot, seat) -> games
    std::set<std::vector<int>> tables_seen;
    for (const auto& game : games) {
        REQUIRE(game.seats.size() == 3);
        CHECK(std::set<int>(game.seats.begin(), game.seats.end()).size() == 3);
        for (int seat = 0; seat < 3; ++seat)
            ++seat_counts[{game.seats[static_cast<std::size_t>(seat)], seat}];
        auto table = game.seats;
        std::sort(table.begin(), table.end());
        tables_seen.insert(table);
    }
    CHECK(tables_seen.size() == 10);
    // Each bot is in C(4, 2) = 6 tables, and in each seat once per table and deal.
    for (int bot = 0; bot < 5; ++bot)
        for (int seat = 0; seat < 3; ++seat)
            CHECK(seat_counts[{bot, seat}] == 6 * 4);
    // A deal's rotations are one after another, and every table plays the same deals.
    for (std::size_t i = 0; i < games.size(); i += 3) {
        for (std::size_t r = 0; r < 3; ++r) {
            CHECK(games[i + r].rotation == static_cast<int>(r));
            CHECK(games[i + r].seed == games[i].seed);
            CHECK(games[i + r].table == games[i].table);
        }
        CHECK(games[i].seed == deal_seeds(99, 4)[static_cast<std::size_t>(games[i].deal)]);
    }
}

TEST_CASE("schedule: a gauntlet puts the first bot at every table", "[tournament]") {
    const auto games = games_of({4, 2, Format::gauntlet, 3, 1});
    REQUIRE(games.size() == 3u * 2 * 3);  // three opponents, two seatings, three deals
    std::set<int> opponents;
    for (const auto& game : games) {
        REQUIRE(std::count(game.seats.begin(), game.seats.end(), 0) == 1);
        opponents.insert(game.seats[0] == 0 ? game.seats[1] : game.seats[0]);
    }
    CHECK(opponents == std::set<int>{1, 2, 3});
    // Two seatings of each deal: the first bot once in each seat.
    CHECK(games[0].seats == std::vector<int>{0, 1});
    CHECK(games[1].seats == std::vector<int>{1, 0});
}

TEST_CASE("schedule: the same options give the same games, another seed other deals",
          "[tournament]") {
    const ScheduleOptions options{3, 2, Format::round_robin, 5, 7};
    CHECK(games_of(options) == games_of(options));
    auto other = options;
    other.seed = 8;
    CHECK(deal_seeds(7, 5) != deal_seeds(8, 5));
    CHECK(games_of(other)[0].seed != games_of(options)[0].seed);
    // Deal seeds are SplitMix64's outputs from the tournament seed (core/random.hpp).
    bg::SplitMix64 rng(7);
    CHECK(deal_seeds(7, 2) == std::vector<std::uint64_t>{rng.next(), rng.next()});
}

TEST_CASE("schedule: impossible options are refused with a reason", "[tournament]") {
    CHECK(error_of({3, 1, Format::round_robin, 1, 0}) == "a game needs at least 2 players, not 1");
    CHECK(error_of({2, 3, Format::round_robin, 1, 0}) ==
          "3 players a game need at least 3 bots; there are 2");
    CHECK(error_of({2, 2, Format::round_robin, 0, 0}) == "at least one deal a table, not 0");
    // C(64, 8) tables is over four billion: refused before anything is made.
    CHECK(error_of({64, 8, Format::round_robin, 1, 0}) ==
          "more than 10000000 games: fewer bots, players or deals");
}
