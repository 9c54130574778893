// The arena's matchmaker: who plays whom next. A pure function of the queue (every idle seat of
// a connected bot or a person, each with its rating and its wait), the recent matches, the time
// and a seed; tables out. Property-tested (props/matchmaker_props.cpp) and fuzzed
// (fuzz/fuzz_matchmaker.cpp) for the rules below; its parameters are published (`arena config`).
//
// The rules, in the order they decide:
// - Tables are made for those who came to play (a house bot's free seat only fills them).
// - The neediest is seated first: whoever has waited past --max-wait, longest first; then
//   whoever has played fewest matches, then the least certain rating, then the longest wait.
// - A table never holds two seats of one owner (so never two of one bot: a bot's several
//   connections are its concurrency, never a table of its own).
// - A table is filled from the nearest ratings (means), each candidate's distance blurred by a
//   little randomness (up to `randomness` of a new entrant's deviation) and lengthened for each
//   recent match it played with someone already seated (`repeat_penalty` for each), so that
//   the same group does not meet again and again while others wait.
// - A table has `max_players` seats when enough compatible seats wait; fewer (down to two) only
//   once its neediest has waited `max_wait_ms`: rather short-handed than kept waiting longer.
// - A seat that wants one opponent (a person who chose a house bot) plays it alone, at a table
//   of two made for it as soon as a seat of that opponent is free, and sits at no other table.
// - A table holds the connections of one node (where several arena nodes seat connections,
//   docs/arena.md "Front nodes"): a match is played by one referee in one process, on the node
//   its connections are on. A seat played anywhere (a house or hosted bot's) sits with any.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bg::arena {

struct MatchmakerConfig {
    int max_players = 4;                 // 2 to 8
    std::uint64_t max_wait_ms = 30'000;  // after this a table of fewer seats is made
    double randomness = 2.0;             // on the ratings' scale (a new entrant's sigma is 8.3)
    double repeat_penalty = 4.0;         // for each recent match with a member already seated
    int window = 32;  // candidates looked at on each side of the neediest's rating
    friend bool operator==(const MatchmakerConfig&, const MatchmakerConfig&) = default;
};

// One seat waiting: a connection of a remote bot, a free seat of a house bot, a person.
struct Waiting {
    int entry = 0;      // its rating entry (a bot's version, a person); recent matches name these
    std::string owner;  // who may not meet itself: the bot's owner (its name, when it has none)
    double mu = 0;      // its rating
    double sigma = 0;
    int matches = 0;             // matches its entry has played
    std::uint64_t since_ms = 0;  // when it began to wait
    // A house bot's free seat: it fills tables, but no table is made for it (house bots play
    // when someone who came to play does), and it never counts as kept waiting.
    bool filler = false;
    // The entry of the one opponent it will play (a house bot's, chosen by a person), or 0:
    // whoever the rules above seat with it.
    int wants = 0;
    // The node its connection is on (a remote bot's, a person's), or "" for a seat played
    // wherever its table is (a house or hosted bot's).
    std::string node{};
};

// Whether two seats may sit at one table for where they are played.
inline bool same_place(const Waiting& a, const Waiting& b) {
    return a.node.empty() || b.node.empty() || a.node == b.node;
}

// A recent match: its entries. The caller keeps as many as it wants avoided (the last few
// hundred, say); older ones count for nothing.
using RecentMatch = std::vector<int>;

// The tables to start now, each a list of indices into `queue`, first the seat it was made for
// (the neediest when it was made); every
// index at most once. The same arguments give the same tables.
std::vector<std::vector<int>> make_tables(const std::vector<Waiting>& queue,
                                          const std::vector<RecentMatch>& recent,
                                          const MatchmakerConfig& config, std::uint64_t now_ms,
                                          std::uint64_t seed);

// The order of need (the first rule above): indices into `queue`, the neediest first.
std::vector<int> by_need(const std::vector<Waiting>& queue, const MatchmakerConfig& config,
                         std::uint64_t now_ms);

// Why a configuration cannot be used, or "".
std::string check(const MatchmakerConfig& config);

}  // namespace bg::arena
