// The reference bot: plays real games, in protocol v2 or, with --legacy, in the original spec's
// protocol. It keeps the tiles it has been sent, lays them out as a crossword, peels when every
// tile is down, and dumps a tile it could not place otherwise. At --level 5 (the default) it
// plays as fast and as well as it can; lower levels take their time over every move and try
// fewer layouts, so that a first bot, or a person, has a race to run.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/grid.hpp"
#include "core/letters.hpp"
#include "players/crossword.hpp"
#include "players/deal_memory.hpp"
#include "record/version.hpp"
#include "wordlist/default_wordlist.hpp"
#include "wordlist/word_file.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// How strong it plays. Its pace: a move (a peel or a dump) waits until this long after the
// newest tiles came (the first move, after the hand: first_ms), as a person takes time to place
// new tiles; tiles that come in the meantime start the wait again. Its layouts: it tries this
// many starting words for each (more place more of the hand, so fewer dumps).
struct Level {
    int attempts;
    int pace_ms;
    int first_ms;
    const char* about;
};
constexpr Level levels[] = {
    {2, 30'000, 90'000, "a person's pace: 90 s for its first grid, 30 s for each tile after"},
    {3, 8'000, 20'000, "a quick person's: 20 s for its first grid, 8 s for each tile after"},
    {6, 1'000, 3'000, "3 s for its first grid, 1 s for each tile after"},
    {12, 250, 1'000, "1 s for its first grid, 0.25 s for each tile after"},
    {12, 0, 0, "full strength: it moves as soon as it has a move (the default)"},
};
constexpr int top_level = static_cast<int>(std::size(levels));

// When its next move may go: `pace` after the newest tiles came.
class Pace {
  public:
    explicit Pace(const Level& level) : level_(level) {}
    // New tiles came now (the hand, when `first`).
    void tiles(bool first) {
        due_ = std::max(due_, Clock::now() + std::chrono::milliseconds(first ? level_.first_ms
                                                                             : level_.pace_ms));
    }
    // Milliseconds until a move may go (0: now).
    int wait_ms() const {
        // Rounded up: a poll that wakes a fraction of a millisecond early waits once more.
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(due_ - Clock::now()).count();
        return left > 0 ? static_cast<int>(left) : 0;
    }
    int attempts() const { return level_.attempts; }

  private:
    const Level& level_;
    Clock::time_point due_{};
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

// Waits out its pace, reading what comes meanwhile: new tiles (letters) go into `hand` and
// start the wait again. The letters that came; nullopt at the end of input.
std::optional<bg::LetterCounts> rest(Pace& pace, bg::LetterCounts& hand, bool& v1) {
    bg::LetterCounts came;
    for (int wait; (wait = pace.wait_ms()) > 0;) {
        std::string bytes;
        if (!read_available(wait, bytes))
            return std::nullopt;
        v1 = v1 || bytes.find('.') != std::string::npos;
        bg::LetterCounts now;
        add_letters(now, bytes);
        if (!now.empty())
            pace.tiles(false);
        came += now;
    }
    hand += came;
    return came;
}

// Legacy: every letter the host sends is a tile now in the hand, whatever message it came in.
// The dialect shows in the hand: v1 ends it with '.'.
int play_legacy(const bg::Crossword& crossword, std::uint64_t seed, Pace pace) {
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
        pace.tiles(hand.empty());
        hand += arrived;
        const auto more = rest(pace, hand, v1);
        if (!more)
            return 0;
        if (arrived.total() + more->total() >= 3)
            refused = false;
        auto layout = crossword.build(hand, pace.attempts(), seed + round);
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
            if (!refused) {
                pace.tiles(false);
                if (!rest(pace, hand, v1))
                    return 0;
            }
            layout = crossword.build(hand, pace.attempts(), seed + round);
        }
        if (layout.leftover.empty() && !write_all("p" + bg::serialise(layout.grid)))
            return 0;
    }
}

// The next whole message in `pending`, taken out without its '.'; "" when none has ended yet.
// An E's reason is length-prefixed, and may hold a '.'.
std::string next_message(std::string& pending) {
    std::size_t end = pending.find('.');
    if (end != std::string::npos && pending[0] == 'E' && pending.size() >= 10)
        end = std::stoul(pending.substr(6, 4)) + 10;
    if (end == std::string::npos || end >= pending.size())
        return "";
    std::string message = pending.substr(0, end);
    pending.erase(0, end + 1);
    return message;
}

// What --remember keeps of the deal, and what it foresees (bench/memory_bench.py's cheat).
class Remembering {
  public:
    Remembering(int seat, int players) : memory(seat, players) {}
    bg::DealMemory memory;

