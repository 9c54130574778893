// In-process benchmarks (Google Benchmark): judging grids, the dictionary, folding events into
// the game, and writing log records. Each figure comes with a baseline measured in the same run
// (a plain scan of the same bytes, a lookup in a sorted array), so ratios survive a noisy
// machine.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "core/judge.hpp"
#include "core/random.hpp"
#include "core/tiles.hpp"
#include "players/crossword.hpp"
#include "record/event_log.hpp"
#include "referee/referee.hpp"
#include "tests/support/staircase.hpp"
#include "wordlist/default_wordlist.hpp"

namespace {

using namespace bg;

struct Laid {
    Grid grid;
    LetterCounts hand;
};

// A legal grid of real words: the reference bot's crossword of a hand drawn from the bunch,
// with the hand cut down to what it placed.
Laid crossword_of(int tiles, std::uint64_t seed) {
    static const Crossword crossword(default_wordlist().words());
    std::string bunch = standard_set().to_string();
    SplitMix64 rng(seed);
    rng.shuffle(std::span(bunch));
    const auto hand = *LetterCounts::from_letters(bunch.substr(0, static_cast<std::size_t>(tiles)));
    auto layout = crossword.build(hand, 40, seed);
    LetterCounts placed = hand;
    placed -= layout.leftover;
    return {std::move(layout.grid), placed};
}

// The same tiles in the middle of a 999x999 grid: about 1 MB, nearly all '.'.
Grid padded(const Grid& small) {
    Grid big{999, 999, std::string(999u * 999u, '.')};
    for (int y = 0; y < small.height; ++y)
        for (int x = 0; x < small.width; ++x)
            big.cells[static_cast<std::size_t>(y + 400) * 999 + x + 400] = small.at(x, y);
    return big;
}

void judge_grid(benchmark::State& state, const Laid& laid) {
    const auto& dict = default_wordlist();
    for (auto _ : state)
        benchmark::DoNotOptimize(judge(laid.grid, laid.hand, dict));
    state.counters["tiles"] = laid.hand.total();
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * laid.grid.cells.size()));
}

void BM_judge_21_tiles(benchmark::State& state) {
    static const Laid laid = crossword_of(21, 1);
    judge_grid(state, laid);
}
void BM_judge_144_tiles(benchmark::State& state) {
    static const Laid laid = crossword_of(144, 2);
    judge_grid(state, laid);
}
void BM_judge_999x999(benchmark::State& state) {
    static const Laid laid = [] {
        Laid l = crossword_of(144, 2);
        l.grid = padded(l.grid);
        return l;
    }();
    judge_grid(state, laid);
}
void BM_judge_one_wrong_word(benchmark::State& state) {
    static const Laid laid = [] {
        Laid l = crossword_of(144, 2);
        // Swap the first tile's letter for a Q (and the hand with it): its words are no words.
        const auto at = l.grid.cells.find_first_not_of('.');
        l.hand.remove(l.grid.cells[at]);
        l.hand.add('Q');
        l.grid.cells[at] = 'Q';
        return l;
    }();
    judge_grid(state, laid);
}
// Baseline for the 999x999 grid: reading each of its bytes once.
void BM_baseline_scan_999x999(benchmark::State& state) {
    static const std::string cells = padded(crossword_of(144, 2).grid).cells;
    for (auto _ : state)
        benchmark::DoNotOptimize(std::count(cells.begin(), cells.end(), '.'));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * cells.size()));
}

// Words of the list and as many strings that are not words, looked up in turn.
const std::vector<std::string>& lookups() {
    static const std::vector<std::string> words = [] {
        std::vector<std::string> all = default_wordlist().words();
        std::vector<std::string> mixed;
        SplitMix64 rng(3);
        for (int i = 0; i < 4096; ++i) {
            std::string w = all[rng.bounded(static_cast<std::uint32_t>(all.size()))];
            mixed.push_back(w);
            w.back() = static_cast<char>('A' + rng.bounded(26));
            w += 'Q';
            mixed.push_back(w);
        }
        return mixed;
    }();
    return words;
}

