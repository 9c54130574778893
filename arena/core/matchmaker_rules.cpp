#include "arena/core/matchmaker_rules.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bg::arena {

std::string broken_rule(const std::vector<Waiting>& queue, const MatchmakerConfig& config,
                        std::uint64_t now_ms, const std::vector<std::vector<int>>& tables) {
    const auto late = [&](int i) {
        const Waiting& w = queue[static_cast<std::size_t>(i)];
        return now_ms >= w.since_ms && now_ms - w.since_ms >= config.max_wait_ms;
    };
    std::vector<bool> seated(queue.size(), false);
    for (const auto& table : tables) {
        const int size = static_cast<int>(table.size());
        if (size < 2 || size > config.max_players)
            return fmt::format("a table of {} seats", size);
        for (int i : table) {
            if (i < 0 || static_cast<std::size_t>(i) >= queue.size())
                return fmt::format("seat {} is not in the queue", i);
            if (seated[static_cast<std::size_t>(i)])
                return fmt::format("seat {} is at two tables", i);
            seated[static_cast<std::size_t>(i)] = true;
        }
        for (std::size_t a = 0; a < table.size(); ++a)
            for (std::size_t b = a + 1; b < table.size(); ++b) {
                const Waiting& one = queue[static_cast<std::size_t>(table[a])];
                const Waiting& other = queue[static_cast<std::size_t>(table[b])];
                if (one.owner == other.owner)
                    return fmt::format("owner {} twice at a table", one.owner);
                if (!same_place(one, other))
                    return fmt::format("connections of nodes {} and {} at a table", one.node,
                                       other.node);
            }
        if (queue[static_cast<std::size_t>(table[0])].filler)
            return "a table made for a house bot's free seat";
        const int wants = queue[static_cast<std::size_t>(table[0])].wants;
        for (std::size_t k = 1; k < table.size(); ++k)
            if (queue[static_cast<std::size_t>(table[k])].wants)
                return fmt::format("seat {}, which wants one opponent, at a table made for another",
                                   table[k]);
        if (wants) {
            const Waiting& other = queue[static_cast<std::size_t>(table.back())];
            if (size != 2 || !other.filler || other.entry != wants)
                return fmt::format("seat {} wants entry {}, and is not alone with it", table[0],
                                   wants);
            continue;
        }
        if (size < config.max_players && !late(table[0]))
            return fmt::format("a table of {} before its first seat waited its time", size);
    }
    for (std::size_t i = 0; i < queue.size(); ++i) {
        if (seated[i] || queue[i].filler)
            continue;
        for (std::size_t j = 0; j < queue.size(); ++j) {
            if (seated[j] || queue[j].owner == queue[i].owner || !same_place(queue[i], queue[j]))
                continue;
            // One that wants an opponent is left only while no seat of it is free; anyone is
            // left past its time only beside those it may not play.
            if (queue[i].wants
                    ? queue[j].filler && !queue[j].wants && queue[j].entry == queue[i].wants
                    : late(static_cast<int>(i)) && !queue[j].wants)
                return fmt::format("seat {} left waiting {}beside seat {}", i,
                                   queue[i].wants ? "" : "past its time ", j);
        }
    }
    return "";
}

}  // namespace bg::arena
