#include "arena/core/matchmaker.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

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

// How many recent matches each pair of entries played together: each entry's partners, found
// by hashing (most entries have none: nothing to weigh for them).
class Recency {
  public:
    explicit Recency(const std::vector<RecentMatch>& recent) {
        for (const RecentMatch& match : recent)
            for (std::size_t a = 0; a < match.size(); ++a)
                for (std::size_t b = a + 1; b < match.size(); ++b) {
                    ++partners_[match[a]][match[b]];
                    if (match[a] != match[b])
                        ++partners_[match[b]][match[a]];
                }
    }
    // Its partners, or none.
    const std::unordered_map<int, int>* of(int entry) const {
        const auto found = partners_.find(entry);
        return found == partners_.end() ? nullptr : &found->second;
    }

  private:
    std::unordered_map<int, std::unordered_map<int, int>> partners_;
};

// Each seat's owner as a number, so that owners are compared as numbers.
std::vector<int> owner_numbers(const std::vector<Waiting>& queue) {
    std::unordered_map<std::string_view, int> numbers;
    std::vector<int> owners;
    owners.reserve(queue.size());
    for (const Waiting& w : queue)
        owners.push_back(numbers.emplace(w.owner, static_cast<int>(numbers.size())).first->second);
    return owners;
}

// Positions in the rating order not yet seated, each found in near constant time: a seated
// position points past itself (its run of seated neighbours is skipped, and the path shortened).
class Unseated {
  public:
    explicit Unseated(std::size_t n) : right_(n + 1), left_(n + 1) {
        for (std::size_t p = 0; p <= n; ++p)
            right_[p] = left_[p] = p;
    }
    void seat(std::size_t p) {
        right_[p] = p + 1;
        left_[p + 1] = p;  // left_ is kept one place up: left_[p + 1] for position p
    }
    // The first unseated position at or after p (n: none).
    std::size_t at_or_after(std::size_t p) { return find(right_, p); }
    // The first unseated position before p, plus one (0: none).
    std::size_t before(std::size_t p) { return find(left_, p); }

  private:
    static std::size_t find(std::vector<std::size_t>& next, std::size_t p) {
        std::size_t root = p;
        while (next[root] != root)
            root = next[root];
        while (next[p] != root)
            p = std::exchange(next[p], root);
        return root;
    }
    std::vector<std::size_t> right_, left_;
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

namespace {

// One turn of the matchmaker: the queue by rating, who is seated, and the candidates of the
// table being made.
class Turn {
  public:
    Turn(const std::vector<Waiting>& queue, const std::vector<RecentMatch>& recent,
         const MatchmakerConfig& config, std::uint64_t seed)
        : queue_(queue),
          config_(config),
          owner_(owner_numbers(queue)),
          by_rating_(queue.size()),
          position_(queue.size()),
          recency_(recent),
          rng_(seed),
          seated_(queue.size(), false),
          unseated_(queue.size()) {
        std::iota(by_rating_.begin(), by_rating_.end(), 0);
        std::sort(by_rating_.begin(), by_rating_.end(),
                  [&](int a, int b) { return std::tie(at(a).mu, a) < std::tie(at(b).mu, b); });
        for (std::size_t p = 0; p < by_rating_.size(); ++p)
            position_[static_cast<std::size_t>(by_rating_[p])] = p;
    }
    const Waiting& at(int i) const { return queue_[static_cast<std::size_t>(i)]; }
    int owner_of(int i) const { return owner_[static_cast<std::size_t>(i)]; }
    bool seated(int i) const { return seated_[static_cast<std::size_t>(i)]; }
    void sit(int i) {
        seated_[static_cast<std::size_t>(i)] = true;
        unseated_.seat(position_[static_cast<std::size_t>(i)]);
    }
    // The free seat of the one opponent `first` wants, or none.
    std::optional<int> wanted(int first) const {
        for (std::size_t c = 0; c < queue_.size(); ++c)
            if (!seated_[c] && queue_[c].filler && !queue_[c].wants &&
                queue_[c].entry == at(first).wants && owner_[c] != owner_of(first) &&
                same_place(queue_[c], at(first)))
                return static_cast<int>(c);
        return std::nullopt;
    }
    // The table made for `first`, from the nearest free seats of other owners on each side,
    // each at its blurred distance and lengthened by its recent matches with those seated.
    std::vector<int> table_for(int first);

