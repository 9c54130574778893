// A Bananagrams player in C++ (the standard library only, one file), speaking protocol v2
// (protocol-v2.md). The same play as the Python, JavaScript and Go examples: lay the hand out
// as one crossword of dictionary words, hardest letters first; peel when every tile is down;
// dump the hardest tile left over otherwise. It asks for v004, as the Python one does: it stays
// for the games of a match, its word list loaded once (after E, G begins its next game and B.
// says there is none).
//
//     example_player_cpp [--dict WORDLIST]
//
// Build it from this file alone with any C++17 compiler (Debian's g++ is enough: nothing of the
// host is needed). Installed, copy it into a folder of your own first:
//     cp /usr/share/bananagrams-host/players/example_player.cpp .
//     c++ -std=c++17 -O2 example_player.cpp -o example_player_cpp
// and play it: bananagrams-host ./example_player_cpp bananagrams-reference-bot
//
// The word list must be the game's: --dict WORDLIST if given; else the file the host names in
// $BANANAGRAMS_WORDLIST (the list the game is judged by, the host's own or the organiser's);
// else, run by hand, the host's built-in list, read from its installed file (the build of this
// tree names the tree's own wordlist/scowl-80.txt with -DWORDLIST=...). If it cannot be read,
// the player says which file and why in one line on stderr and exits 1, before sending anything.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

#ifndef WORDLIST
#define WORDLIST "/usr/share/bananagrams-host/wordlist/scowl-80.txt"
#endif
const std::string default_dict = WORDLIST;
const std::string hardest_first = "QZXJKVWYBFHGMPCUDLOTNSRAIE";

using Counts = std::array<int, 26>;  // letter counts, A to Z
using Cell = std::pair<int, int>;    // x, y
using Cells = std::map<Cell, char>;

Counts counts_of(const std::string& letters) {
    Counts c{};
    for (char l : letters)
        ++c[l - 'A'];
    return c;
}

int total(const Counts& c) {
    int n = 0;
    for (int k : c)
        n += k;
    return n;
}

struct Word {
    std::string text;
    Counts letters;
};

// Says in one line on stderr why the word list cannot be read, and exits: nothing has been sent.
[[noreturn]] void cannot_read(const std::string& path, const char* why) {
    std::fprintf(stderr, "example_player_cpp: cannot read the word list %s: %s\n", path.c_str(),
                 why);
    std::exit(1);
}

// Words of two letters or more, upper case, longest first (then alphabetical).
std::vector<Word> load_words(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "r");
    if (!file)
        cannot_read(path, std::strerror(errno));
    std::string text;
    char buffer[65536];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;)
        text.append(buffer, n);
    if (std::ferror(file))  // a folder, say: it opens, but reading it fails
        cannot_read(path, std::strerror(errno));
    std::fclose(file);
    std::set<std::string> unique;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        bool ok = line.size() >= 2;
        for (char& c : line) {
            ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
            c = static_cast<char>(c >= 'a' ? c - 'a' + 'A' : c);
        }
        if (ok)
            unique.insert(line);
    }
    std::vector<Word> words;
    for (const auto& w : unique)
        words.push_back({w, counts_of(w)});
    std::stable_sort(words.begin(), words.end(),
                     [](const Word& a, const Word& b) { return a.text.size() > b.text.size(); });
    if (words.empty())
        cannot_read(path, "it holds no words of two letters or more");
    return words;
}

// How many letters of the word the hand lacks.
int lacking(const Word& word, const Counts& hand) {
    int missing = 0;
    for (int i = 0; i < 26; ++i)
        missing += std::max(0, word.letters[i] - hand[i]);
    return missing;
}

// The new tiles for `word` at (x, y) going (dx, dy), if it crosses only what it shares and the
// hand has the rest; none otherwise.
Cells lay(const Cells& cells, const std::string& word, int x, int y, int dx, int dy,
          const Counts& left) {
    const int n = static_cast<int>(word.size());
    if (cells.count({x - dx, y - dy}) || cells.count({x + dx * n, y + dy * n}))
        return {};
    Cells placed;
    Counts need{};
    for (int k = 0; k < n; ++k) {
        const Cell at{x + dx * k, y + dy * k};
        if (auto here = cells.find(at); here != cells.end()) {
            if (here->second != word[k])
                return {};
            continue;
        }
        // A new tile may not touch anything sideways.
        if (cells.count({at.first + dy, at.second + dx}) ||
            cells.count({at.first - dy, at.second - dx}))
            return {};
        placed[at] = word[k];
        ++need[word[k] - 'A'];
    }
    for (int i = 0; i < 26; ++i)
        if (need[i] > left[i])
            return {};
    return placed;
}

