// Is any seat worth more than another? Identical bots in every seat, many games, played by the
// host's own Match on one libuv loop (several games at once), once with the seat order drawn
// from the seed (the host's) and once with the fixed order the host used before (seat 1 first)
// as the baseline. Prints each seat's wins with 95% Wilson intervals and the chi-square test of
// equal shares, and accepted peels per game by seat.
//
//   seat_bench BUILD_DIR WORDLIST [--seats N] [--games N] [--parallel N] [--order drawn|fixed|both]
//              [--first-seed N]
//
// Game i plays seed first-seed + i (1000 unless told): another first seed gives other deals and
// other drawn orders, so that a seat's excess seen on one set of seeds can be checked on another.
//
// The bots are bench/peel_bot's legacy staircase players: under a word list of every two-letter
// string each peel is instant, so every race is as close as it can be.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"
#include "match/match.hpp"
#include "stats/tests.hpp"
#include "transport/handles.hpp"
#include "transport/process_seat.hpp"
#include "wordlist/word_file.hpp"

namespace {

using namespace bg;

struct Tally {
    std::vector<std::uint64_t> wins;
    std::vector<std::uint64_t> peels;
    std::uint64_t games = 0;
    std::uint64_t no_winner = 0;
};

// Plays `games` games, `parallel` at a time, on one loop.
Tally play(const std::string& bot, const Dictionary& dictionary, int seats, int games, int parallel,
           std::uint64_t first_seed, SeatOrder order) {
    Tally tally{std::vector<std::uint64_t>(static_cast<std::size_t>(seats)),
                std::vector<std::uint64_t>(static_cast<std::size_t>(seats)), 0, 0};
    EventLoop loop;
    std::vector<EventLog> logs(static_cast<std::size_t>(parallel));
    std::vector<std::unique_ptr<Match>> running(static_cast<std::size_t>(parallel));
    int started = 0;
    std::vector<std::size_t> done;
    std::unique_ptr<Timer> reaper;
    const auto start_game = [&](std::size_t slot) {
        GameSetup setup;
        setup.game = RulesConfig{first_seed + static_cast<std::uint64_t>(started), seats, 1};
        setup.commands.assign(static_cast<std::size_t>(seats), bot);
        setup.dictionary = "two-letter list";
        Match::Options options;
        options.seat_order = order;
        options.on_done = [&, slot] {
            done.push_back(slot);
            reaper->start(0);
        };
        logs[slot] = EventLog();
        running[slot] = std::make_unique<Match>(
            loop.get(), setup, dictionary, logs[slot],
            process_seats(loop.get(), unsandboxed_launches(setup.commands)), std::move(options));
        ++started;
        running[slot]->start();
    };
    // Finished matches are destroyed and replaced from a timer: never inside their own callback.
    reaper = std::make_unique<Timer>(loop.get(), [&] {
        for (const std::size_t slot : std::exchange(done, {})) {
            const Game& game = running[slot]->referee().game();
            ++tally.games;
            if (const auto winner = game.winner())
                ++tally.wins[static_cast<std::size_t>(*winner)];
            else
                ++tally.no_winner;
            for (std::size_t p = 0; p < game.players().size(); ++p)
                tally.peels[p] += static_cast<std::uint64_t>(game.players()[p].peels);
            running[slot].reset();
            if (started < games)
                start_game(slot);
        }
        if (tally.games == static_cast<std::uint64_t>(games))
            reaper->close();
    });
    for (std::size_t slot = 0; slot < running.size() && started < games; ++slot)
        start_game(slot);
    loop.run();
    reaper.reset();
    running.clear();
    if (!loop.close())
        std::fprintf(stderr, "seat_bench: libuv handles left open\n");
    return tally;
}

void report(const char* name, const Tally& tally) {
    std::uint64_t decided = 0;
    for (auto w : tally.wins)
        decided += w;
    const auto test = stats::chi_square_uniform(tally.wins);
    fmt::print("{} order: {} games ({} without a winner)\n", name, tally.games, tally.no_winner);
    for (std::size_t s = 0; s < tally.wins.size(); ++s) {
        const auto interval = stats::wilson(tally.wins[s], decided);
        fmt::print("  seat {}: won {:5.1f}% [{:4.1f}, {:4.1f}]   peels a game {:5.2f}\n", s + 1,
                   100.0 * static_cast<double>(tally.wins[s]) / static_cast<double>(decided),
                   100 * interval.low, 100 * interval.high,
                   static_cast<double>(tally.peels[s]) / static_cast<double>(tally.games));
    }
    fmt::print("  chi-square {:.2f} ({} df): p = {:.3g}\n", test.statistic, test.degrees_of_freedom,
               test.p_value);
}

// Reads the whole of `text` into `value`; false, leaving it, when it is no T.
template <class T>
bool whole_number(const std::string& text, T& value) {
    const auto number = parse_number<T>(text);
    if (number)
        value = *number;
    return number.has_value();
}

int usage() {
    std::fprintf(stderr,
                 "usage: seat_bench BUILD_DIR WORDLIST [--seats N] [--games N] [--parallel N] "
                 "[--order drawn|fixed|both] [--first-seed N]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3)
        return usage();
    const std::string build = argv[1];
    int seats = 4, games = 2000, parallel = 4;
    std::uint64_t first_seed = 1000;
    std::string order = "both";
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        bool read = true;
        if (flag == "--seats")
            read = whole_number(value, seats);
        else if (flag == "--games")
            read = whole_number(value, games);
        else if (flag == "--parallel")
            read = whole_number(value, parallel);
        else if (flag == "--order")
            order = value;
        else if (flag == "--first-seed")
            read = whole_number(value, first_seed);
        else
            return usage();
        if (!read) {
            std::fprintf(stderr, "seat_bench: %s takes a whole number, not '%s'\n", flag.c_str(),
                         value.c_str());
            return usage();
        }
    }
    if ((argc - 3) % 2 != 0 || seats < 2 || seats > 8 || games < 1 || parallel < 1 ||
        (order != "drawn" && order != "fixed" && order != "both") ||
        first_seed > UINT64_MAX - static_cast<std::uint64_t>(games))
        return usage();
    auto loaded = load_word_file(argv[2]);
    if (const auto* error = std::get_if<std::string>(&loaded)) {
        std::fprintf(stderr, "seat_bench: %s\n", error->c_str());
        return 1;
    }
    const Dictionary& dictionary = std::get<Dictionary>(loaded);
    const std::string bot = "exec " + build + "/bench/peel_bot play";
    fmt::print(
        "{} seats, {} games (seeds {} to {}), {} at a time, identical legacy staircase bots\n",
        seats, games, first_seed, first_seed + static_cast<std::uint64_t>(games) - 1, parallel);
    // The same seeds in both orders, one after the other.
    if (order == "fixed" || order == "both")
        report("fixed (seat 1 first; the old host)",
               play(bot, dictionary, seats, games, parallel, first_seed, SeatOrder::fixed));
    if (order == "drawn" || order == "both")
        report("drawn (from the seed; the host)",
               play(bot, dictionary, seats, games, parallel, first_seed, SeatOrder::drawn));
    return 0;
}
