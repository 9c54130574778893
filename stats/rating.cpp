#include "stats/rating.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace bg::stats {

namespace {

// Natural-log strength per Elo point: g = 10^(r/400) = e^(r * elo_to_theta).
const double elo_to_theta = std::numbers::ln10 / 400;

// One step of a game's standings: `chosen` taken from `set` (bot indices).
struct Choice {
    std::vector<int> set;
    std::vector<int> chosen;
};

std::vector<Choice> choices_of(int bots, const std::vector<RankedGame>& games) {
    std::vector<Choice> out;
    for (const RankedGame& game : games) {
        std::vector<std::pair<int, int>> order;  // (place, bot); disqualified last
        for (std::size_t s = 0; s < game.bots.size(); ++s) {
            const int standing = game.standings[s];
            order.emplace_back(standing == 0 ? 1 << 20 : standing, game.bots[s]);
        }
        std::sort(order.begin(), order.end());
        std::vector<int> unplaced;
        for (const auto& [place, bot] : order)
            unplaced.push_back(bot);
        std::size_t next = 0;
        while (next < order.size()) {
            std::size_t end = next;
            while (end < order.size() && order[end].first == order[next].first)
                ++end;
            if (next == 0 && end == order.size())
                break;  // everyone tied: nothing learnt
            if (end == order.size())
                break;  // the last place is what is left
            Choice choice;
            choice.set.assign(unplaced.begin() + static_cast<long>(next), unplaced.end());
            for (std::size_t i = next; i < end; ++i)
                choice.chosen.push_back(order[i].second);
            out.push_back(std::move(choice));
            next = end;
        }
    }
    // The prior: a virtual win and a virtual loss between each bot and the next (in a ring).
    if (bots >= 2)
        for (int bot = 0; bot < bots; ++bot) {
            const int next = (bot + 1) % bots;
            out.push_back({{bot, next}, {bot}});
            out.push_back({{bot, next}, {next}});
        }
    return out;
}

// The inverse of a nonsingular matrix (Gauss-Jordan, partial pivoting).
std::vector<std::vector<double>> inverse(std::vector<std::vector<double>> a) {
    const std::size_t n = a.size();
    std::vector<std::vector<double>> inv(n, std::vector<double>(n, 0));
    for (std::size_t i = 0; i < n; ++i)
        inv[i][i] = 1;
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::abs(a[r][col]) > std::abs(a[pivot][col]))
                pivot = r;
        std::swap(a[col], a[pivot]);
        std::swap(inv[col], inv[pivot]);
        const double p = a[col][col];
        for (std::size_t c = 0; c < n; ++c) {
            a[col][c] /= p;
            inv[col][c] /= p;
        }
        for (std::size_t r = 0; r < n; ++r) {
            if (r == col || a[r][col] == 0)
                continue;
            const double f = a[r][col];
            for (std::size_t c = 0; c < n; ++c) {
                a[r][c] -= f * a[col][c];
                inv[r][c] -= f * inv[col][c];
            }
        }
    }
    return inv;
}

}  // namespace

RatingFit fit_ratings(int bots, const std::vector<RankedGame>& games, double z) {
    RatingFit fit;
    if (bots <= 0)
        return fit;
    const auto n = static_cast<std::size_t>(bots);
    const std::vector<Choice> choices = choices_of(bots, games);
    std::vector<double> strength(n, 1.0);
    std::vector<double> wins(n, 0.0);
    for (const Choice& c : choices)
        for (int bot : c.chosen)
            wins[static_cast<std::size_t>(bot)] += 1;

    for (fit.iterations = 1; fit.iterations <= 10'000; ++fit.iterations) {
        std::vector<double> denominator(n, 0.0);
        for (const Choice& c : choices) {
            double total = 0;
            for (int bot : c.set)
                total += strength[static_cast<std::size_t>(bot)];
            const double share = static_cast<double>(c.chosen.size()) / total;
            for (int bot : c.set)
                denominator[static_cast<std::size_t>(bot)] += share;
        }
        // The model does not change when every strength is scaled alike: their geometric
        // mean is kept at 1.
        std::vector<double> updated(n);
        double log_mean = 0;
        for (std::size_t i = 0; i < n; ++i) {
            updated[i] = wins[i] / denominator[i];
            log_mean += std::log(updated[i]) / static_cast<double>(n);
        }
        double change = 0;
        for (std::size_t i = 0; i < n; ++i) {
            updated[i] /= std::exp(log_mean);
            change = std::max(change, std::abs(std::log(updated[i] / strength[i])));
        }
        strength = std::move(updated);
        if (change < 1e-10) {
            fit.converged = true;
            break;
        }
    }

    // The observed information in theta = ln g. It is singular along (1, ..., 1), the direction
    // the model cannot see; the covariance of the centred ratings is its pseudo-inverse,
    // (I + 11'/n)^-1 - 11'/n.
    std::vector<std::vector<double>> information(n, std::vector<double>(n, 0.0));
    for (const Choice& c : choices) {
        double total = 0;
        for (int bot : c.set)
            total += strength[static_cast<std::size_t>(bot)];
        const double weight = static_cast<double>(c.chosen.size());
        for (int a : c.set) {
            const double pa = strength[static_cast<std::size_t>(a)] / total;
            for (int b : c.set) {
                const double pb = strength[static_cast<std::size_t>(b)] / total;
                information[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] +=
                    weight * ((a == b ? pa : 0) - pa * pb);
            }
        }
    }
    for (auto& row : information)
        for (double& cell : row)
            cell += 1 / static_cast<double>(n);
    auto covariance = inverse(information);
    for (auto& row : covariance)
        for (double& cell : row)
            cell -= 1 / static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double variance = covariance[i][i];
        Rating r;
        // Centred already: every step keeps the strengths' geometric mean at 1.
        r.elo = std::log(strength[i]) / elo_to_theta;
        r.standard_error = std::sqrt(std::max(variance, 0.0)) / elo_to_theta;
        r.low = r.elo - z * r.standard_error;
        r.high = r.elo + z * r.standard_error;
        fit.ratings.push_back(r);
    }
    return fit;
}

}  // namespace bg::stats