// A crossword of as much of the hand as it can place, and the tiles left over.
std::pair<Cells, Counts> build(const Counts& hand, const std::vector<Word>& words) {
    const auto size = static_cast<std::size_t>(total(hand));
    std::vector<const Word*> usable;
    for (const auto& w : words)
        if (w.text.size() <= size + 1 && lacking(w, hand) <= 1)
            usable.push_back(&w);
    Cells cells;
    Counts left = hand;
    const auto start = std::find_if(usable.begin(), usable.end(),
                                    [&](const Word* w) { return lacking(*w, hand) == 0; });
    if (start == usable.end())
        return {cells, left};
    for (int i = 0; i < static_cast<int>((*start)->text.size()); ++i) {
        cells[{i, 0}] = (*start)->text[i];
        --left[(*start)->text[i] - 'A'];
    }
    // The hand only shrinks and the grid only fills: each tile is tried as an anchor once.
    std::vector<Cell> anchors;
    for (const auto& [at, letter] : cells)
        anchors.push_back(at);
    for (std::size_t a = 0; a < anchors.size() && total(left) > 0; ++a) {
        const auto [x, y] = anchors[a];
        const char anchor = cells[anchors[a]];
        Counts spare = left;
        ++spare[anchor - 'A'];  // the word may use the anchor's tile, already on the grid
        for (const Word* word : usable) {
            const std::string& text = word->text;
            if (static_cast<int>(text.size()) > total(left) + 1 ||
                text.find(anchor) == std::string::npos || lacking(*word, spare) > 0)
                continue;
            Cells spot;
            for (int i = 0; i < static_cast<int>(text.size()) && spot.empty(); ++i)
                if (text[i] == anchor) {
                    spot = lay(cells, text, x - i, y, 1, 0, left);
                    if (spot.empty())
                        spot = lay(cells, text, x, y - i, 0, 1, left);
                }
            if (!spot.empty()) {
                for (const auto& [at, letter] : spot) {
                    cells[at] = letter;
                    anchors.push_back(at);
                    --left[letter - 'A'];
                }
                break;
            }
        }
    }
    return {cells, left};
}

// The grid as the protocol writes it: width, height (3 digits each), then the rows.
std::string grid_text(const Cells& cells) {
    int x0 = cells.begin()->first.first, x1 = x0, y0 = cells.begin()->first.second, y1 = y0;
    for (const auto& [at, letter] : cells) {
        x0 = std::min(x0, at.first), x1 = std::max(x1, at.first);
        y0 = std::min(y0, at.second), y1 = std::max(y1, at.second);
    }
    char size[32];
    std::snprintf(size, sizeof size, "%03d%03d", x1 - x0 + 1, y1 - y0 + 1);
    std::string text = size;
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const auto at = cells.find({x, y});
            text += at == cells.end() ? '.' : at->second;
        }
    return text;
}

// Unbuffered: every message leaves at once.
void send(const std::string& message) {
    for (std::size_t sent = 0; sent < message.size();) {
        const ssize_t n = ::write(1, message.data() + sent, message.size() - sent);
        if (n <= 0)
            std::exit(0);  // the host has gone
        sent += static_cast<std::size_t>(n);
    }
}

// Where the message at the start of `pending` ends (its '.'), or npos before it has come. An E
// message's reason may hold '.': its length comes first (E, outcome, standing, winner, 4 digits).
std::size_t message_end(const std::string& pending) {
    std::size_t end = pending.find('.');
    if (pending.size() >= 10 && pending[0] == 'E')
        end = 10 + std::stoul(pending.substr(6, 4));
    return end < pending.size() ? end : std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
    const char* from_host = std::getenv("BANANAGRAMS_WORDLIST");
    std::string dict = from_host && *from_host ? from_host : default_dict;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--dict") {
            if (i + 1 == argc) {
                std::fputs("example_player_cpp: --dict needs a file\n", stderr);
                return 1;
            }
            dict = argv[i + 1];
        }
    const std::vector<Word> words = load_words(dict);
    Counts hand{};
    int seen = 0;          // the newest peel whose tile is in the hand
    bool waiting = true;   // for the hand, or the answer to our last move
    bool refused = false;  // a dump was refused: none again until a new tile comes
    std::string pending;
    send("v004R");  // v004: we stay for the games of a match
    char buffer[4096];
    for (ssize_t n; (n = ::read(0, buffer, sizeof buffer)) > 0;) {
        pending.append(buffer, static_cast<std::size_t>(n));
        for (std::size_t dot; (dot = message_end(pending)) != std::string::npos;) {
            const std::string m = pending.substr(0, dot);
            pending.erase(0, dot + 1);
            const auto add = [&](const std::string& letters) {
                for (char l : letters)
                    ++hand[l - 'A'];
            };
            switch (m.empty() ? '?' : m[0]) {
                case 'H':  // H nnnn letters: the hand
                    seen = std::stoi(m.substr(1, 4));
                    waiting = false;
                    add(m.substr(5));
                    break;
                case 'P':  // P nnnn tile bunch: a peel dealt us a tile
                    seen = std::stoi(m.substr(1, 4));
                    refused = false;
                    add(m.substr(5, 1));
                    break;
                case 'A':  // our peel was accepted
                    waiting = false;
                    break;
                case 'D':  // our dump's three tiles
                    waiting = false;
                    add(m.substr(1));
                    break;
                case 'N':  // stale: the tiles we lacked came in P messages
                    seen = std::max(seen, std::stoi(m.substr(1, 4)));
                    waiting = false;
                    break;
                case 'X':  // dump refused: the tile stays ours
                    add(m.substr(1, 1));
                    waiting = false;
                    refused = true;
                    break;
                case 'E':  // the game is over; the next may follow
                    hand = Counts{};
                    seen = 0;
                    waiting = true;
                    refused = false;
                    break;
                case 'G':  // G seat seats: our next game; its hand comes once we say R
                    send("R");
                    break;
                case 'B':  // no next game
                    return 0;
                default:  // V004 seat seats: the version
                    break;
            }
            if (waiting)
                continue;
            const auto laid = build(hand, words);
            const Cells& cells = laid.first;
            const Counts& left = laid.second;
            if (total(left) == 0) {
                char number[16];
                std::snprintf(number, sizeof number, "%04d", seen);
                send("P" + std::string(number) + grid_text(cells));
                waiting = true;
            } else if (!refused) {
                const char tile = *std::find_if(hardest_first.begin(), hardest_first.end(),
                                                [&](char l) { return left[l - 'A'] > 0; });
                --hand[tile - 'A'];
                send(std::string("D") + tile);
                waiting = true;
            }
        }
    }
    return 0;  // the end of input: the game is over
}
