// The ratings that move after every match (stats/weng_lin.hpp) against the truth: ladders
// simulated from known strengths (no bots) must recover the strengths' order and give
// uncertainties whose 95% intervals hold the true skill in 90-99% of cases, and intervals made too
// narrow must fail that same check. One update is also checked against figures worked by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/random.hpp"
#include "stats/weng_lin.hpp"
#include "tests/support/draws.hpp"

using namespace bg;
using stats::Belief;
using stats::Entrant;

namespace {

// A match of `players` entrants drawn from the skills, ranked as the model says a match of k
// entrants of known skill goes: Plackett-Luce with strengths exp(skill / (beta sqrt k)), which
// ordering by skill / (beta sqrt k) plus Gumbel noise draws exactly.
std::vector<std::pair<int, int>> simulate_match(const std::vector<double>& skill, int players,
                                                double beta, SplitMix64& rng) {
    std::vector<int> who(skill.size());
    std::iota(who.begin(), who.end(), 0);
    rng.shuffle(std::span(who));
    who.resize(static_cast<std::size_t>(players));
    const double c = beta * std::sqrt(players);
    std::vector<std::pair<double, int>> scored;
    for (int bot : who)
        scored.emplace_back(
            skill[static_cast<std::size_t>(bot)] / c - std::log(-std::log(test::uniform(rng))),
            bot);
    std::sort(scored.rbegin(), scored.rend());
    std::vector<std::pair<int, int>> ranked;  // (bot, rank)
    for (std::size_t place = 0; place < scored.size(); ++place)
        ranked.emplace_back(scored[place].second, static_cast<int>(place) + 1);
    return ranked;
}

struct Ladder {
    std::vector<double> skill;
    std::vector<Belief> beliefs;
};

// A ladder of `matches` matches of 2 to 4 entrants among bots of evenly spread skills (15 to 35,
// on the model's scale); bot 0 held at its true skill when `anchored`.
Ladder play_ladder(int bots, int matches, bool anchored, SplitMix64& rng) {
    const stats::WengLin model;
    Ladder ladder;
    for (int b = 0; b < bots; ++b)
        ladder.skill.push_back(15 + 20.0 * b / (bots - 1));
    ladder.beliefs.assign(static_cast<std::size_t>(bots), model.initial());
    if (anchored)
        ladder.beliefs[0] = {ladder.skill[0], 0};
    for (int m = 0; m < matches; ++m) {
        const auto ranked =
            simulate_match(ladder.skill, 2 + static_cast<int>(rng.next() % 3), model.beta, rng);
        std::vector<Entrant> match;
        for (const auto& [bot, rank] : ranked)
            match.push_back(
                {ladder.beliefs[static_cast<std::size_t>(bot)], rank, anchored && bot == 0});
        const auto after = stats::rate(match, model);
        for (std::size_t s = 0; s < ranked.size(); ++s)
            ladder.beliefs[static_cast<std::size_t>(ranked[s].first)] = after[s];
    }
    return ladder;
}

// The share of (ladder, bot) intervals mu +- z sigma that hold the bot's true skill (an anchor
// left out), and the mean number of neighbours (by true skill) in the wrong order.
struct Truth {
    double coverage = 0;
    double inversions = 0;
};

Truth against_truth(int matches, bool anchored, double z, std::uint64_t seed) {
    SplitMix64 rng(seed);
    const int ladders = 200, bots = 10;
    int held = 0, total = 0, inverted = 0;
    for (int l = 0; l < ladders; ++l) {
        const Ladder ladder = play_ladder(bots, matches, anchored, rng);
        for (std::size_t b = anchored ? 1 : 0; b < ladder.skill.size(); ++b) {
            const Belief& belief = ladder.beliefs[b];
            held += std::abs(belief.mu - ladder.skill[b]) <= z * belief.sigma;
            ++total;
        }
        for (std::size_t b = 0; b + 1 < ladder.skill.size(); ++b)
            inverted += ladder.beliefs[b].mu > ladder.beliefs[b + 1].mu;
    }
    return {static_cast<double>(held) / total, static_cast<double>(inverted) / ladders};
}

}  // namespace

