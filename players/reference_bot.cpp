// The reference bot: plays real games, in protocol v2 or, with --legacy, in the original spec's
// protocol. It keeps the tiles it has been sent, lays them out as a crossword, peels when every
// tile is down, and dumps a tile it could not place otherwise.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/grid.hpp"
#include "core/letters.hpp"
#include "players/crossword.hpp"
#include "record/version.hpp"
#include "wordlist/default_wordlist.hpp"
#include "wordlist/word_file.hpp"

namespace {

constexpr int attempts = 12;

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

// Appends what the host has sent: within `timeout_ms` (-1: waits for something), then all that
// is already there. False at the end of input.
bool read_available(int timeout_ms, std::string& bytes) {
    pollfd fd{STDIN_FILENO, POLLIN, 0};
    for (int wait = timeout_ms;; wait = 0) {
        const int ready = ::poll(&fd, 1, wait);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return true;
        char buffer[4096];
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
}

void add_letters(bg::LetterCounts& hand, std::string_view bytes) {
    for (char c : bytes)
        if (bg::is_tile_letter(c))
            hand.add(c);
}

// The letter to dump of those it could not place: the rarest are the hardest to place.
char hardest(const bg::LetterCounts& leftover) {
    for (char c : std::string_view("QZXJKVWYBFHGMPCUDLOTNSRAIE"))
        if (leftover.count(c) > 0)
            return c;
    return 0;
}

// After a dump, in dialect v1, where every host message ends with '.': the answer is one
// message of three letters, and single letters before it are tiles of peels that were already
// on their way (taking them for the answer would build a grid without the answer's tiles). Its
// own letter alone, with nothing after it for 200 ms, is the refusal. Every letter read goes to
// the hand. Whether the dump was refused; nullopt at the end of input.
std::optional<bool> dump_answer_v1(char dump, bg::LetterCounts& hand) {
    std::string pending;
    bool own_letter_back = false;
    for (;;) {
        const auto dot = pending.find('.');
        if (dot == std::string::npos) {
            const auto before = pending.size();
            if (!read_available(own_letter_back ? 200 : -1, pending))
                return std::nullopt;
            if (pending.size() == before) {
                add_letters(hand, pending);
                return true;
            }
            continue;
        }
        const std::string message = pending.substr(0, dot);
        pending.erase(0, dot + 1);
        add_letters(hand, message);
        if (message.size() >= 3) {
            add_letters(hand, pending);  // tiles sent after the answer
            return false;
        }
        own_letter_back = own_letter_back || (message.size() == 1 && message[0] == dump);
    }
}

// The same in dialect v0, with no ends to messages: it can only count letters. It waits for
// three; one letter alone, its own, means the dump was refused.
std::optional<bool> dump_answer_v0(char dump, bg::LetterCounts& hand) {
    std::string reply;
    bg::LetterCounts back;
    while (back.total() < 3) {
        const auto before = back.total();
        if (!read_available(back.empty() ? -1 : 200, reply))
            return std::nullopt;
        back = {};
        add_letters(back, reply);
        if (back.total() == before)
            break;  // a short reply: the dump was refused
    }
    hand += back;
    return back.total() < 3 && back.count(dump) > 0;
}

// Legacy: every letter the host sends is a tile now in the hand, whatever message it came in.
// The dialect shows in the hand: v1 ends it with '.'.
int play_legacy(const bg::Crossword& crossword, std::uint64_t seed) {
    if (!write_all("r"))
        return 0;
    bg::LetterCounts hand;
    bool refused = false;
    bool v1 = false;
    for (std::uint64_t round = 0;; ++round) {
        std::string bytes;
        if (!read_available(-1, bytes))
            return 0;
        v1 = v1 || bytes.find('.') != std::string::npos;
        bg::LetterCounts arrived;
        add_letters(arrived, bytes);
        if (arrived.empty())
            continue;
        hand += arrived;
        if (arrived.total() >= 3)
            refused = false;
        auto layout = crossword.build(hand, attempts, seed + round);
        // Dumps until every tile is down or a dump is refused: nothing else may come to help.
        while (!layout.leftover.empty() && !refused) {
            const char dump = hardest(layout.leftover);
            hand.remove(dump);
            if (!write_all(std::string{'d', dump}))
                return 0;
            const auto answer = v1 ? dump_answer_v1(dump, hand) : dump_answer_v0(dump, hand);
            if (!answer)
                return 0;
            refused = *answer;
            layout = crossword.build(hand, attempts, seed + round);
        }
        if (layout.leftover.empty() && !write_all("p" + bg::serialise(layout.grid)))
            return 0;
    }
}

// Protocol v2 (protocol-v2.md): every message says what it is, so the bot knows which peel its
// hand reflects, and when its move has been answered.
int play_v2(const bg::Crossword& crossword, std::uint64_t seed) {
    if (!write_all("v002R"))
        return 0;
    bg::LetterCounts hand;
    std::string pending;   // bytes of a message not yet ended
    int seen = 0;          // the newest peel whose tile is in the hand
    bool waiting = false;  // for the answer to its peel or dump
    bool refused = false;  // a dump was refused: none again before new tiles come
    const auto number = [](const std::string& m) { return std::stoi(m.substr(1, 4)); };
    for (std::uint64_t round = 0;; ++round) {
        if (!read_available(-1, pending))
            return 0;
        bool heard = false;
        for (std::size_t dot; (dot = pending.find('.')) != std::string::npos;) {
            const std::string m = pending.substr(0, dot);
            pending.erase(0, dot + 1);
            heard = true;
            switch (m.empty() ? '?' : m[0]) {
                case 'H':  // H, the number of the newest peel, the hand
                    seen = number(m);
                    add_letters(hand, m.substr(5));
                    break;
                case 'P':  // P, its number, the tile, the bunch
                    seen = std::max(seen, number(m));
                    hand.add(m[5]);
                    refused = false;
                    break;
                case 'N':  // stale: its tiles are in P messages already read
                    seen = std::max(seen, number(m));
                    waiting = false;
                    break;
                case 'A':
                    waiting = false;
                    break;
                case 'D':
                    add_letters(hand, m.substr(1));
                    waiting = false;
                    break;
                case 'X':
                    hand.add(m[1]);
                    refused = true;
                    waiting = false;
                    break;
                case 'E':
                    return 0;  // the game is over for it; SIGTERM follows
                default:
                    break;  // V: the version it asked for
            }
        }
        if (waiting || !heard || hand.empty())
            continue;
        const auto layout = crossword.build(hand, attempts, seed + round);
        if (layout.leftover.empty()) {
            char peel_number[8];
            std::snprintf(peel_number, sizeof peel_number, "%04d", seen);
            if (!write_all("P" + std::string(peel_number) + bg::serialise(layout.grid)))
                return 0;
            waiting = true;
        } else if (!refused) {
            const char dump = hardest(layout.leftover);
            hand.remove(dump);
            if (!write_all(std::string{'D', dump}))
                return 0;
            waiting = true;
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    bool legacy = false;
    std::string dict;
    std::uint64_t seed = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--legacy")
            legacy = true;
        else if (arg == "--dict" && i + 1 < argc)
            dict = argv[++i];
        else if (arg == "--seed" && i + 1 < argc)
            seed = std::stoull(argv[++i]);
        else if (arg == "--version") {
            std::printf("%s\n", bg::version_line("bananagrams-reference-bot").c_str());
            return 0;
        } else {
            const bool help = arg == "--help" || arg == "-h";
            std::fprintf(help ? stdout : stderr,
                         "usage: reference_bot [--legacy] [--dict FILE] [--seed N]\n"
                         "       reference_bot --version\n"
                         "(installed as bananagrams-reference-bot)\n\n"
                         "The reference bot: plays one game on its stdin and stdout, in protocol "
                         "v2 (v002),\nor with --legacy in the original spec's protocol, on the "
                         "default word list or FILE;\nN varies its choices.\n");
            return help ? 0 : 2;
        }
    }
    std::vector<std::string> words;
    if (dict.empty()) {
        words = bg::default_wordlist().words();
    } else {
        auto loaded = bg::load_word_file(dict);
        if (auto* error = std::get_if<std::string>(&loaded)) {
            std::fprintf(stderr, "reference_bot: %s\n", error->c_str());
            return 1;
        }
        words = std::get<bg::Dictionary>(loaded).words();
    }
    const bg::Crossword crossword(std::move(words));
    return legacy ? play_legacy(crossword, seed) : play_v2(crossword, seed);
}
