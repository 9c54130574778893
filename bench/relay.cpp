// The baseline of a peel's round trip: the least any host could do. It starts one player as the
// host does (sh -c COMMAND), sends it a hand, and answers each peel (its length read from its
// grid's size) with one tile: no judging, no log, no other player. Two pipe hops a peel.
//   relay COMMAND
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/spawn.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: relay COMMAND\n");
        return 2;
    }
    const bg::bench::Child bot = bg::bench::spawn(argv[1], true, true);
    char c;
    if (read(bot.out, &c, 1) != 1)  // r
        return 1;
    const std::string hand = "AAEEHRTTYINNOSSDLLCUM.";
    (void)!write(bot.in, hand.data(), hand.size());
    std::string buffer;
    for (;;) {
        char chunk[65536];
        const ssize_t n = read(bot.out, chunk, sizeof chunk);
        if (n <= 0)
            break;
        buffer.append(chunk, static_cast<std::size_t>(n));
        while (buffer.size() >= 7) {
            const std::size_t cells =
                static_cast<std::size_t>(std::atoi(buffer.substr(1, 3).c_str())) *
                static_cast<std::size_t>(std::atoi(buffer.substr(4, 3).c_str()));
            if (buffer.size() < 7 + cells)
                break;
            buffer.erase(0, 7 + cells);
            (void)!write(bot.in, "E.", 2);
        }
    }
    close(bot.in);
    close(bot.out);
    bg::bench::reap(bot.pid);
    return 0;
}
