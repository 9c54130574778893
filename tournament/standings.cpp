#include "tournament/standings.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/text.hpp"
#include "remote/token.hpp"

namespace bg::tournament {

namespace {

// A standing to compare by: disqualified (0) below everyone.
int place(int standing) {
    return standing == 0 ? 1 << 20 : standing;
}

std::string_view decision_name(stats::Sprt::Decision decision) {
    switch (decision) {
        case stats::Sprt::Decision::h0:
            return "H0";
        case stats::Sprt::Decision::h1:
            return "H1";
        case stats::Sprt::Decision::undecided:
            break;
    }
    return "undecided";
}

std::string signed_elo(double elo) {
    return fmt::format("{:+.0f}", elo);
}

}  // namespace

void PairTally::add(const FixtureRecord& row) {
    if (!row.counts() || row.game.seats.size() != 2)
        return;
    const auto& winner = row.played->result.winner;
    const int half = !winner ? 1 : row.game.seats[static_cast<std::size_t>(*winner)] == 0 ? 2 : 0;
    const auto [it, first] = open_.try_emplace(row.game.deal, half);
    if (first)
        return;
    results_.add(it->second, half);
    open_.erase(it);
}

namespace {

// What a bot's means are made of, summed over its games.
struct BotSums {
    double standing = 0, think_ms = 0, cpu_ms = 0, cpu_wait_ms = 0;
    int timed = 0, counted = 0, waits = 0;
};

// One seat of a game that counts, into its bot's standing and sums.
void add_seat(const GameResult& result, std::size_t s, bool contended, BotStanding& bot,
              BotSums& sums) {
    const PlayerResult& r = result.players[s];
    ++bot.games;
    bot.wins += result.winner == static_cast<PlayerId>(s);
    sums.standing += r.rank == 0 ? static_cast<double>(result.players.size()) : r.rank;
    if (r.outcome == Outcome::disqualified) {
        ++bot.disqualified;
        ++bot.disqualifications[r.out_code.value_or(OutCode::other)];
    }
    bot.timeouts += result.end == End::game_timeout;
    bot.stalled += result.end == End::stalled;
    const PeelCounts counts = r.counts.value_or(PeelCounts{});
    bot.stale_peels += counts.stale;
    sums.think_ms += counts.think_ms;
    sums.timed += counts.timed;
    if (r.cpu_ms) {
        sums.cpu_ms += *r.cpu_ms;
        ++sums.counted;
    }
    if (r.memory_peak_bytes)
        bot.memory_peak_bytes = std::max(bot.memory_peak_bytes.value_or(0), *r.memory_peak_bytes);
    bot.restarts += r.restarted.value_or(false);
    bot.contended += contended;
    if (r.cpu_wait_ms) {
        sums.cpu_wait_ms += *r.cpu_wait_ms;
        ++sums.waits;
    }
}

}  // namespace

Standings standings(const TournamentSpec& spec, const std::vector<FixtureRecord>& rows,
                    std::optional<std::string> stopped, bool uncontended) {
    const std::size_t n = spec.bots.size();
    Standings out;
    out.stopped = std::move(stopped);
    out.uncontended = uncontended;
    out.head_to_head.assign(n, std::vector<double>(n));
    out.games_between.assign(n, std::vector<int>(n));
    std::vector<BotStanding> bots(n);
    std::vector<BotSums> sums(n);
    std::vector<stats::RankedGame> ranked;
    PairTally pairs;
    for (std::size_t b = 0; b < n; ++b) {
        bots[b].bot = static_cast<int>(b);
        bots[b].name = spec.bots[b].name;
        bots[b].remote = remote::is_remote(spec.bots[b].command);
    }
    for (const auto& row : rows) {
        out.total += !row.replay_of;
        out.done += !row.replay_of && row.played;
        out.replays += row.replay_of && row.played;
        if (!row.counts())
            continue;
        const GameResult& result = row.played->result;
        const bool contended = result.contended == true;
        out.contended += contended;
        if (uncontended && contended) {
            ++out.left_out;
            continue;
        }
        const auto& seats = row.game.seats;
        stats::RankedGame game{seats, {}};
        for (std::size_t s = 0; s < seats.size(); ++s) {
            const auto bot = static_cast<std::size_t>(seats[s]);
            add_seat(result, s, contended, bots[bot], sums[bot]);
            const int standing = result.players[s].rank;
            game.standings.push_back(standing);
            for (std::size_t o = 0; o < seats.size(); ++o) {
                if (o == s)
                    continue;
                const int mine = place(standing), theirs = place(result.players[o].rank);
                const auto j = static_cast<std::size_t>(seats[o]);
                out.head_to_head[bot][j] += mine < theirs ? 1.0 : mine == theirs ? 0.5 : 0.0;
                ++out.games_between[bot][j];
            }
        }
        ranked.push_back(std::move(game));
        pairs.add(row);
    }
    const auto fit = stats::fit_ratings(static_cast<int>(n), ranked);
    for (std::size_t b = 0; b < n; ++b) {
        BotStanding& bot = bots[b];
        bot.win_rate = stats::wilson(static_cast<std::uint64_t>(bot.wins),
                                     static_cast<std::uint64_t>(bot.games));
        bot.mean_standing = bot.games ? sums[b].standing / bot.games : 0;
        if (sums[b].timed > 0)
            bot.think_ms = sums[b].think_ms / sums[b].timed;
        if (sums[b].counted > 0)
            bot.cpu_ms = sums[b].cpu_ms / sums[b].counted;
        if (sums[b].waits > 0)
            bot.cpu_wait_ms = sums[b].cpu_wait_ms / sums[b].waits;
        bot.rating = fit.ratings[b];
    }
    std::stable_sort(bots.begin(), bots.end(),
                     [](const auto& a, const auto& b) { return a.rating.elo > b.rating.elo; });
    out.bots = std::move(bots);
    if (n == 2 && spec.players == 2) {
        out.pairs = stats::summarize(pairs.results());
        if (spec.sprt)
            out.sprt = SprtState{*spec.sprt, spec.sprt->llr(pairs.results()),
                                 spec.sprt->decide(pairs.results())};
    }
    return out;
}

const char* const elo_note =
    "Elo: each bot's rating, fitted to the standings of every game it played (Plackett-Luce), "
    "with its 95% interval; 0 is the field's mean\n";
const char* const pairs_note =
    "(the pair line rates the first bot against the second on game pairs alone, the two "
    "seatings of a deal scored together, on the same Elo scale; a bot that loses every pair "
    "reads -2400)\n";

// How many games were contended, replayed, or left out; "" when none was.
std::string contention_line(const Standings& s) {
    std::string line;
    if (s.contended > 0)
        line += fmt::format(
            "{} of them contended (a player waited for a CPU longer than the host allows{})\n",
            s.contended,
            s.uncontended ? fmt::format(": {} left out, --uncontended", s.left_out)
                          : "; 'resume --replay-contended' plays them again");
    if (s.replays > 0)
        line += fmt::format("{} replayed, each counted instead of its first play\n", s.replays);
    return line;
}

std::string standings_table(const Standings& s) {
    std::string out = fmt::format("{} of {} games done{}\n", s.done, s.total,
                                  s.stopped ? fmt::format(" (stopped: {})", *s.stopped) : "");
    out += contention_line(s);
    std::size_t width = 3;
    for (const auto& bot : s.bots)
        width = std::max(width, bot.name.size());
    out += fmt::format(
        "{:>2}  {:<{}}  {:>5} {:>13}  {:>6} {:>5} {:>6} {:>13}  {:>5} {:>4} {:>4} {:>5} "
        "{:>6} {:>9} {:>10} {:>8} {:>8}\n",
        "#", "bot", width, "Elo", "95%", "games", "wins", "win%", "95%", "stand", "dq", "t/o",
        "stall", "stale", "think ms", "cpu s/game", "wait ms", "peak MiB");
    int rank = 0;
    for (const auto& b : s.bots) {
        out += fmt::format(
            "{:>2}  {:<{}}  {:>5} {:>13}  {:>6} {:>5} {:>5.1f}% {:>13}  {:>5.2f} {:>4} {:>4} {:>5} "
            "{:>6} {:>9} {:>10} {:>8} {:>8}\n",
            ++rank, escape_for_terminal(b.name), width, signed_elo(b.rating.elo),
            fmt::format("[{}, {}]", signed_elo(b.rating.low), signed_elo(b.rating.high)), b.games,
            b.wins, b.games ? 100.0 * b.wins / b.games : 0.0,
            fmt::format("[{:.1f}, {:.1f}]", 100 * b.win_rate.low, 100 * b.win_rate.high),
            b.mean_standing, b.disqualified, b.timeouts, b.stalled, b.stale_peels,
            b.think_ms ? fmt::format("{:.1f}", *b.think_ms) : "-",
            b.cpu_ms ? fmt::format("{:.3f}", *b.cpu_ms / 1e3) : "-",
            b.cpu_wait_ms ? fmt::format("{:.1f}", *b.cpu_wait_ms) : "-",
            b.memory_peak_bytes
                ? fmt::format("{:.1f}", static_cast<double>(*b.memory_peak_bytes) / (1 << 20))
                : "-");
    }
    for (const auto& b : s.bots)
        for (const auto& [code, count] : b.disqualifications)
            out += fmt::format("    {} disqualified {} time{}: {}\n", escape_for_terminal(b.name),
                               count, count == 1 ? "" : "s", label(code));
    for (const auto& b : s.bots)
        if (b.remote)
            out += fmt::format(
                "    {} plays remotely: its race includes its network (each game's "
                "log has its round trips)\n",
                escape_for_terminal(b.name));
    for (const auto& b : s.bots)
        if (b.restarts > 0)
            out += fmt::format(
                "    {} restarted {} time{}: its process could not go on to its next game\n",
                escape_for_terminal(b.name), b.restarts, b.restarts == 1 ? "" : "s");
    out += elo_note;
    if (s.bots.size() > 2) {
        out += fmt::format("head to head (row's share of its games against the column's):\n");
        out += fmt::format("    {:<{}}", "", width);
        for (std::size_t c = 0; c < s.bots.size(); ++c)
            out += fmt::format(" {:>6}", fmt::format("#{}", c + 1));
        out += "\n";
        for (std::size_t r = 0; r < s.bots.size(); ++r) {
            const auto i = static_cast<std::size_t>(s.bots[r].bot);
            out += fmt::format("{:>2}  {:<{}}", r + 1, escape_for_terminal(s.bots[r].name), width);
            for (const auto& column : s.bots) {
                const auto j = static_cast<std::size_t>(column.bot);
                const int games = s.games_between[i][j];
                out += i == j || games == 0
                           ? fmt::format(" {:>6}", "-")
                           : fmt::format(" {:>5.1f}%", 100 * s.head_to_head[i][j] / games);
            }
            out += "\n";
        }
    }
    if (s.pairs) {
        const auto& p = *s.pairs;
        const auto by_id = [&](int id) {
            for (const auto& b : s.bots)
                if (b.bot == id)
                    return escape_for_terminal(b.name);
            return std::string("?");
        };
        out += fmt::format(
            "{} against {}: {} game pairs, score {:.3f}, Elo {} [{}, {}], likelihood of "
            "superiority {:.1f}%\n",
            by_id(0), by_id(1), p.pairs, p.score, signed_elo(p.elo), signed_elo(p.elo_low),
            signed_elo(p.elo_high), 100 * p.los);
        out += pairs_note;
    }
    if (s.sprt) {
        const auto& t = s.sprt->test;
        out += fmt::format(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2f} [{:.2f}, {:.2f}], "
            "{}\n",
            t.elo0, t.elo1, t.alpha, t.beta, s.sprt->llr, t.lower_bound(), t.upper_bound(),
            s.sprt->decision == stats::Sprt::Decision::undecided
                ? std::string("undecided")
                : fmt::format("{} accepted", decision_name(s.sprt->decision)));
    }
    return out;
}

