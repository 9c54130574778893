// The benchmarks' player (legacy protocol, v1 dialect): peels staircase grids, which are legal
// under a word list of every two-letter string, as fast as it can.
//   peel_bot time N FILE [CPU]  after its hand: N times, peel and time until the next tile (FILE
//                              "-" for stderr)
//                               comes, then write the N round trips (ns, one a line) to FILE
//                               and exit; with CPU, it first moves itself to that CPU
//   peel_bot play               peel whenever tiles come, until the game ends
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/spawn.hpp"
#include "core/grid.hpp"
#include "core/letters.hpp"
#include "tests/support/staircase.hpp"

namespace {

bg::LetterCounts hand;
std::string pending;

std::uint64_t now_ns() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u +
           static_cast<std::uint64_t>(t.tv_nsec);
}

void send(const std::string& bytes) {
    for (std::size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(1, bytes.data() + done, bytes.size() - done);
        if (n <= 0)
            std::exit(0);
        done += static_cast<std::size_t>(n);
    }
}

// Reads up to the end of the next message ('.'), adding its letters to the hand.
void next_message() {
    for (;;) {
        const auto dot = pending.find('.');
        if (dot != std::string::npos) {
            for (std::size_t i = 0; i < dot; ++i)
                hand.add(pending[i]);
            pending.erase(0, dot + 1);
            return;
        }
        char buffer[4096];
        const ssize_t n = ::read(0, buffer, sizeof buffer);
        if (n <= 0)
            std::exit(0);
        pending.append(buffer, static_cast<std::size_t>(n));
    }
}

void peel() {
    send("p" + bg::serialise(bg::staircase_grid(hand.to_string())));
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    send("r");
    next_message();
    if (mode == "time" && (argc == 4 || argc == 5)) {
        if (argc == 5)
            bg::bench::pin_to_cpu(std::atoi(argv[4]), "peel_bot");
        const long n = std::atol(argv[2]);
        std::vector<std::uint64_t> trips;
        trips.reserve(static_cast<std::size_t>(n));
        for (long i = 0; i < n; ++i) {
            const auto start = now_ns();
            peel();
            next_message();
            trips.push_back(now_ns() - start);
        }
        // "-": to stderr, which a sandboxed bot's host passes on as "[player N] ..." lines.
        const bool to_stderr = std::string(argv[3]) == "-";
        std::FILE* out = to_stderr ? stderr : std::fopen(argv[3], "w");
        for (auto t : trips)
            std::fprintf(out, "%llu\n", static_cast<unsigned long long>(t));
        if (!to_stderr)
            std::fclose(out);
        return 0;
    }
    if (mode == "play") {
        for (;;) {
            peel();
            next_message();
        }
    }
    std::fprintf(stderr, "usage: peel_bot time N FILE [CPU] | peel_bot play\n");
    return 2;
}
