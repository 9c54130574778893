#include "arena/core/matchmaker.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

#include <fmt/format.h>

#include "core/random.hpp"

namespace bg::arena {

namespace {

bool overdue(const Waiting& w, const MatchmakerConfig& config, std::uint64_t now_ms) {
    return now_ms >= w.since_ms && now_ms - w.since_ms >= config.max_wait_ms;
}

// Uniform in [0, 1) from one draw.
double unit(SplitMix64& rng) {
    return static_cast<double>(rng.next() >> 11) / 9007199254740992.0;
}

// How many recent matches each pair of entries played together.
class Recency {
  public:
    explicit Recency(const std::vector<RecentMatch>& recent) {
        for (const RecentMatch& match : recent)
            for (std::size_t a = 0; a < match.size(); ++a)
                for (std::size_t b = a + 1; b < match.size(); ++b)
                    ++count_[key(match[a], match[b])];
    }
    int together(int a, int b) const {
        const auto found = count_.find(key(a, b));
        return found == count_.end() ? 0 : found->second;
    }

  private:
    static std::pair<int, int> key(int a, int b) { return {std::min(a, b), std::max(a, b)}; }
    std::map<std::pair<int, int>, int> count_;
};

}  // namespace

std::string check(const MatchmakerConfig& config) {
    if (config.max_players < 2 || config.max_players > 8)
        return fmt::format("max players must be 2 to 8, not {}", config.max_players);
    if (!(config.randomness >= 0) || !std::isfinite(config.randomness))
        return "randomness must be a number 0 or more";
    if (!(config.repeat_penalty >= 0) || !std::isfinite(config.repeat_penalty))
        return "the repeat penalty must be a number 0 or more";
    if (config.window < 1)
        return fmt::format("the window must be 1 or more, not {}", config.window);
    return "";
}

std::vector<int> by_need(const std::vector<Waiting>& queue, const MatchmakerConfig& config,
                         std::uint64_t now_ms) {
    std::vector<int> order(queue.size());
    std::iota(order.begin(), order.end(), 0);
    const auto need = [&](int i) {
        const Waiting& w = queue[static_cast<std::size_t>(i)];
        const bool late = overdue(w, config, now_ms);
        // Past the wait: the longest first. Else fewest matches, least certain, longest wait.
        return std::make_tuple(!late, late ? w.since_ms : 0, w.matches, -w.sigma, w.since_ms, i);
    };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return need(a) < need(b); });
    return order;
}

std::vector<std::vector<int>> make_tables(const std::vector<Waiting>& queue,
                                          const std::vector<RecentMatch>& recent,
                                          const MatchmakerConfig& config, std::uint64_t now_ms,
                                          std::uint64_t seed) {
    std::vector<std::vector<int>> tables;
    if (!check(config).empty())
        return tables;
    const std::size_t n = queue.size();
    const auto at = [&](int i) -> const Waiting& { return queue[static_cast<std::size_t>(i)]; };
    // The seats by rating, and where each is in that order.
    std::vector<int> by_rating(n);
    std::iota(by_rating.begin(), by_rating.end(), 0);
    std::sort(by_rating.begin(), by_rating.end(),
              [&](int a, int b) { return std::tie(at(a).mu, a) < std::tie(at(b).mu, b); });
    std::vector<std::size_t> position(n);
    for (std::size_t p = 0; p < n; ++p)
        position[static_cast<std::size_t>(by_rating[p])] = p;
    const Recency recency(recent);
    SplitMix64 rng(seed);
    std::vector<bool> seated(n, false);

    for (const int first : by_need(queue, config, now_ms)) {
        if (seated[static_cast<std::size_t>(first)] || at(first).filler)
            continue;
        if (at(first).wants) {
            // Its one opponent's free seat, if there is one, and no one else.
            for (std::size_t c = 0; c < n; ++c)
                if (!seated[c] && queue[c].filler && !queue[c].wants &&
                    queue[c].entry == at(first).wants && queue[c].owner != at(first).owner) {
                    seated[static_cast<std::size_t>(first)] = seated[c] = true;
                    tables.push_back({first, static_cast<int>(c)});
                    break;
                }
            continue;
        }
        // The nearest free seats of other owners on each side, each at its blurred distance.
        std::vector<std::pair<double, int>> candidates;
        const auto look = [&](std::size_t p) {
            const int c = by_rating[p];
            if (seated[static_cast<std::size_t>(c)] || at(c).owner == at(first).owner ||
                at(c).wants)
                return false;
            candidates.emplace_back(
                std::abs(at(c).mu - at(first).mu) + config.randomness * unit(rng), c);
            return true;
        };
        const std::size_t home = position[static_cast<std::size_t>(first)];
        for (std::size_t p = home, found = 0; p > 0 && found < std::size_t(config.window);)
            found += look(--p);
        for (std::size_t p = home + 1, found = 0; p < n && found < std::size_t(config.window); ++p)
            found += look(p);

        std::vector<int> table{first};
        std::vector<bool> taken(candidates.size(), false);
        while (static_cast<int>(table.size()) < config.max_players) {
            double best_score = 0;
            std::size_t best = candidates.size();
            for (std::size_t k = 0; k < candidates.size(); ++k) {
                const int c = candidates[k].second;
                const bool same_owner = std::any_of(
                    table.begin(), table.end(), [&](int m) { return at(m).owner == at(c).owner; });
                if (taken[k] || same_owner)
                    continue;
                double score = candidates[k].first;
                for (int m : table)
                    score += config.repeat_penalty * recency.together(at(m).entry, at(c).entry);
                if (best == candidates.size() || score < best_score)
                    best_score = score, best = k;
            }
            if (best == candidates.size())
                break;
            taken[best] = true;
            table.push_back(candidates[best].second);
        }
        const bool full = static_cast<int>(table.size()) == config.max_players;
        if (!full && (table.size() < 2 || !overdue(at(first), config, now_ms)))
            continue;  // it waits for more, or for anyone at all
        for (int m : table)
            seated[static_cast<std::size_t>(m)] = true;
        tables.push_back(std::move(table));
    }
    return tables;
}

}  // namespace bg::arena