    // A message of the game, seen.
    void observe(const std::string& m) {
        const auto count = [&](std::size_t at) { return std::stoi(m.substr(at, 4)); };
        if (m[0] == 'H') {
            memory.hand(static_cast<int>(m.size()) - 5, 144, count(1));
        } else if (m[0] == 'P') {
            memory.peel(count(1), m[5], count(6));
        } else if (m[0] == 'X') {
            memory.refused(count(2));
        } else if (m[0] == 'D') {
            memory.dumped(m.substr(1));
            // A line for each dump it foresaw, for the bench to count.
            if (const auto right = memory.foreseen_right())
                std::fprintf(stderr, "reference_bot: foresaw %s, dumped %c (%s), drew %s (%s)\n",
                             made_.foreseen.c_str(), made_.letter,
                             made_.changed ? "changed" : "as usual", m.c_str() + 1,
                             *right ? "right" : "wrong");
        }
    }

    // The letter to dump: of those it could not place, the one whose layout with the tiles a
    // dump is foreseen to bring leaves the fewest unplaced (the hardest of those first). Peels
    // may have come while it laid its hand out: it counts them in first (from `pending`, read
    // to now, where they stay for the game to read).
    char dump(const bg::Crossword& crossword, const bg::LetterCounts& hand,
              const bg::LetterCounts& leftover, int attempts, std::uint64_t seed,
              std::string& pending) {
        const char usual = hardest(leftover);
        read_available(0, pending);
        for (std::string rest = pending, m; !(m = next_message(rest)).empty();)
            if (m[0] == 'P' || m[0] == 'X')
                observe(m);  // seen again when the game reads it: the same place, the same count
        made_ = {memory.foreseen(), usual, false};
        if (made_.foreseen.empty())
            return usual;
        int fewest = 1 << 20;
        for (char c : std::string_view("QZXJKVWYBFHGMPCUDLOTNSRAIE")) {
            if (leftover.count(c) == 0)
                continue;
            bg::LetterCounts after = hand;
            after.remove(c);
            add_letters(after, made_.foreseen);
            const int left = crossword.build(after, attempts, seed).leftover.total();
            if (left < fewest) {
                fewest = left;
                made_.letter = c;
            }
        }
        made_.changed = made_.letter != usual;
        return made_.letter;
    }
    // The dump last made went.
    void dump_sent() { memory.dump_sent(made_.foreseen); }

  private:
    struct Made {
        std::string foreseen;
        char letter = 0;
        bool changed = false;
    } made_;  // the last dump made
};

// Protocol v2 (protocol-v2.md), v004: every message says what it is, so the bot knows which
// peel its hand reflects, and when its move has been answered; and it stays for the games of its
// match (after E, G begins the next, B. says there is none).
int play_v2(const bg::Crossword& crossword, std::uint64_t seed, Pace pace,
            Remembering* remembering) {
    if (!write_all("v004R"))
        return 0;
    bg::LetterCounts hand;
    std::string pending;   // bytes of a message not yet ended
    int seen = 0;          // the newest peel whose tile is in the hand
    bool waiting = false;  // for the answer to its peel or dump
    bool refused = false;  // a dump was refused: none again before new tiles come
    bool changed = false;  // the hand, or what it may do, changed since its last move was made
    std::string move;      // its next move, made and waiting for its pace
    const auto number = [](const std::string& m) { return std::stoi(m.substr(1, 4)); };
    for (std::uint64_t round = 0;; ++round) {
        if (!read_available(move.empty() ? -1 : pace.wait_ms(), pending))
            return 0;
        for (std::string m; !(m = next_message(pending)).empty();) {
            changed = true;
            if (remembering)
                remembering->observe(m);
            switch (m[0]) {
                case 'H':  // H, the number of the newest peel, the hand
                    seen = number(m);
                    add_letters(hand, m.substr(5));
                    pace.tiles(true);
                    break;
                case 'P':  // P, its number, the tile, the bunch
                    seen = std::max(seen, number(m));
                    hand.add(m[5]);
                    refused = false;
                    pace.tiles(false);
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
                    pace.tiles(false);
                    break;
                case 'X':
                    hand.add(m[1]);
                    refused = true;
                    waiting = false;
                    break;
                case 'E':  // the game is over: its next begins with G, or there is none
                    hand = {};
                    seen = 0;
                    waiting = refused = false;
                    move.clear();
                    break;
                case 'G':  // its next game: a new hand comes once it is ready
                    if (!write_all("R"))
                        return 0;
                    break;
                case 'B':  // no next game
                    return 0;
                default:
                    break;  // V: the version it asked for
            }
        }
        if (waiting || hand.empty())
            continue;
        if (changed) {
            changed = false;
            move.clear();
            const auto layout = crossword.build(hand, pace.attempts(), seed + round);
            if (layout.leftover.empty()) {
                char peel_number[8];
                std::snprintf(peel_number, sizeof peel_number, "%04d", seen);
                move = "P" + std::string(peel_number) + bg::serialise(layout.grid);
            } else if (!refused) {
                move = std::string{
                    'D', remembering ? remembering->dump(crossword, hand, layout.leftover,
                                                         pace.attempts(), seed + round, pending)
                                     : hardest(layout.leftover)};
            }
        }
        if (move.empty() || pace.wait_ms() > 0)
            continue;
        if (move[0] == 'D') {
            hand.remove(move[1]);
            if (remembering)
                remembering->dump_sent();
        }
        if (!write_all(move))
            return 0;
        move.clear();
        waiting = true;
    }
}

