// The referee's own counts beside the game's: stale peels and think times, from the times the
// arrivals came in with.
#include <catch2/catch.hpp>

#include "core/grid.hpp"
#include "referee/referee.hpp"
#include "support/memory_log.hpp"
#include "support/staircase.hpp"

namespace {

using namespace bg;

constexpr std::uint64_t second = 1'000'000'000;

std::string staircase_of(const Referee& referee, PlayerId player) {
    const auto& hand = referee.game().players()[static_cast<std::size_t>(player)].hand;
    return "p" + serialise(staircase_grid(hand.to_string()));
}

}  // namespace

TEST_CASE("referee: think times run from new tiles to the next peel, and stale peels count",
          "[referee]") {
    Setup setup;
    setup.game = GameConfig{1, 2, 1};
    setup.commands = {"one", "two"};
    MemoryLog log;
    Referee referee(setup, two_letter_words(), log);
    referee.start(0);
    referee.take(arrival::Output{0, "r"}, 1 * second);
    referee.take(arrival::Output{1, "r"}, 2 * second);  // the deal, at 2 s
    REQUIRE(referee.game().dealt());
    const std::string first_grid_of_two = staircase_of(referee, 1);

    referee.take(arrival::Output{0, staircase_of(referee, 0)}, 5 * second);  // 3 s after
    REQUIRE(referee.game().players()[0].peels == 1);
    // Player two had not seen the peel's tile: its grid is stale, 4 s after its deal.
    referee.take(arrival::Output{1, first_grid_of_two}, 6 * second);
    REQUIRE(referee.game().players()[1].peels == 0);
    // Player one's next tiles came with its own peel at 5 s.
    referee.take(arrival::Output{0, staircase_of(referee, 0)}, 8 * second);
    REQUIRE(referee.game().players()[0].peels == 2);

    CHECK(referee.seat_stats(0).stale_peels == 0);
    CHECK(referee.seat_stats(0).timed_peels == 2);
    CHECK(referee.seat_stats(0).think_ns == 6 * second);
    CHECK(referee.seat_stats(1).stale_peels == 1);
    CHECK(referee.seat_stats(1).timed_peels == 1);
    CHECK(referee.seat_stats(1).think_ns == 4 * second);
}