void BM_dictionary_lookup(benchmark::State& state) {
    const auto& dict = default_wordlist();
    const auto& words = lookups();
    std::size_t i = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(dict.contains(words[i++ & 8191]));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
// Baseline: binary search in a sorted array of the same words.
void BM_baseline_sorted_lookup(benchmark::State& state) {
    static const std::vector<std::string> sorted = [] {
        auto all = default_wordlist().words();
        std::sort(all.begin(), all.end());
        return all;
    }();
    const auto& words = lookups();
    std::size_t i = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            std::binary_search(sorted.begin(), sorted.end(), words[i++ & 8191]));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

// A whole game's inputs: two players, staircase peels under the two-letter list, to bananas.

const std::vector<Input>& game_inputs() {
    static const std::vector<Input> inputs = [] {
        std::string error;
        Game game = *Game::create(RulesConfig{9, 2, 1}, two_letter_words(), &error);
        std::vector<Input> log = {input::Ready{0}, input::Ready{1}};
        for (const auto& in : log)
            game.handle(in);
        for (PlayerId p = 0; !game.over(); p = 1 - p) {
            Input peel = input::Peel{
                p,
                serialise(
                    staircase_grid(game.players()[static_cast<std::size_t>(p)].hand.to_string())),
                {}};
            game.handle(peel);
            log.push_back(std::move(peel));
        }
        return log;
    }();
    return inputs;
}

void BM_fold_events(benchmark::State& state) {
    const auto& inputs = game_inputs();
    std::string error;
    for (auto _ : state) {
        Game game = *Game::create(RulesConfig{9, 2, 1}, two_letter_words(), &error);
        for (const auto& in : inputs)
            benchmark::DoNotOptimize(game.handle(in));
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * inputs.size()));
}

// The same game through the host's Referee, from the players' bytes: readers, rules, outbox,
// turn order and (unwritten) log records, against BM_fold_events as the baseline.
void BM_referee_game(benchmark::State& state) {
    const auto& inputs = game_inputs();
    std::vector<Arrival> arrivals;
    for (const auto& in : inputs) {
        if (const auto* ready = std::get_if<input::Ready>(&in))
            arrivals.push_back(arrival::Output{ready->player, "r"});
        else if (const auto* peel = std::get_if<input::Peel>(&in))
            arrivals.push_back(arrival::Output{peel->player, "p" + peel->grid});
    }
    GameSetup setup;
    setup.game = RulesConfig{9, 2, 1};
    setup.commands = {"a", "b"};
    for (auto _ : state) {
        EventLog log;
        Referee referee(setup, two_letter_words(), log);
        benchmark::DoNotOptimize(referee.start(0));
        for (const auto& arrival : arrivals)
            benchmark::DoNotOptimize(referee.take(arrival, 0));
        if (!referee.over())
            state.SkipWithError("the game did not end");
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * inputs.size()));
}

void BM_write_log_records(benchmark::State& state) {
    const auto& inputs = game_inputs();
    std::FILE* sink = std::fopen("/dev/null", "w");
    EventLog log(sink);
    std::size_t i = 0;
    for (auto _ : state) {
        log.input(inputs[i % inputs.size()], i);
        ++i;
        log.flush();
    }
    std::fclose(sink);
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

}  // namespace

BENCHMARK(BM_judge_21_tiles);
BENCHMARK(BM_judge_144_tiles);
BENCHMARK(BM_judge_999x999);
BENCHMARK(BM_judge_one_wrong_word);
BENCHMARK(BM_baseline_scan_999x999);
BENCHMARK(BM_dictionary_lookup);
BENCHMARK(BM_baseline_sorted_lookup);
BENCHMARK(BM_fold_events);
BENCHMARK(BM_referee_game);
BENCHMARK(BM_write_log_records);
BENCHMARK_MAIN();
