// The baselines of the whole-process benchmarks: the least any host could do. It starts its
// players as the host does (sh -c COMMAND), sends each a hand of 21 tiles, and answers every peel
// (its length read from its grid's size) with a tile for every player: no judging, no log, no
// rules but the count of tiles.
//   relay COMMAND         one player, answered until it leaves: a peel's round trip is two
//                         pipe hops
//   relay COMMAND...      a game between several: when the 144-tile bunch has too few tiles
//                         for another peel, every player is sent SIGTERM, as the host does
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bench/spawn.hpp"
#include "core/grid.hpp"

namespace {

constexpr int tiles = 144;
constexpr int hand_size = 21;

struct Player {
    bg::bench::Child process;
    std::string buffer;
};

// Complete peels at the front of a player's buffer, taken off it: 'p', the grid's size, its
// cells. The benchmarks' bots send nothing else.
int take_peels(std::string& buffer) {
    int peels = 0;
    while (buffer.size() >= 1 + bg::grid_header_size) {
        const auto size = bg::parse_grid_size(std::string_view(buffer).substr(1));
        if (!std::holds_alternative<bg::GridSize>(size))
            std::exit(1);  // not a bench bot's peel
        const std::size_t length = 1 + bg::grid_header_size + std::get<bg::GridSize>(size).cells();
        if (buffer.size() < length)
            break;
        buffer.erase(0, length);
        ++peels;
    }
    return peels;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: relay COMMAND...\n");
        return 2;
    }
    std::vector<Player> players;
    for (int i = 1; i < argc; ++i)
        players.push_back({bg::bench::spawn(argv[i], true, true), {}});
    const bool game = players.size() > 1;
    for (Player& p : players) {
        char c;
        if (read(p.process.out, &c, 1) != 1)  // r
            return 1;
    }
    const std::string hand = "AAEEHRTTYINNOSSDLLCUM.";
    for (Player& p : players)
        (void)!write(p.process.in, hand.data(), hand.size());

    const int n = static_cast<int>(players.size());
    int bunch = tiles - hand_size * n;
    std::vector<pollfd> ready(players.size());
    for (bool over = false; !over;) {
        // One player is read blocking, as simply as can be; several are polled.
        if (game) {
            for (std::size_t i = 0; i < players.size(); ++i)
                ready[i] = {players[i].process.out, POLLIN, 0};
            if (poll(ready.data(), ready.size(), -1) < 0)
                break;
        } else {
            ready[0].revents = POLLIN;
        }
        for (std::size_t i = 0; i < players.size() && !over; ++i) {
            if (ready[i].revents == 0)
                continue;
            Player& p = players[i];
            char chunk[65536];
            const ssize_t got = read(p.process.out, chunk, sizeof chunk);
            if (got <= 0) {
                over = true;  // a player left
                break;
            }
            p.buffer.append(chunk, static_cast<std::size_t>(got));
            for (int peels = take_peels(p.buffer); peels > 0; --peels) {
                if (game && bunch < n) {
                    over = true;  // bananas
                    break;
                }
                bunch -= game ? n : 0;
                for (Player& q : players)
                    (void)!write(q.process.in, "E.", 2);
            }
        }
    }
    for (Player& p : players) {
        if (game)
            kill(p.process.pid, SIGTERM);
        close(p.process.in);
        close(p.process.out);
        bg::bench::reap(p.process.pid);
    }
    return 0;
}
