// The benchmarks' player (legacy protocol, v1 dialect): peels staircase grids, which are legal
// under a word list of every two-letter string, as fast as it can.
//   peel_bot time N FILE [CPU]  after its hand: N times, peel and time until the next tile (FILE
//                              "-" for stderr)
//                               comes, then write the N round trips (ns, one a line) to FILE
//                               and exit; with CPU, it first moves itself to that CPU
//   peel_bot play               peel whenever tiles come, until the game ends (a hand of
//                               Qs alone: dump a Q, as the arena's check asks)
//   peel_bot stay               the same in protocol v004, staying for every game of its match
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

// More of the host's bytes into `pending`; at the end of input, it leaves.
void read_more() {
    char buffer[4096];
    const ssize_t n = ::read(0, buffer, sizeof buffer);
    if (n <= 0)
        std::exit(0);
    pending.append(buffer, static_cast<std::size_t>(n));
}

// Reads up to the end of the next message ('.'), adding its letters to the hand.
void next_message() {
    std::size_t dot;
    while ((dot = pending.find('.')) == std::string::npos)
        read_more();
    for (std::size_t i = 0; i < dot; ++i)
        hand.add(pending[i]);
    pending.erase(0, dot + 1);
}

void peel() {
    send("p" + bg::serialise(bg::staircase_grid(hand.to_string())));
}

// The next v2 message, without its '.' (an E's reason, length-prefixed, may hold one).
std::string next_v2_message() {
    for (;;) {
        std::size_t end = pending.find('.');
        if (pending.size() >= 10 && pending[0] == 'E')
            end = 10 + std::stoul(pending.substr(6, 4));
        if (end != std::string::npos && end < pending.size()) {
            std::string message = pending.substr(0, end);
            pending.erase(0, end + 1);
            return message;
        }
        read_more();
    }
}

// v004: peels its whole hand whenever a tile comes, and stays for the next game until B.
int stay() {
    send("v004R");
    int seen = 0;
    for (;;) {
        const std::string m = next_v2_message();
        const char kind = m.empty() ? '?' : m[0];
        if (kind == 'B')
            return 0;
        if (kind == 'G')
            send("R");
        if (kind == 'E')
            hand = {}, seen = 0;
        if (kind != 'H' && kind != 'P')
            continue;
        seen = std::atoi(m.substr(1, 4).c_str());
        for (char c : m.substr(5, kind == 'H' ? std::string::npos : 1))
            hand.add(c);
        char number[8];
        std::snprintf(number, sizeof number, "P%04d", seen);
        send(number + bg::serialise(bg::staircase_grid(hand.to_string())));
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "stay")
        return stay();
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
            // A hand of Qs alone, as the arena's conformance check deals to see a bot dump what
            // it cannot place (under the two-letter list a staircase could, but the check asks
            // for the dump): dumped.
            const std::string letters = hand.to_string();
            if (!letters.empty() && letters.find_first_not_of('Q') == std::string::npos) {
                hand.remove('Q');
                send("dQ");
            } else {
                peel();
            }
            next_message();
        }
    }
    std::fprintf(stderr, "usage: peel_bot time N FILE [CPU] | peel_bot play | peel_bot stay\n");
    return 2;
}
