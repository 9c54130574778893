#include "arena/matchmaker_rules.hpp"

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
            for (std::size_t b = a + 1; b < table.size(); ++b)
                if (queue[static_cast<std::size_t>(table[a])].owner ==
                    queue[static_cast<std::size_t>(table[b])].owner)
                    return fmt::format("owner {} twice at a table",
                                       queue[static_cast<std::size_t>(table[a])].owner);
        if (queue[static_cast<std::size_t>(table[0])].filler)
            return "a table made for a house bot's free seat";
        if (size < config.max_players && !late(table[0]))
            return fmt::format("a table of {} before its first seat waited its time", size);
    }
    for (std::size_t i = 0; i < queue.size(); ++i) {
        if (seated[i] || queue[i].filler || !late(static_cast<int>(i)))
            continue;
        for (std::size_t j = 0; j < queue.size(); ++j)
            if (!seated[j] && queue[j].owner != queue[i].owner)
                return fmt::format("seat {} left waiting past its time beside seat {}", i, j);
    }
    return "";
}

}  // namespace bg::arena
