// A tournament's schedule: which bots sit where in every game, a pure function of the options
// and the seed, so that the same command gives the same list of games on any machine.
//
// A deal is one game seed. Every table (a set of `players` bots) plays every deal once in each
// of its cyclic seat rotations, so that the luck of a deal falls on each of its bots in each
// seat; every table plays the same deals. Round-robin: every `players`-subset of the bots is a
// table. Gauntlet: the first bot with every (`players` - 1)-subset of the others. Games come
// deal by deal, and a table's rotations of one deal one after the other, so that complete sets
// of rotations (the pairs that a two-bot comparison scores) finish early.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace bg::tournament {

enum class Format { round_robin, gauntlet };

struct ScheduleOptions {
    int bots = 2;
    int players = 2;  // seats a game
    Format format = Format::round_robin;
    int deals = 1;  // deals a table
    std::uint64_t seed = 0;
};

struct Fixture {
    int deal = 0;            // from 0
    std::uint64_t seed = 0;  // the deal's game seed
    int table = 0;           // from 0, in the order tables() gives
    int rotation = 0;        // from 0: seat i holds table[(i + rotation) % players]
    std::vector<int> seats;  // the bot (from 0) in each seat
    friend bool operator==(const Fixture&, const Fixture&) = default;
};

// A schedule larger than this is refused as a mistake (C(64, 8) tables would not end).
inline constexpr std::uint64_t max_scheduled_games = 10'000'000;

// Each table's bots, in increasing order; or why there is none.
std::variant<std::vector<std::vector<int>>, std::string> tables(const ScheduleOptions& options);
// Every game, in the order they are to be played; or why the options make no schedule.
std::variant<std::vector<Fixture>, std::string> schedule(const ScheduleOptions& options);
// The seed of every deal: the first `deals` outputs of SplitMix64 seeded with `seed`.
std::vector<std::uint64_t> deal_seeds(std::uint64_t seed, int deals);

}  // namespace bg::tournament