// The usage, with what each level does.
std::string usage() {
    std::string text =
        "usage: reference_bot [--level N] [--legacy] [--dict FILE] [--seed N]\n"
        "                     [--remember FILE [--seat S] [--players N]]\n"
        "       reference_bot --version\n"
        "(installed as bananagrams-reference-bot)\n\n"
        "The reference bot: plays on its stdin and stdout in protocol v2, asking for v004 (it\n"
        "stays for the games of a match), or one game with --legacy in the original spec's\n"
        "protocol. Its word list: FILE, else the game's (the file $BANANAGRAMS_WORDLIST names,\n"
        "which the host gives every player), else the built-in list. --seed N varies its\n"
        "choices.\n\n"
        "--remember FILE [--seat S --players N] makes it cheat as bench/memory_bench.py\n"
        "measures: it keeps in FILE where in the deal's bunch each tile it drew was, and when\n"
        "FILE holds an earlier rotation of the deal (in seat S of N, 0 of 2 unless given), it\n"
        "dumps the letter that lays out best with the tiles it foresees a dump bringing.\n\n"
        "--level N plays slower and weaker, from 1 (the gentlest) to 5 (full strength, the\n"
        "default): each move (a peel or a dump) waits until so long after its newest tiles\n"
        "came, and it tries fewer layouts (more dumps). A first bot gets peels accepted from\n"
        "level 4 down, and a person may race level 1:\n";
    for (int n = 1; n <= top_level; ++n) {
        const Level& l = levels[n - 1];
        char line[200];
        std::snprintf(line, sizeof line, "  %d  %s; %d layouts a move\n", n, l.about, l.attempts);
        text += line;
    }
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    bool legacy = false;
    std::string dict;
    std::string remember;
    std::uint64_t seed = 1;
    int level = top_level;
    int seat = 0;
    int players = 2;
    // A whole number from `min` to `max` for `option`, else the reason it is not.
    const auto whole = [](const char* option, std::string_view text, auto min, auto max,
                          auto& out) {
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (error == std::errc() && end == text.data() + text.size() && out >= min && out <= max)
            return true;
        std::fprintf(
            stderr, "reference_bot: %s must be a whole number from %llu to %llu, not '%.*s'\n",
            option, static_cast<unsigned long long>(min), static_cast<unsigned long long>(max),
            static_cast<int>(text.size()), text.data());
        return false;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--legacy") {
            legacy = true;
        } else if (arg == "--dict" && has_value) {
            dict = argv[++i];
        } else if (arg == "--remember" && has_value) {
            remember = argv[++i];
        } else if (arg == "--seed" && has_value) {
            if (!whole("--seed", argv[++i], 0ULL, ~0ULL, seed))
                return 2;
        } else if (arg == "--level" && has_value) {
            if (!whole("--level", argv[++i], 1, top_level, level))
                return 2;
        } else if (arg == "--seat" && has_value) {
            if (!whole("--seat", argv[++i], 0, 15, seat))
                return 2;
        } else if (arg == "--players" && has_value) {
            if (!whole("--players", argv[++i], 2, 16, players))
                return 2;
        } else if (arg == "--version") {
            std::printf("%s\n", bg::version_line("bananagrams-reference-bot").c_str());
            return 0;
        } else {
            const bool help = arg == "--help" || arg == "-h";
            if (!help)
                std::fprintf(stderr, "reference_bot: unknown option or missing value: '%s'\n\n",
                             arg.c_str());
            std::fputs(usage().c_str(), help ? stdout : stderr);
            return help ? 0 : 2;
        }
    }
    // The game's list, which the host names for every player, unless a file is given.
    if (const char* game_list = std::getenv("BANANAGRAMS_WORDLIST");
        dict.empty() && game_list && *game_list)
        dict = game_list;
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
    const Pace pace(levels[level - 1]);
    if (legacy)
        return play_legacy(crossword, seed, pace);
    if (remember.empty())
        return play_v2(crossword, seed, pace, nullptr);
    Remembering remembering(seat, players);
    if (std::string error; !remembering.memory.open(remember, error)) {
        std::fprintf(stderr, "reference_bot: %s: %s\n", remember.c_str(), error.c_str());
        return 1;
    }
    return play_v2(crossword, seed, pace, &remembering);
}