nlohmann::json standings_json(const Standings& s) {
    using nlohmann::json;
    json bots = json::array();
    for (const auto& b : s.bots) {
        // By the codes' labels (as before codes, when "exited" held "killed" and "closed its
        // output" too), and by the codes themselves, for programs.
        json labels = json::object(), codes = json::object();
        for (const auto& [code, count] : b.disqualifications) {
            labels[std::string(label(code))] = count;
            codes[std::string(to_string(code))] = count;
        }
        bots.push_back({{"bot", b.bot},
                        {"name", b.name},
                        {"games", b.games},
                        {"wins", b.wins},
                        {"win_rate", b.games ? static_cast<double>(b.wins) / b.games : 0.0},
                        {"win_rate_low", b.win_rate.low},
                        {"win_rate_high", b.win_rate.high},
                        {"mean_standing", b.mean_standing},
                        {"disqualified", b.disqualified},
                        {"disqualifications", labels},
                        {"out_codes", codes},
                        {"timeouts", b.timeouts},
                        {"stalled", b.stalled},
                        {"stale_peels", b.stale_peels},
                        {"think_ms", b.think_ms ? json(*b.think_ms) : json(nullptr)},
                        {"cpu_ms", b.cpu_ms ? json(*b.cpu_ms) : json(nullptr)},
                        {"memory_peak_bytes",
                         b.memory_peak_bytes ? json(*b.memory_peak_bytes) : json(nullptr)},
                        {"restarts", b.restarts},
                        {"remote", b.remote},
                        {"cpu_wait_ms", b.cpu_wait_ms ? json(*b.cpu_wait_ms) : json(nullptr)},
                        {"contended", b.contended},
                        {"elo", b.rating.elo},
                        {"elo_low", b.rating.low},
                        {"elo_high", b.rating.high}});
    }
    json head = json::array();
    for (std::size_t i = 0; i < s.head_to_head.size(); ++i) {
        json row = json::array();
        for (std::size_t j = 0; j < s.head_to_head.size(); ++j)
            row.push_back({{"points", s.head_to_head[i][j]}, {"games", s.games_between[i][j]}});
        head.push_back(std::move(row));
    }
    json out = {{"games", s.total},
                {"done", s.done},
                {"stopped", s.stopped ? json(*s.stopped) : json(nullptr)},
                {"contended", s.contended},
                {"replays", s.replays},
                {"uncontended", s.uncontended},
                {"left_out", s.left_out},
                {"bots", bots},
                {"head_to_head", head},
                {"pairs", nullptr},
                {"sprt", nullptr}};
    if (s.pairs)
        out["pairs"] = {{"pairs", s.pairs->pairs},       {"score", s.pairs->score},
                        {"elo", s.pairs->elo},           {"elo_low", s.pairs->elo_low},
                        {"elo_high", s.pairs->elo_high}, {"los", s.pairs->los}};
    if (s.sprt)
        out["sprt"] = {{"elo0", s.sprt->test.elo0},
                       {"elo1", s.sprt->test.elo1},
                       {"alpha", s.sprt->test.alpha},
                       {"beta", s.sprt->test.beta},
                       {"llr", s.sprt->llr},
                       {"lower_bound", s.sprt->test.lower_bound()},
                       {"upper_bound", s.sprt->test.upper_bound()},
                       {"decision", decision_name(s.sprt->decision)}};
    return out;
}

}  // namespace bg::tournament
