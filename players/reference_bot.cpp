// The reference bot: plays real games in the legacy protocol. It keeps the multiset of tiles it
// has been sent, lays them out as a crossword, peels when every tile is down, and dumps a tile
// it could not place otherwise. It never needs to tell a peel's tile from a dump's: all are
// tiles in its hand.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/grid.hpp"
#include "core/letters.hpp"
#include "players/crossword.hpp"
#include "wordlist/default_wordlist.hpp"

namespace {

struct Options {
    bool v0 = false;
    std::string dict;
    std::uint64_t seed = 1;
};

bool write_all(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(STDOUT_FILENO, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// Reads what the host has sent within `timeout_ms` (-1: wait for something). Letters only:
// the '.' terminators of the v1 dialect mark message ends. False at end of input.
bool read_some(int timeout_ms, std::string& letters, int& messages) {
    pollfd fd{STDIN_FILENO, POLLIN, 0};
    const int ready = ::poll(&fd, 1, timeout_ms);
    if (ready == 0)
        return true;
    if (ready < 0)
        return errno == EINTR;
    char buffer[4096];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n <= 0)
        return n < 0 && errno == EINTR;
    for (ssize_t i = 0; i < n; ++i) {
        if (buffer[i] == '.')
            ++messages;
        else if (bg::is_tile_letter(buffer[i]))
            letters += buffer[i];
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--v0")
            options.v0 = true;
        else if (arg == "--dict" && i + 1 < argc)
            options.dict = argv[++i];
        else if (arg == "--seed" && i + 1 < argc)
            options.seed = std::stoull(argv[++i]);
        else {
            std::fprintf(stderr, "usage: reference_bot [--v0] [--dict FILE] [--seed N]\n");
            return 2;
        }
    }
    std::vector<std::string> words;
    if (options.dict.empty()) {
        words = bg::default_wordlist().words();
    } else {
        auto loaded = bg::Dictionary::from_file(options.dict);
        if (auto* error = std::get_if<std::string>(&loaded)) {
            std::fprintf(stderr, "reference_bot: %s\n", error->c_str());
            return 1;
        }
        words = std::get<bg::Dictionary>(loaded).words();
    }
    const bg::Crossword crossword(std::move(words));
    const bg::Crossword* player = &crossword;

    if (!write_all("r"))
        return 0;
    bg::LetterCounts hand;
    std::string letters;
    int messages = 0;
    std::uint64_t round = 0;
    bool dump_refused = false;
    while (true) {
        // Wait for tiles, then take everything already sent so the grid is as fresh as can be.
        letters.clear();
        if (!read_some(-1, letters, messages))
            return 0;
        while (true) {
            const std::size_t before = letters.size();
            if (!read_some(0, letters, messages))
                return 0;
            if (letters.size() == before)
                break;
        }
        if (letters.empty())
            continue;
        for (char c : letters)
            hand.add(c);
        if (letters.size() >= 3)
            dump_refused = false;

        const auto layout = player->build(hand, 12, options.seed + round++);
        if (layout.leftover.empty()) {
            if (!write_all("p" + bg::serialise(layout.grid)))
                return 0;
            continue;
        }
        if (dump_refused)
            continue;  // wait for a peel to bring new tiles
        // Dump the hardest leftover: the rarest letters are the hardest to place.
        static constexpr std::string_view hardest_first = "QZXJKVWYBFHGMPCUDLOTNSRAIE";
        char dump = 0;
        for (char c : hardest_first)
            if (layout.leftover.count(c) > 0) {
                dump = c;
                break;
            }
        hand.remove(dump);
        if (!write_all(std::string{'d', dump}))
            return 0;
        // The reply is three tiles, or the same tile back when the bunch is short.
        std::string reply;
        while (reply.size() < 3) {
            const std::size_t before = reply.size();
            if (!read_some(reply.empty() ? -1 : 200, reply, messages))
                return 0;
            if (reply.size() == before)
                break;  // a short reply: the dump was refused
        }
        if (reply.size() < 3 && reply.find(dump) != std::string::npos)
            dump_refused = true;
        for (char c : reply)
            hand.add(c);
        // Think again with what came back, without waiting for more.
        const auto again = player->build(hand, 12, options.seed + round++);
        if (again.leftover.empty())
            write_all("p" + bg::serialise(again.grid));
    }
}
