// The arena lobby's connections (arena/lobby.hpp), each from its first wait on, and what one
// is told of its match.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/core/inputs.hpp"
#include "arena/store.hpp"
#include "remote/gate.hpp"

namespace bg::arena {

// A connection that waits to play: its name for the arena's core, its account and its entry as
// the store has them now, and a person's choice of opponent.
struct Arrival {
    Connection connection = 0;
    Bot bot;
    Entry entry;
    std::string opponent;
};

// What a connection is told of its match as each of its games begins (docs/arena.md,
// "Connecting a bot"): the match, its games, and its table's entrants with their ratings as
// it began, in the match's order.
struct MatchContext {
    int match = 0;
    int rotations = 0;
    struct Entrant {
        std::string name;
        stats::Belief rating;
    };
    std::vector<Entrant> table;
};
// The context of a match begun.
MatchContext match_context(const effect::Play& play);
// A `start`'s "match": {"id", "rotation", "rotations", "players", "table": [{"name", "rating":
// {"mu", "sigma"}}], "you"}, for its game `rotation` (from 1), told to `you`.
nlohmann::json match_start_json(const MatchContext& match, int rotation, const std::string& you);
// What a connection that played `record`'s match as `entry` is told once it is over:
// {"type": "match_over", "match", "state", "why" (a void one's), "place", "players", "rating":
// {"before", "after", "change"} (a rated one's)}.
nlohmann::json match_over_json(const MatchRecord& record, int entry);
// What each connection of a match is told of it, by its name and its entry (none: nothing).
using OverTold = std::function<std::optional<nlohmann::json>(Connection, int entry)>;
// Each told match_over_json of `record`.
OverTold told_over(const MatchRecord& record);

// "bot NAME" or "person NAME", as the arena's lines name a connection's account.
std::string who(const Arrival& arrival);

// The lobby's connections, each from its first wait on: found by its sitter, by its name and by
// its seat's token, and counted against its account's limit while it waits to play or plays.
// One that dropped within its match is held, without a sitter, for its account's next
// connection to take up (found by its account's token's hash) until its grace is over.
class Opens {
  public:
    using Sitter = remote::Gate::Sitter;
    struct Open {
        Connection connection = 0;
        Sitter* sitter = nullptr;  // none while held
        Arrival arrival;
        std::string peer;
        std::string bearer_hash;       // its account's token's
        bool waiting = false;          // to play: neither in a match nor at a check
        std::string seat_token;        // its match's or check's, while there
        int games_left = 0;            // its match's games not yet over for it
        bool counted = false;          // among its account's connections at once
        std::uint64_t held_until = 0;  // dropped within its match: until then, or 0
        bool draining = false;         // its client asked to leave after its match
        bool told_over = false;        // told how its match went
        // The match it plays, or last played; none while at a check.
        std::shared_ptr<const MatchContext> match;
    };
    Open& add(Sitter* sitter, Arrival arrival);
    void remove(Open& open);
    Open* of(const Sitter* sitter);
    Open* named(Connection connection);
    Open* seated_under(const std::string& token);
    const Open* seated_under(const std::string& token) const;
    // Seated under a match's (or a check's) token for `games` games, or let go of it ("").
    void seat(Open& open, const std::string& token, int games);
    // Counted against its account's connections at once, or no longer.
    void count(Open& open, bool counted);
    int connections(int bot) const;
    // Every connection's name with a sitter (or only those waiting to play).
    std::vector<Connection> names(bool waiting_only) const;
    // Held for its account's next connection until `until`; taken up by `sitter`.
    void hold(Open& open, std::uint64_t until);
    Open* held(const std::string& bearer_hash);
    const Open* held(const std::string& bearer_hash) const;
    void take_up(Open& open, Sitter& sitter);
    std::vector<Connection> held_names() const;

  private:
    std::map<Connection, Open> all_;
    std::unordered_map<const Sitter*, Connection> by_sitter_;
    std::unordered_map<std::string, Connection> by_token_;
    std::unordered_map<std::string, Connection> held_;  // by its account's token's hash
    std::map<int, int> per_bot_;
    Connection next_ = 1;
};

}  // namespace bg::arena
