// The arena's decisions, in process (Google Benchmark): the matchmaker's turn with 100 to 10,000
// seats waiting, and a match's rating update with 2 to 8 entrants. Each with a baseline measured
// in the same run: sorting the same queue by rating (what any matchmaker by rating does at the
// least), and one exp() a entrant pair (what any Plackett-Luce update computes at the least).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "arena/core/matchmaker.hpp"
#include "core/random.hpp"
#include "stats/weng_lin.hpp"

namespace {

using namespace bg;

// `n` seats of `n / 2` owners (two connections each), ratings spread as a ladder's, waits up to
// a minute, and 200 recent matches among them.
struct Queue {
    std::vector<arena::Waiting> seats;
    std::vector<arena::RecentMatch> recent;
};

Queue queue_of(int n) {
    SplitMix64 rng(7);
    const auto unit = [&] { return static_cast<double>(rng.next() >> 11) / 9007199254740992.0; };
    Queue q;
    for (int i = 0; i < n; ++i)
        q.seats.push_back({i / 2, "owner-" + std::to_string(i / 2), 10 + 30 * unit(),
                           1 + 7 * unit(), static_cast<int>(50 * unit()),
                           static_cast<std::uint64_t>(60'000 * unit()), i % 10 == 0});
    for (int m = 0; m < 200; ++m) {
        arena::RecentMatch match;
        for (int k = 0; k < 4; ++k)
            match.push_back(static_cast<int>(rng.next() % static_cast<std::uint64_t>(n / 2)));
        q.recent.push_back(match);
    }
    return q;
}

void matchmaker_turn(benchmark::State& state) {
    const Queue q = queue_of(static_cast<int>(state.range(0)));
    const arena::MatchmakerConfig config;
    std::uint64_t seed = 1;
    std::size_t tables = 0;
    for (auto _ : state) {
        const auto made = arena::make_tables(q.seats, q.recent, config, 60'000, seed++);
        tables = made.size();
        benchmark::DoNotOptimize(made);
    }
    state.counters["tables"] = static_cast<double>(tables);
    state.counters["waiting"] = static_cast<double>(q.seats.size());
}
BENCHMARK(matchmaker_turn)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void baseline_sort_by_rating(benchmark::State& state) {
    const Queue q = queue_of(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        auto seats = q.seats;
        std::sort(seats.begin(), seats.end(),
                  [](const auto& a, const auto& b) { return a.mu < b.mu; });
        benchmark::DoNotOptimize(seats);
    }
}
BENCHMARK(baseline_sort_by_rating)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

std::vector<stats::Entrant> match_of(int k) {
    std::vector<stats::Entrant> match;
    for (int i = 0; i < k; ++i)
        match.push_back({{20.0 + i, 3.0 + i * 0.5}, 1 + i % 3, false});
    return match;
}

void rating_update(benchmark::State& state) {
    const auto match = match_of(static_cast<int>(state.range(0)));
    const stats::WengLin model;
    for (auto _ : state)
        benchmark::DoNotOptimize(stats::rate(match, model));
}
BENCHMARK(rating_update)->Arg(2)->Arg(4)->Arg(8);

void baseline_exp_per_pair(benchmark::State& state) {
    const auto match = match_of(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        double sum = 0;
        for (const auto& a : match)
            for (const auto& b : match)
                sum += std::exp((a.belief.mu - b.belief.mu) / 13.0);
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(baseline_exp_per_pair)->Arg(2)->Arg(4)->Arg(8);

}  // namespace

BENCHMARK_MAIN();
