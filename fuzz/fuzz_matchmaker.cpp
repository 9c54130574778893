// libFuzzer: the arena's matchmaker. Bytes become a queue (ratings, owners, waits, matches
// played), recent matches, parameters and a time; whatever they are, the tables made keep every
// rule (arena/matchmaker_rules.hpp), or the target aborts naming the rule.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "arena/core/matchmaker.hpp"
#include "arena/core/matchmaker_rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    bg::arena::MatchmakerConfig config;
    config.max_players = in.ConsumeIntegralInRange(2, 8);
    config.max_wait_ms = in.ConsumeIntegralInRange<std::uint64_t>(0, 1'000'000);
    config.randomness = in.ConsumeFloatingPointInRange(0.0, 50.0);
    config.repeat_penalty = in.ConsumeFloatingPointInRange(0.0, 50.0);
    config.window = in.ConsumeIntegralInRange(1, 64);
    const auto now_ms = in.ConsumeIntegral<std::uint64_t>();
    const auto seed = in.ConsumeIntegral<std::uint64_t>();
    std::vector<bg::arena::RecentMatch> recent(in.ConsumeIntegralInRange(0, 16));
    for (auto& match : recent)
        for (int m = in.ConsumeIntegralInRange(0, 8); m > 0; --m)
            match.push_back(in.ConsumeIntegralInRange(-2, 40));
    std::vector<bg::arena::Waiting> queue;
    while (in.remaining_bytes() > 0 && queue.size() < 300) {
        bg::arena::Waiting w;
        w.entry = in.ConsumeIntegralInRange(-2, 40);
        w.owner = std::string(1, static_cast<char>('a' + in.ConsumeIntegralInRange(0, 15)));
        w.mu = in.ConsumeFloatingPointInRange(-1e6, 1e6);
        w.sigma = in.ConsumeFloatingPointInRange(0.0, 100.0);
        w.matches = in.ConsumeIntegral<int>();
        w.since_ms = in.ConsumeIntegral<std::uint64_t>();
        w.filler = in.ConsumeBool();
        w.wants = in.ConsumeIntegralInRange(-1, 40);
        // Its node: none (a seat played anywhere), or one of three.
        if (const int node = in.ConsumeIntegralInRange(0, 3); node > 0)
            w.node = std::string(1, static_cast<char>('0' + node));
        queue.push_back(w);
    }
    const auto tables = bg::arena::make_tables(queue, recent, config, now_ms, seed);
    const std::string broken = bg::arena::broken_rule(queue, config, now_ms, tables);
    if (!broken.empty()) {
        std::fprintf(stderr, "matchmaker: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
