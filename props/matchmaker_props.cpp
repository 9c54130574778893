// The arena's matchmaker (arena/matchmaker.hpp) on random queues: whatever waits, with whatever
// ratings, owners, waits and recent matches, and whatever its parameters, the tables it makes
// keep every rule (arena/matchmaker_rules.hpp), and the same arguments make the same tables.
//
// Reproduce a failure with RC_PARAMS="seed=N"; run longer with RC_PARAMS="max_success=5000".
#include <rapidcheck.h>
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <set>

#include "arena/core/matchmaker.hpp"
#include "arena/core/matchmaker_rules.hpp"

using namespace bg::arena;

namespace {

struct Case {
    std::vector<Waiting> queue;
    std::vector<RecentMatch> recent;
    MatchmakerConfig config;
    std::uint64_t now_ms = 0;
    std::uint64_t seed = 0;
};

rc::Gen<Case> cases() {
    return rc::gen::exec([] {
        Case c;
        const int owners = *rc::gen::inRange(1, 12);
        const int entries = *rc::gen::inRange(1, 30);
        const auto seats = *rc::gen::inRange(0, 60);
        for (int s = 0; s < seats; ++s) {
            Waiting w;
            w.entry = *rc::gen::inRange(0, entries);
            // One owner an entry, as the arena has it; a few owners hold many entries.
            w.owner = "owner-" + std::to_string(w.entry % owners);
            w.mu = *rc::gen::inRange(-20, 70) + *rc::gen::inRange(0, 100) / 100.0;
            w.sigma = *rc::gen::inRange(1, 90) / 10.0;
            w.matches = *rc::gen::inRange(0, 40);
            w.since_ms = static_cast<std::uint64_t>(*rc::gen::inRange(0, 100'000));
            w.filler = *rc::gen::inRange(0, 4) == 0;
            // Now and then a person who chose one opponent (an entry that may or may not wait).
            if (!w.filler && *rc::gen::inRange(0, 6) == 0)
                w.wants = *rc::gen::inRange(1, entries + 1);
            // A remote bot's or person's connection on one of two nodes, or a seat played
            // anywhere (as a house bot's free seat is; given a node here too, for the rules
            // hold whatever the queue).
            w.node = std::vector<std::string>{
                "", "node-a", "node-b"}[static_cast<std::size_t>(*rc::gen::inRange(0, 3))];
            c.queue.push_back(w);
        }
        const int matches = *rc::gen::inRange(0, 20);
        for (int m = 0; m < matches; ++m)
            c.recent.push_back(*rc::gen::container<std::vector<int>>(
                static_cast<std::size_t>(*rc::gen::inRange(2, 5)), rc::gen::inRange(0, entries)));
        c.config.max_players = *rc::gen::inRange(2, 9);
        c.config.max_wait_ms = static_cast<std::uint64_t>(*rc::gen::inRange(0, 60'000));
        c.config.randomness = *rc::gen::inRange(0, 60) / 10.0;
        c.config.repeat_penalty = *rc::gen::inRange(0, 100) / 10.0;
        c.config.window = *rc::gen::inRange(1, 40);
        c.now_ms = static_cast<std::uint64_t>(*rc::gen::inRange(0, 160'000));
        c.seed = *rc::gen::arbitrary<std::uint64_t>();
        return c;
    });
}

}  // namespace

TEST_CASE("matchmaker: every table it makes keeps every rule", "[props][matchmaker]") {
    rc::prop("the rules hold", [] {
        const Case c = *cases();
        const auto tables = make_tables(c.queue, c.recent, c.config, c.now_ms, c.seed);
        const std::string broken = broken_rule(c.queue, c.config, c.now_ms, tables);
        RC_ASSERT(broken == "");
        RC_ASSERT(make_tables(c.queue, c.recent, c.config, c.now_ms, c.seed) == tables);
    });
}

TEST_CASE("matchmaker: a matchmaker that breaks a rule is caught", "[props][matchmaker]") {
    // The checks themselves can fail: tables a wrong matchmaker would make are named.
    std::vector<Waiting> queue(4);
    for (int i = 0; i < 4; ++i)
        queue[static_cast<std::size_t>(i)] = {i, "o" + std::to_string(i), 25.0, 8.0, 0, 0};
    MatchmakerConfig config;
    config.max_players = 2;
    config.max_wait_ms = 1000;
    CHECK(broken_rule(queue, config, 0, {{0, 1}, {2, 3}}) == "");
    CHECK(broken_rule(queue, config, 0, {{0, 1}, {1, 2}}) != "");  // a seat twice
    CHECK(broken_rule(queue, config, 0, {{0}}) != "");             // a table of one
    CHECK(broken_rule(queue, config, 0, {{0, 1, 2}}) != "");       // over max_players
    CHECK(broken_rule(queue, config, 5000, {{0, 1}}) != "");       // 2 and 3 left past time
    queue[1].owner = "o0";
    CHECK(broken_rule(queue, config, 0, {{0, 1}}) != "");  // one owner twice
    config.max_players = 3;
    CHECK(broken_rule(queue, config, 0, {{0, 2}}) != "");     // short before its time
    CHECK(broken_rule(queue, config, 5000, {{0, 2}}) != "");  // 1 and 3 left past time
    queue[2].filler = true;
    CHECK(broken_rule(queue, config, 5000, {{2, 3, 0}}) != "");  // made for a filler
    queue[2].filler = false;
    queue[0].node = "a";
    queue[2].node = "b";
    CHECK(broken_rule(queue, config, 0, {{0, 2, 3}}) != "");  // connections of two nodes
    CHECK(broken_rule(queue, config, 5000, {{1, 2}}) != "");  // 0 left beside 3, played anywhere
}

TEST_CASE(
    "matchmaker: connections of two nodes never meet, and a seat played anywhere sits with either",
    "[props][matchmaker]") {
    // Two connections on node a, two on node b, all alike, and a house bot's free seat.
    std::vector<Waiting> queue;
    for (int i = 0; i < 4; ++i)
        queue.push_back({i + 1, "o" + std::to_string(i), 25.0 + i * 0.1, 8.0, 0, 0, false, 0,
                         i % 2 == 0 ? "a" : "b"});
    queue.push_back({9, "house", 25.15, 1.0, 50, 0, true, 0, ""});
    MatchmakerConfig config;
    config.max_players = 3;
    config.max_wait_ms = 1000;
    config.randomness = 0;
    // Before anyone's time only full tables are made: one node's two and the free seat.
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const auto early = make_tables(queue, {}, config, 0, seed);
        CHECK(broken_rule(queue, config, 0, early) == "");
        const auto late = make_tables(queue, {}, config, 5000, seed);
        CHECK(broken_rule(queue, config, 5000, late) == "");
        // Past their time everyone plays: one table a node, the free seat at one of them.
        REQUIRE(late.size() == 2);
        for (const auto& table : late) {
            std::set<std::string> nodes;
            for (const int i : table)
                if (!queue[static_cast<std::size_t>(i)].node.empty())
                    nodes.insert(queue[static_cast<std::size_t>(i)].node);
            CHECK(nodes.size() == 1);
        }
    }
}

TEST_CASE("matchmaker: one who chose an opponent plays it alone, as soon as it is free",
          "[props][matchmaker]") {
    // A person (entry 1) who chose the house bot of entry 9, that bot's free seat, a remote bot.
    std::vector<Waiting> queue = {{1, "person", 20.0, 8.0, 0, 0, false, 9},
                                  {9, "house", 30.0, 1.0, 50, 0, true, 0},
                                  {2, "remote", 30.0, 8.0, 0, 0, false, 0}};
    MatchmakerConfig config;
    config.max_wait_ms = 1000;
    CHECK(make_tables(queue, {}, config, 0, 7) == std::vector<std::vector<int>>{{0, 1}});
    CHECK(broken_rule(queue, config, 0, {{0, 1}}) == "");
    CHECK(broken_rule(queue, config, 0, {}) != "");              // left beside its free opponent
    CHECK(broken_rule(queue, config, 5000, {{2, 1, 0}}) != "");  // at a table made for another
    CHECK(broken_rule(queue, config, 5000, {{0, 2}}) != "");     // with another than it chose
    // Its opponent busy (no free seat): it waits, and the remote bot is not seated with it.
    queue[1].wants = 0;
    queue[1].entry = 8;
    const auto tables = make_tables(queue, {}, config, 5000, 7);
    CHECK(tables == std::vector<std::vector<int>>{{2, 1}});
    CHECK(broken_rule(queue, config, 5000, tables) == "");
}
