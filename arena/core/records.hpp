// What an arena keeps, as values: its accounts (bots' and people's), their rating entries, its
// matches and their games. The store (arena/store.hpp) keeps them; the core (arena/core/
// arena_core.hpp) decides with them in memory. No I/O here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "record/result.hpp"
#include "stats/weng_lin.hpp"

namespace bg::arena {

// An account: a bot's (house or remote) or a person's.
struct Bot {
    int id = 0;
    std::string name;
    std::string owner;                   // its name when none was given
    std::optional<std::string> command;  // a house bot's; none for a remote bot
    std::optional<double> anchor;        // the rating it is held at
    std::string state = "active";        // active, disabled or removed
    std::string paused;                  // why it is not queued, or ""
    std::string created;
    bool person = false;    // a person's account: rated on the people's leaderboard
    std::string paused_at;  // when it was paused, or "" (not paused, or before schema 4)
    std::string about;      // what it is, in a few words for the public (a house bot's), or ""
    friend bool operator==(const Bot&, const Bot&) = default;
};

// A bot's version (a person has one), with its rating.
struct Entry {
    int id = 0;
    int bot = 0;
    std::string label;
    stats::Belief belief;
    int matches = 0;
    std::string created;
    std::string checked;       // when it passed the conformance check, or "" (not yet)
    std::string check_failed;  // why its last check failed (until one passes), or ""
    friend bool operator==(const Entry&, const Entry&) = default;
};

// A hosted bot's version: its archive's SHA-256 (hex), the command that runs it from its
// folder, its protocol ("v2" or "v1"), when it was submitted, and its check's report (the
// checker's words, once checked; "" before).
struct HostedVersion {
    int entry = 0;
    int bot = 0;
    std::string label;
    std::string sha256, command, protocol, submitted, report;
    friend bool operator==(const HostedVersion&, const HostedVersion&) = default;
};

// Why a bot is not queued when it connects, or "" when it is: paused (it is checked again as it
// connects, and queued once it passes), or a remote bot's newest version not yet through the
// conformance check (failed, and why).
std::string why_not_queued(const Bot& bot, const std::vector<Entry>& entries);
// Whether a version of `bot` must pass the conformance check before it is queued: a remote bot's
// (house bots are the organiser's, people are never checked) not yet checked, or paused.
bool checked_first(const Bot& bot, const Entry& entry);

// An entrant of a rated match: its rank, and its rating before and after.
struct Rated {
    int entry = 0;
    int seat = 0;
    int rank = 1;
    stats::Belief before, after;
    friend bool operator==(const Rated&, const Rated&) = default;
};

struct StoredGame {
    int rotation = 0;
    std::string log;  // "" for none
    GameResult result;
    friend bool operator==(const StoredGame&, const StoredGame&) = default;
};

struct Match {
    int id = 0;
    std::uint64_t seed = 0;
    std::string state;  // running, rated or void
    std::string started, finished, why;
    std::optional<int> rated_order;
    std::vector<Rated> entrants;  // once rated
};

// A name an account may have: 1 to 40 of a-z A-Z 0-9 _ . -, a letter or digit among them
bool valid_name(const std::string& name);
// An account's kind as the API says it: house, remote or person.
const char* kind(const Bot& bot);

}  // namespace bg::arena
