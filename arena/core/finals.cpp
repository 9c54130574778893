#include "arena/core/finals.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace bg::arena {

namespace {

// A game's place as the finals compare them: out of it is last.
int place(int rank) {
    return rank <= 0 ? 1'000 : rank;
}

// Whether a game was played by the end of the round `upto` (a stage and a round of it).
bool by(const FinalsGame& g, std::pair<int, int> upto) {
    return std::pair{g.stage, g.round} <= upto;
}

// A pair of entries, the lower first.
std::pair<int, int> pair_of(int a, int b) {
    return {std::min(a, b), std::max(a, b)};
}

// The finals so far, stage by stage.
class Fold {
  public:
    Fold(const SeasonRules& rules, const std::vector<int>& finalists,
         const std::vector<FinalsGame>& played)
        : rules_(rules), finalists_(finalists), fields_(stage_fields(rules, finalists.size())) {
        for (std::size_t i = 0; i < finalists.size(); ++i)
            seed_rank_[finalists[i]] = static_cast<int>(i);
        // Each pair's first match of a round, in the order they were rated; each pair's games.
        for (const FinalsGame& g : played)
            if (played_.insert({g.stage, g.round, pair_of(g.first, g.second)}).second) {
                by_pair_[pair_of(g.first, g.second)].push_back(games_.size());
                games_.push_back(g);
            }
    }

    FinalsState run() {
        std::vector<int> field = finalists_;
        std::vector<FinalsPlace> below;  // the places cut from the stages before, best first
        FinalsState state;
        for (int stage = 0;; ++stage) {
            state.stage = stage;
            bool settled = false;
            std::vector<FinalsPlace> now;  // the field's places at the end of its last round
            for (int round = 0; round < rules_.deals && !settled; ++round) {
                // Each round judged by the games played by its end, as it was when it ended.
                upto_ = {stage, round};
                state.round = round;
                state.wanted = wanted(field, stage, round);
                if (!state.wanted.empty()) {
                    state.places = places(order(field), stage, below);
                    return state;
                }
                state.round = round + 1;
                now = places(order(field), stage, {});
                settled = all_settled(now);
            }
            const std::size_t next = static_cast<std::size_t>(stage) + 1 < fields_.size()
                                         ? static_cast<std::size_t>(fields_[stage + 1])
                                         : 0;
            if (settled || next == 0 || next >= now.size() ||
                all_settled({now.begin(), now.begin() + static_cast<long>(next)})) {
                state.places = places(order(field), stage, below);
                state.over = true;
                return state;
            }
            std::vector<FinalsPlace> cut(now.begin() + static_cast<long>(next), now.end());
            below.insert(below.begin(), cut.begin(), cut.end());
            field.clear();
            for (std::size_t i = 0; i < next; ++i)
                field.push_back(now[i].entry);
        }
    }

  private:
    // The pairs of the round not yet played: every pair of the field, the first seat the
    // better's in even rounds and the other's in odd ones.
    std::vector<FinalsPair> wanted(const std::vector<int>& field, int stage, int round) const {
        std::vector<FinalsPair> out;
        const std::uint64_t deal = finals_deal(rules_.seed, stage, round);
        for (std::size_t i = 0; i < field.size(); ++i)
            for (std::size_t j = i + 1; j < field.size(); ++j) {
                const int a = field[i], b = field[j];
                if (!played_.count({stage, round, pair_of(a, b)}))
                    out.push_back(round % 2 == 0 ? FinalsPair{stage, round, a, b, deal}
                                                 : FinalsPair{stage, round, b, a, deal});
            }
        return out;
    }

    // The field by its share of points against itself by the end of the round judged (a
    // round's order as it stood at its end, whatever was played after), an equal share by the
    // board's order.
    struct Scored {
        int entry = 0;
        double share = 0;
        int games = 0;
    };
    std::vector<Scored> order(const std::vector<int>& field) const {
        const std::set<int> in(field.begin(), field.end());
        std::map<int, std::pair<int, int>> points;  // half-points, games
        for (const FinalsGame& g : games_) {
            if (!by(g, upto_) || !in.count(g.first) || !in.count(g.second))
                continue;
            for (const int p : g.first_points) {
                points[g.first].first += p;
                points[g.second].first += 2 - p;
            }
            points[g.first].second += 2;
            points[g.second].second += 2;
        }
        std::vector<Scored> out;
        for (const int e : field) {
            const auto [half, games] = points[e];
            out.push_back({e, games ? half / (2.0 * games) : 0.5, games});
        }
        std::stable_sort(out.begin(), out.end(), [&](const Scored& a, const Scored& b) {
            if (a.share != b.share)
                return a.share > b.share;
            return seed_rank_.at(a.entry) < seed_rank_.at(b.entry);
        });
        return out;
    }

