#include "tournament/schedule.hpp"

#include <fmt/format.h>

#include "core/random.hpp"

namespace bg::tournament {

namespace {

// C(n, k), or max_scheduled_games + 1 once it is larger.
std::uint64_t capped_binomial(int n, int k) {
    std::uint64_t value = 1;
    for (int i = 1; i <= k; ++i) {
        value = value * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
        if (value > max_scheduled_games)
            return max_scheduled_games + 1;
    }
    return value;
}

// Every k-subset of {first, ..., last}, each in increasing order, in lexicographic order.
void subsets(int first, int last, int k, std::vector<int>& chosen,
             std::vector<std::vector<int>>& out) {
    if (k == 0) {
        out.push_back(chosen);
        return;
    }
    for (int i = first; i <= last - k + 1; ++i) {
        chosen.push_back(i);
        subsets(i + 1, last, k - 1, chosen, out);
        chosen.pop_back();
    }
}

}  // namespace

std::vector<std::uint64_t> deal_seeds(std::uint64_t seed, int deals) {
    SplitMix64 rng(seed);
    std::vector<std::uint64_t> seeds;
    for (int d = 0; d < deals; ++d)
        seeds.push_back(rng.next());
    return seeds;
}

std::variant<std::vector<std::vector<int>>, std::string> tables(const ScheduleOptions& o) {
    if (o.players < 2)
        return fmt::format("a game needs at least 2 players, not {}", o.players);
    if (o.bots < o.players)
        return fmt::format("{} players a game need at least {} bots; there are {}", o.players,
                           o.players, o.bots);
    if (o.deals < 1)
        return fmt::format("at least one deal a table, not {}", o.deals);
    const bool gauntlet = o.format == Format::gauntlet;
    const std::uint64_t count =
        gauntlet ? capped_binomial(o.bots - 1, o.players - 1) : capped_binomial(o.bots, o.players);
    if (count * static_cast<std::uint64_t>(o.players) * static_cast<std::uint64_t>(o.deals) >
        max_scheduled_games)
        return fmt::format("more than {} games: fewer bots, players or deals", max_scheduled_games);
    std::vector<std::vector<int>> out;
    std::vector<int> chosen;
    if (gauntlet) {
        chosen.push_back(0);
        subsets(1, o.bots - 1, o.players - 1, chosen, out);
    } else {
        subsets(0, o.bots - 1, o.players, chosen, out);
    }
    return out;
}

std::variant<std::vector<Fixture>, std::string> schedule(const ScheduleOptions& o) {
    auto made = tables(o);
    if (auto* error = std::get_if<std::string>(&made))
        return std::move(*error);
    const auto& all = std::get<std::vector<std::vector<int>>>(made);
    const auto seeds = deal_seeds(o.seed, o.deals);
    std::vector<Fixture> games;
    games.reserve(all.size() * static_cast<std::size_t>(o.players * o.deals));
    for (int d = 0; d < o.deals; ++d)
        for (std::size_t t = 0; t < all.size(); ++t)
            for (int r = 0; r < o.players; ++r) {
                Fixture game{d, seeds[static_cast<std::size_t>(d)], static_cast<int>(t), r, {}};
                for (int seat = 0; seat < o.players; ++seat)
                    game.seats.push_back(all[t][static_cast<std::size_t>((seat + r) % o.players)]);
                games.push_back(std::move(game));
            }
    return games;
}

}  // namespace bg::tournament
