// The arena's core's connections (arena/core/arena_core.hpp): who waits to play, in the order
// they came, and who is being checked. A remote bot's version not yet checked, or a paused bot,
// is checked before it is queued; an account that may not play (disabled, removed, paused) is
// turned away; at the stop, everyone waiting is let go. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "arena/core/deciding.hpp"

namespace bg::arena {

class Lounge {
  public:
    explicit Lounge(Deciding& deciding) : d_(deciding) {}

    struct Queued {
        Connection connection = 0;
        int bot = 0;
        int entry = 0;
        std::uint64_t since_ms = 0;
        std::string opponent;
        std::string node{};  // input::Arrived's
    };
    void arrived(const input::Arrived& in, bool stopping);
    void left(Connection connection);
    void checked(const input::Checked& in);
    // The waiting connections of accounts that may not play now: told there are no more games.
    void turn_away_unplayable();
    // The stop: the checks under way cut short, and everyone waiting let go.
    void close();

    // Seated at a match: out of the queue.
    void seated(Connection connection);
    // The queue, by the order of arrival.
    const std::map<std::uint64_t, Queued>& queue() const { return queue_; }
    std::size_t checking() const { return checking_.size(); }

  private:
    struct Checking {
        int bot = 0;
        int entry = 0;
    };
    void recorded(Connection connection, const Checking& checking, const input::Checked& outcome,
                  const input::Written* written);

    Deciding& d_;
    std::uint64_t arrivals_ = 0;
    std::map<std::uint64_t, Queued> queue_;                // by order of arrival
    std::unordered_map<Connection, std::uint64_t> place_;  // each queued connection's order
    std::map<Connection, Checking> checking_;
};

}  // namespace bg::arena