    // `field`'s places after `below`'s would come, each judged against the next.
    std::vector<FinalsPlace> places(const std::vector<Scored>& field, int stage,
                                    const std::vector<FinalsPlace>& below) const {
        std::vector<FinalsPlace> out;
        for (std::size_t i = 0; i < field.size(); ++i) {
            FinalsPlace p;
            p.entry = field[i].entry;
            p.stage = stage;
            p.share = field[i].share;
            p.games = field[i].games;
            if (i + 1 < field.size())
                judge(p, field[i + 1].entry);
            out.push_back(p);
        }
        // The last of the field against the first cut before: their games together.
        if (!out.empty() && !below.empty())
            judge(out.back(), below.front().entry);
        out.insert(out.end(), below.begin(), below.end());
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i].place = static_cast<int>(i) + 1;
        return out;
    }

    void judge(FinalsPlace& p, int next) const {
        const stats::Pentanomial ahead = head_to_head(p.entry, next);
        const stats::Pentanomial behind = head_to_head(next, p.entry);
        p.pairs = ahead.total();
        p.llr = rules_.sprt.llr(ahead);
        p.los = p.pairs ? stats::summarize(ahead).los : 0.5;
        const auto up = rules_.sprt.decide(ahead), down = rules_.sprt.decide(behind);
        using D = stats::Sprt::Decision;
        p.verdict = up == D::h1                    ? FinalsPlace::Verdict::ahead
                    : up == D::h0 && down == D::h0 ? FinalsPlace::Verdict::even
                                                   : FinalsPlace::Verdict::unsettled;
    }

    // The head-to-head pairs of games of `a` against `b` by the end of the round judged, from
    // a's side.
    stats::Pentanomial head_to_head(int a, int b) const {
        stats::Pentanomial p;
        const auto games = by_pair_.find(pair_of(a, b));
        if (games == by_pair_.end())
            return p;
        for (const std::size_t i : games->second)
            if (const FinalsGame& g = games_[i]; !by(g, upto_))
                continue;
            else if (g.first == a)
                p.add(g.first_points[0], g.first_points[1]);
            else
                p.add(2 - g.first_points[0], 2 - g.first_points[1]);
        return p;
    }

    static bool all_settled(const std::vector<FinalsPlace>& places) {
        for (std::size_t i = 0; i + 1 < places.size(); ++i)
            if (places[i].verdict == FinalsPlace::Verdict::unsettled)
                return false;
        return true;
    }

    const SeasonRules& rules_;
    const std::vector<int>& finalists_;
    const std::vector<int> fields_;
    std::map<int, int> seed_rank_;
    std::vector<FinalsGame> games_;
    std::set<std::tuple<int, int, std::pair<int, int>>> played_;       // stage, round, pair
    std::map<std::pair<int, int>, std::vector<std::size_t>> by_pair_;  // into games_
    std::pair<int, int> upto_{0, 0};  // the round judged: its stage, and its round
};

}  // namespace

FinalsGame finals_game(int stage, int round, int first, int second,
                       const std::vector<StoredGame>& games) {
    FinalsGame out{stage, round, first, second, {1, 1}};
    for (const StoredGame& g : games) {
        if (g.rotation < 0 || g.rotation > 1 || g.result.players.size() != 2)
            continue;
        // Seat s of rotation r holds the entrant of first seat (s + r) mod 2: the first, s = r.
        const auto s = static_cast<std::size_t>(g.rotation);
        const int mine = place(g.result.players[s].rank);
        const int theirs = place(g.result.players[1 - s].rank);
        out.first_points[static_cast<std::size_t>(g.rotation)] = mine < theirs    ? 2
                                                                 : mine == theirs ? 1
                                                                                  : 0;
    }
    return out;
}

std::vector<int> stage_fields(const SeasonRules& rules, std::size_t finalists) {
    std::vector<int> fields{static_cast<int>(finalists)};
    for (std::size_t i = 1; i < rules.fields.size(); ++i)
        if (rules.fields[i] < fields.back())
            fields.push_back(rules.fields[i]);
    return fields;
}

std::uint64_t finals_deal(std::uint64_t seed, int stage, int round) {
    // SplitMix64's finaliser over the seed and the round's place in the finals.
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(stage) * 100'003 +
                                                      static_cast<std::uint64_t>(round) + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

const char* verdict_name(FinalsPlace::Verdict verdict) {
    switch (verdict) {
        case FinalsPlace::Verdict::ahead:
            return "ahead";
        case FinalsPlace::Verdict::even:
            return "even";
        case FinalsPlace::Verdict::unsettled:
            return "unsettled";
        case FinalsPlace::Verdict::last:
            break;
    }
    return "last";
}

FinalsState finals_state(const SeasonRules& rules, const std::vector<int>& finalists,
                         const std::vector<FinalsGame>& played) {
    if (finalists.size() < 2) {
        FinalsState state;
        for (const int e : finalists)
            state.places.push_back({1, e, 0, 0.5, 0, FinalsPlace::Verdict::last, 0, 0, 0.5});
        state.over = true;
        return state;
    }
    return Fold(rules, finalists, played).run();
}

}  // namespace bg::arena