TEST_CASE("weng-lin: one match of two new entrants moves them as worked by hand",
          "[stats][weng-lin]") {
    stats::WengLin model;
    model.tau = 0;
    // c^2 = 2 (sigma^2 + beta^2) = 173.6111; each is placed first with p = 1/2: the winner gains
    // sigma^2 / c / 2 = 2.63523, the loser loses as much; both variances shrink by
    // gamma sigma^2 / c^2 / 4 = 0.0632456 of themselves.
    const auto after = stats::rate({{model.initial(), 1}, {model.initial(), 2}}, model);
    REQUIRE(after.size() == 2);
    CHECK(after[0].mu == Approx(27.63523138347365).epsilon(1e-12));
    CHECK(after[1].mu == Approx(22.36476861652635).epsilon(1e-12));
    CHECK(after[0].sigma == Approx(8.065506316323548).epsilon(1e-12));
    CHECK(after[1].sigma == Approx(8.065506316323548).epsilon(1e-12));
}

TEST_CASE("weng-lin: ties, anchors and matches that tell nothing", "[stats][weng-lin]") {
    const stats::WengLin model;
    const Belief strong{30, 2}, weak{20, 6}, fresh = model.initial();
    const double grown = std::sqrt(6.0 * 6 + model.tau * model.tau);
    // Everyone tied, or one entrant: only tau is added.
    for (const auto& match : {std::vector<Entrant>{{strong, 1}, {weak, 1}, {fresh, 1}},
                              std::vector<Entrant>{{weak, 1}}}) {
        const auto after = stats::rate(match, model);
        for (std::size_t i = 0; i < match.size(); ++i)
            CHECK(after[i].mu == match[i].belief.mu);
        CHECK(after[match.size() == 1 ? 0 : 1].sigma == Approx(grown));
    }
    // Two equal entrants tied: no mean moves, both are more certain.
    const auto tie = stats::rate({{fresh, 1}, {fresh, 1}, {weak, 3}}, model);
    CHECK(tie[0].mu == Approx(tie[1].mu));
    CHECK(tie[0].sigma < fresh.sigma);
    // A weak entrant that beats a strong one gains more than a strong one that beats a weak one,
    // and the less certain moves more.
    const auto upset = stats::rate({{weak, 1}, {strong, 2}}, model);
    const auto expected = stats::rate({{strong, 1}, {weak, 2}}, model);
    CHECK(upset[0].mu - weak.mu > expected[0].mu - strong.mu);
    CHECK(upset[0].mu - weak.mu > strong.mu - upset[1].mu);
    // Among three, the winner gains, the last loses, and the order of means after follows the
    // ranks for entrants alike before.
    const auto three = stats::rate({{fresh, 2}, {fresh, 3}, {fresh, 1}}, model);
    CHECK(three[2].mu > three[0].mu);
    CHECK(three[0].mu > three[1].mu);
    CHECK(three[2].mu > fresh.mu);
    CHECK(three[1].mu < fresh.mu);
    // An anchor is held, and the others move against it as against anyone.
    const auto anchored = stats::rate({{strong, 2, true}, {fresh, 1}}, model);
    CHECK(anchored[0] == strong);
    CHECK(anchored[1].mu > fresh.mu);
    // The same arithmetic gives the same bits: ratings recomputed from an archive are the stored.
    CHECK(stats::rate({{weak, 1}, {strong, 2}, {fresh, 2}}, model) ==
          stats::rate({{weak, 1}, {strong, 2}, {fresh, 2}}, model));
    // Means far from the others stay finite.
    const auto far = stats::rate({{{5000, 8}, 2}, {{-5000, 8}, 1}}, model);
    CHECK(std::isfinite(far[0].mu));
    CHECK(std::isfinite(far[1].sigma));
}

TEST_CASE("weng-lin: ladders of known skills are recovered, their 95% intervals holding 90-99%",
          "[stats][weng-lin]") {
    for (const bool anchored : {false, true}) {
        INFO((anchored ? "bot 0 anchored at its true skill" : "no anchor"));
        const Truth early = against_truth(300, anchored, 1.96, 21);
        const Truth late = against_truth(1000, anchored, 1.96, 22);
        INFO("after 300 matches: coverage " << early.coverage << ", inversions " << early.inversions
                                            << "; after 1000: " << late.coverage << ", "
                                            << late.inversions);
        CHECK(early.coverage >= 0.90);
        CHECK(early.coverage <= 0.99);
        CHECK(late.coverage >= 0.90);
        CHECK(late.coverage <= 0.995);
        // Neighbours 2.2 apart (half a beta) are told apart, better with more matches.
        CHECK(early.inversions < 2.5);
        CHECK(late.inversions < 1.2);
        CHECK(late.inversions < early.inversions);
        // A broken uncertainty fails the same check: intervals half as wide hold the truth far
        // less often.
        CHECK(against_truth(300, anchored, 0.98, 21).coverage < 0.80);
    }
}
