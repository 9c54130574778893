// libFuzzer: the arena's core over sequences of inputs. Bytes become an arena (its bots, houses,
// people, owners and settings) and an evening of commands (bots coming and going, the clock,
// matches ending with any places and faults, checks, failing writes, accounts changed, signals,
// the workers' cores, the front nodes seen);
// the simulation around the core (tests/support/arena_sim.hpp) holds it to every rule after
// each, and at the end; a rule broken aborts the target, naming it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <fuzzer/FuzzedDataProvider.h>

#include "tests/support/arena_sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    bg::test::SimSetup setup;
    setup.remote_bots = in.ConsumeIntegralInRange(0, 8);
    setup.house_bots = in.ConsumeIntegralInRange(0, 4);
    setup.people = in.ConsumeIntegralInRange(0, 3);
    setup.owners = in.ConsumeIntegralInRange(1, 5);
    setup.hosted_bots = in.ConsumeIntegralInRange(0, 3);
    setup.fronts = in.ConsumeIntegralInRange(0, 3);
    setup.settings.concurrency = in.ConsumeIntegralInRange(1, 6);
    setup.settings.house_seats = in.ConsumeIntegralInRange(1, 3);
    setup.settings.cores = in.ConsumeBool() ? in.ConsumeIntegralInRange(2, 6) : 0;
    setup.settings.workers = in.ConsumeBool();
    setup.settings.faults_to_pause = in.ConsumeIntegralInRange(1, 5);
    setup.settings.stop_grace_ms = in.ConsumeIntegralInRange<std::uint64_t>(0, 10'000);
    setup.settings.matchmaker.max_players = in.ConsumeIntegralInRange(2, 6);
    setup.settings.matchmaker.max_wait_ms = in.ConsumeIntegralInRange<std::uint64_t>(0, 10'000);
    bg::test::ArenaSim sim(setup);
    std::string broken;
    for (int steps = 0; in.remaining_bytes() > 0 && steps < 2'000 && broken.empty(); ++steps) {
        bg::test::SimCommand c;
        c.kind = static_cast<bg::test::SimCommand::Kind>(in.ConsumeIntegralInRange(0, 10));
        c.a = in.ConsumeIntegral<std::uint16_t>();
        c.b = in.ConsumeIntegralInRange(0, 3);
        c.c = in.ConsumeIntegral<std::uint64_t>();
        broken = sim.step(c);
    }
    if (broken.empty())
        broken = sim.drain();
    if (!broken.empty()) {
        std::fprintf(stderr, "arena core: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