  private:
    // A candidate, and how many recent matches it played with each seat of the table so far.
    struct Candidate {
        double distance = 0;
        int seat = 0;
        bool taken = false;
        std::array<int, 8> together{};
    };
    void gather(int first);
    void weigh(int member, std::size_t column);

    const std::vector<Waiting>& queue_;
    const MatchmakerConfig& config_;
    std::vector<int> owner_;
    std::vector<int> by_rating_;
    std::vector<std::size_t> position_;
    Recency recency_;
    SplitMix64 rng_;
    std::vector<bool> seated_;
    Unseated unseated_;
    std::vector<Candidate> candidates_;
};

void Turn::gather(int first) {
    candidates_.clear();
    const auto look = [&](std::size_t p) {
        const int c = by_rating_[p];
        if (owner_of(c) == owner_of(first) || at(c).wants || !same_place(at(c), at(first)))
            return false;
        candidates_.push_back(
            {std::abs(at(c).mu - at(first).mu) + config_.randomness * unit(rng_), c});
        return true;
    };
    const std::size_t n = queue_.size();
    const std::size_t home = position_[static_cast<std::size_t>(first)];
    const auto window = static_cast<std::size_t>(config_.window);
    for (std::size_t p = unseated_.before(home), found = 0; p > 0 && found < window;
         p = unseated_.before(p - 1))
        found += look(p - 1);
    for (std::size_t p = unseated_.at_or_after(home + 1), found = 0; p < n && found < window;
         p = unseated_.at_or_after(p + 1))
        found += look(p);
}

// What the table's new seat's recent matches add to each candidate's score.
void Turn::weigh(int member, std::size_t column) {
    const auto* partners = recency_.of(at(member).entry);
    for (Candidate& k : candidates_) {
        k.together[column] = 0;
        if (partners)
            if (const auto met = partners->find(at(k.seat).entry); met != partners->end())
                k.together[column] = met->second;
    }
}

std::vector<int> Turn::table_for(int first) {
    gather(first);
    std::vector<int> table{first};
    std::vector<int> owners{owner_of(first)};
    // The first connection's seat decides where the table plays (a seat played anywhere, none).
    int placed = first;
    weigh(first, 0);
    while (static_cast<int>(table.size()) < config_.max_players) {
        double best_score = 0;
        std::size_t best = candidates_.size();
        for (std::size_t k = 0; k < candidates_.size(); ++k) {
            const Candidate& c = candidates_[k];
            if (c.taken || !same_place(at(c.seat), at(placed)) ||
                std::find(owners.begin(), owners.end(), owner_of(c.seat)) != owners.end())
                continue;
            double score = c.distance;
            for (std::size_t m = 0; m < table.size(); ++m)
                score += config_.repeat_penalty * c.together[m];
            if (best == candidates_.size() || score < best_score)
                best_score = score, best = k;
        }
        if (best == candidates_.size())
            break;
        candidates_[best].taken = true;
        if (at(placed).node.empty())
            placed = candidates_[best].seat;
        table.push_back(candidates_[best].seat);
        owners.push_back(owner_of(candidates_[best].seat));
        weigh(candidates_[best].seat, table.size() - 1);
    }
    return table;
}

}  // namespace

std::vector<std::vector<int>> make_tables(const std::vector<Waiting>& queue,
                                          const std::vector<RecentMatch>& recent,
                                          const MatchmakerConfig& config, std::uint64_t now_ms,
                                          std::uint64_t seed) {
    std::vector<std::vector<int>> tables;
    if (!check(config).empty())
        return tables;
    Turn turn(queue, recent, config, seed);
    for (const int first : by_need(queue, config, now_ms)) {
        if (turn.seated(first) || turn.at(first).filler)
            continue;
        if (turn.at(first).wants) {
            // Its one opponent's free seat, if there is one, and no one else.
            if (const auto opponent = turn.wanted(first)) {
                turn.sit(first);
                turn.sit(*opponent);
                tables.push_back({first, *opponent});
            }
            continue;
        }
        std::vector<int> table = turn.table_for(first);
        const bool full = static_cast<int>(table.size()) == config.max_players;
        if (!full && (table.size() < 2 || !overdue(turn.at(first), config, now_ms)))
            continue;  // it waits for more, or for anyone at all
        for (int m : table)
            turn.sit(m);
        tables.push_back(std::move(table));
    }
    return tables;
}

}  // namespace bg::arena
