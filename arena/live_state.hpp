// What a running arena shows of itself beyond its store (the API's /api/queue, /api/live, each
// account's status, /api/server's counts): drawn from its core in the node that holds the
// database, and there published (arena/published.hpp) for its front nodes, which answer from
// the last one they read. As JSON, with the holder's clock as it was drawn, so that a front
// says how long each has waited as the holder would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/core/arena_core.hpp"

namespace bg::arena {

struct LiveState {
    struct Waiting {
        int bot = 0;
        int entry = 0;
        std::uint64_t since_ms = 0;
        std::string opponent;
        friend bool operator==(const Waiting&, const Waiting&) = default;
    };
    struct Playing {
        int match = 0;
        std::vector<std::string> bots;  // in the order of the first rotation
        int games_over = 0;
        friend bool operator==(const Playing&, const Playing&) = default;
    };
    std::vector<Waiting> queue;           // in the order they came
    std::vector<Playing> playing;         // by match
    std::map<int, std::string> statuses;  // every account doing something, by id
    struct Over {
        int match = 0;
        std::string state, finished;
        friend bool operator==(const Over&, const Over&) = default;
    };
    std::vector<Over> recent;  // the last matches over, the newest first
    std::size_t checking = 0, unrecorded = 0;
    bool writable = true;
    std::uint64_t now_ms = 0;  // the holder's clock as it was drawn
    // The same state, but for the clock (a holder publishes a state that changed).
    bool same_as(const LiveState& other) const;
};

// The core's state now; `games_over` says how many of a playing match's games are over.
LiveState live_state(const ArenaCore& core, const std::function<int(int match)>& games_over);
nlohmann::json to_json(const LiveState& state);
// Throws nlohmann::json::exception for a document that is not one.
LiveState live_state_from(const nlohmann::json& j);

}  // namespace bg::arena
