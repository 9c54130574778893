// The arena's core (arena/core/arena_core.hpp) on random evenings: whatever bots come and go,
// whatever matches end with, whatever checks say, whenever writes fail, accounts change or the
// arena stops, the simulation around it (tests/support/arena_sim.hpp) finds every rule kept:
// every match begun rated once or voided, a bot paused after exactly K faulty matches, house
// seats never promised twice, a person's chosen opponent, the limits, and in the end every rating
// in memory and in the store the one rerate recomputes from the archive.
//
// Reproduce a failure with RC_PARAMS="seed=N"; run longer with RC_PARAMS="max_success=5000".
#include <rapidcheck.h>
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <ostream>

#include "tests/support/arena_sim.hpp"

using bg::test::ArenaSim;
using bg::test::SimCommand;
using bg::test::SimSetup;

namespace rc {

template <>
struct Arbitrary<SimCommand> {
    static Gen<SimCommand> arbitrary() {
        // The common things most often: bots coming, the clock, matches ending; a stop rarely
        // (the evening after it is only the matches' end).
        return gen::build<SimCommand>(
            gen::set(&SimCommand::kind,
                     gen::weightedElement<SimCommand::Kind>({{60, SimCommand::arrive},
                                                             {20, SimCommand::leave},
                                                             {80, SimCommand::tick},
                                                             {60, SimCommand::match_over},
                                                             {30, SimCommand::check_over},
                                                             {10, SimCommand::fail_writes},
                                                             {10, SimCommand::reread},
                                                             {1, SimCommand::signal},
                                                             {8, SimCommand::host},
                                                             {6, SimCommand::workers},
                                                             {6, SimCommand::fronts}})),
            gen::set(&SimCommand::a, gen::inRange<std::uint64_t>(0, 5'000)),
            gen::set(&SimCommand::b, gen::inRange<std::uint64_t>(0, 4)),
            gen::set(&SimCommand::c, gen::arbitrary<std::uint64_t>()));
    }
};

}  // namespace rc

namespace bg::test {

void showValue(const SimSetup& s, std::ostream& os) {
    const auto& k = s.settings;
    os << s.remote_bots << " remote bots of " << s.owners << " owners, " << s.house_bots
       << " house bots, " << s.people << " people, " << s.hosted_bots
       << " hosted bots; concurrency " << k.concurrency << ", cores " << k.cores << ", house seats "
       << k.house_seats << (k.workers ? ", with workers" : "") << ", " << s.fronts
       << " front nodes, paused after " << k.faults_to_pause << ", stop grace " << k.stop_grace_ms
       << " ms, max players " << k.matchmaker.max_players << ", max wait "
       << k.matchmaker.max_wait_ms << " ms";
    if (s.core_faults_to_pause)
        os << "; the core pauses after " << *s.core_faults_to_pause;
}

void showValue(const SimCommand& c, std::ostream& os) {
    static const char* names[] = {"arrive",     "leave",       "tick",   "match_over",
                                  "check_over", "fail_writes", "reread", "signal",
                                  "host",       "workers",     "fronts"};
    os << names[c.kind] << "(" << c.a << ", " << c.b << ", " << c.c << ")";
}

}  // namespace bg::test

namespace {

rc::Gen<SimSetup> setups() {
    return rc::gen::exec([] {
        SimSetup s;
        s.remote_bots = *rc::gen::inRange(0, 7);
        s.house_bots = *rc::gen::inRange(0, 4);
        s.people = *rc::gen::inRange(0, 3);
        s.hosted_bots = *rc::gen::inRange(0, 3);
        s.fronts = *rc::gen::inRange(0, 3);
        s.owners = *rc::gen::inRange(1, 5);
        s.unchecked = *rc::gen::inRange(0, 3);
        s.settings.concurrency = *rc::gen::inRange(1, 5);
        s.settings.house_seats = *rc::gen::inRange(1, 3);
        // Where the arena counts its cores, at least two (as --cores): else none counted.
        s.settings.cores = *rc::gen::element(0, 2, 3, 5);
        s.settings.workers = *rc::gen::element(false, true);
        s.settings.faults_to_pause = *rc::gen::inRange(1, 4);
        s.settings.stop_grace_ms = static_cast<std::uint64_t>(*rc::gen::inRange(0, 6'000));
        s.settings.matchmaker.max_players = *rc::gen::inRange(2, 5);
        s.settings.matchmaker.max_wait_ms = static_cast<std::uint64_t>(*rc::gen::inRange(0, 8'000));
        return s;
    });
}

// An evening: 100 to 600 commands (RapidCheck draws the shorter ones first).
rc::Gen<std::vector<SimCommand>> evening() {
    return rc::gen::mapcat(rc::gen::inRange<std::size_t>(100, 600), [](std::size_t n) {
        return rc::gen::container<std::vector<SimCommand>>(n, rc::gen::arbitrary<SimCommand>());
    });
}

}  // namespace

TEST_CASE("arena core: on any evening, every rule holds, and the ratings end as rerate's",
          "[props][arena]") {
    rc::prop("the rules hold", [] {
        const SimSetup setup = *setups();
        const auto commands = *evening();
        ArenaSim sim(setup);
        for (const SimCommand& command : commands)
            RC_ASSERT(sim.step(command) == "");
        RC_ASSERT(sim.drain() == "");
        RC_TAG(sim.rated == 0   ? "none rated"
               : sim.rated < 10 ? "1 to 9 rated"
                                : "10 or more rated");
    });
}

TEST_CASE("arena core: a wrong core is caught on random evenings", "[props][arena]") {
    // A core that pauses one match early: the property above, on the same evenings, finds it
    // (RapidCheck prints the evening it found, below: this property must fail).
    const bool kept = rc::check("a wrong core, which pauses a match early, must be caught", [] {
        SimSetup setup = *setups();
        setup.remote_bots = std::max(setup.remote_bots, 2);
        setup.settings.faults_to_pause = std::max(setup.settings.faults_to_pause, 2);
        setup.core_faults_to_pause = setup.settings.faults_to_pause - 1;
        const auto commands = *evening();
        ArenaSim sim(setup);
        for (const SimCommand& command : commands)
            RC_ASSERT(sim.step(command) == "");
        RC_ASSERT(sim.drain() == "");
    });
    CHECK_FALSE(kept);
}
