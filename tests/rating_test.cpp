// Ratings against the truth: tournaments simulated from known strengths (no bots) must give
// 95% intervals that hold the true ratings in 90-99% of them, and intervals made too narrow must
// fail that same check.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

#include "core/random.hpp"
#include "stats/rating.hpp"
#include "tests/support/draws.hpp"

using namespace bg;

namespace {

// One game of the Plackett-Luce model: ordering the seated bots by strength plus Gumbel noise
// draws a ranking with exactly the model's probabilities.
stats::RankedGame simulate_game(const std::vector<double>& elo, int players, SplitMix64& rng) {
    std::vector<int> bots(elo.size());
    std::iota(bots.begin(), bots.end(), 0);
    rng.shuffle(std::span(bots));
    bots.resize(static_cast<std::size_t>(players));
    std::vector<std::pair<double, std::size_t>> scored;
    for (std::size_t s = 0; s < bots.size(); ++s) {
        const double theta = elo[static_cast<std::size_t>(bots[s])] * std::numbers::ln10 / 400;
        scored.emplace_back(theta - std::log(-std::log(test::uniform(rng))), s);
    }
    std::sort(scored.rbegin(), scored.rend());
    stats::RankedGame game{bots, std::vector<int>(bots.size())};
    for (std::size_t place = 0; place < scored.size(); ++place)
        game.standings[scored[place].second] = static_cast<int>(place) + 1;
    return game;
}

// The share of (tournament, bot) intervals that hold the bot's true centred rating.
double coverage(const std::vector<double>& elo, int players, int games, int tournaments, double z,
                std::uint64_t seed) {
    const double mean =
        std::accumulate(elo.begin(), elo.end(), 0.0) / static_cast<double>(elo.size());
    SplitMix64 rng(seed);
    int held = 0, total = 0;
    for (int t = 0; t < tournaments; ++t) {
        std::vector<stats::RankedGame> played;
        for (int g = 0; g < games; ++g)
            played.push_back(simulate_game(elo, players, rng));
        const auto fit = stats::fit_ratings(static_cast<int>(elo.size()), played, z);
        REQUIRE(fit.converged);
        for (std::size_t b = 0; b < elo.size(); ++b) {
            const double truth = elo[b] - mean;
            held += fit.ratings[b].low <= truth && truth <= fit.ratings[b].high ? 1 : 0;
            ++total;
        }
    }
    return static_cast<double>(held) / total;
}

}  // namespace

TEST_CASE("rating: 95% intervals hold the true ratings in 90-99% of simulated tournaments",
          "[stats][rating]") {
    const std::vector<double> elo = {-200, -100, 0, 50, 100, 150};
    // Three players a game, and two (Bradley-Terry, the Elo model).
    const double three = coverage(elo, 3, 300, 200, 1.96, 11);
    const double two = coverage(elo, 2, 400, 200, 1.96, 12);
    INFO("coverage, 3 players a game: " << three << "; 2 players: " << two);
    CHECK(three >= 0.90);
    CHECK(three <= 0.99);
    CHECK(two >= 0.90);
    CHECK(two <= 0.99);
    // A broken fit fails the same check: intervals half as wide hold the truth far less often.
    const double narrow = coverage(elo, 3, 300, 200, 0.98, 11);
    INFO("coverage of intervals half as wide: " << narrow);
    CHECK(narrow < 0.85);
}

TEST_CASE("rating: the fit recovers known strengths and orders the bots", "[stats][rating]") {
    const std::vector<double> elo = {-300, 0, 300};
    SplitMix64 rng(5);
    std::vector<stats::RankedGame> games;
    for (int g = 0; g < 20000; ++g)
        games.push_back(simulate_game(elo, 3, rng));
    const auto fit = stats::fit_ratings(3, games);
    REQUIRE(fit.converged);
    for (std::size_t b = 0; b < 3; ++b)
        CHECK(fit.ratings[b].elo == Approx(elo[b]).margin(25));
    CHECK(fit.ratings[0].high < fit.ratings[1].low);
    CHECK(fit.ratings[1].high < fit.ratings[2].low);
}

TEST_CASE("rating: ties, disqualifications and a bot that always wins stay finite",
          "[stats][rating]") {
    std::vector<stats::RankedGame> games;
    for (int g = 0; g < 50; ++g) {
        games.push_back({{0, 1, 2}, {1, 2, 2}});  // bot 0 wins, the others tie
        games.push_back({{2, 1}, {1, 0}});        // bot 1 disqualified
    }
    const auto fit = stats::fit_ratings(3, games);
    REQUIRE(fit.converged);
    for (const auto& r : fit.ratings)
        CHECK(std::isfinite(r.elo));
    CHECK(fit.ratings[0].elo > fit.ratings[2].elo);
    CHECK(fit.ratings[2].elo > fit.ratings[1].elo);
    CHECK(std::abs(fit.ratings[0].elo + fit.ratings[1].elo + fit.ratings[2].elo) < 1e-6);
    // Games that say nothing (everyone tied) change nothing.
    auto with_ties = games;
    with_ties.push_back({{0, 1, 2}, {1, 1, 1}});
    CHECK(stats::fit_ratings(3, with_ties).ratings[0].elo == Approx(fit.ratings[0].elo));
}
