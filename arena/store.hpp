// The arena's only state: one SQLite database (WAL, foreign keys, a versioned schema), written by
// `arena bot ...` and by `arena serve`, read by everything else. A match is rated once, in the
// transaction that stores its games (their results and their logs' paths) and every entrant's
// rating after it; a match that never got there (the arena stopped or was killed) is void, and
// rates nothing.
//
// Schema version 1 (PRAGMA user_version; PRAGMA application_id marks the file as an arena's):
//   arena(id = 1, created, rating JSON: the rating model's parameters, fixed when the database
//     is made, matchmaker JSON: the parameters its last `serve` used)
//   bots(id, name unique, owner, command (NULL: a remote bot), anchor (NULL, or the rating held),
//     token_hash (SHA-256 of its token, hex; the token itself is never kept), state
//     active|disabled|removed, paused (why it is not queued, or NULL), created, person (1: a
//     person's account, whose token is the code it signs in with; 0: a bot)): every account
//   entries(id, bot_id, label (its version: what a remote bot says when it connects, or its
//     command's), mu, sigma, matches, created): a bot's rating entries, one a version
//   matches(id, seed (decimal text), state running|rated|void, started, finished, rated_order
//     (1, 2, ...: the order the matches were rated in; NULL unless rated), why (a void's reason))
//   match_entries(match_id, entry_id, seat (its seat in the first rotation), rank (1 best,
//     equal for a tie), mu_before, sigma_before, mu_after, sigma_after)
//   games(id, match_id, rotation, log (its event log's path, or NULL), result (JSON: the typed
//     result, record/result.hpp), counts (JSON: the referee's peel counts, one object a seat or
//     null; NULL before schema 4))
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/matchmaker.hpp"
#include "record/result.hpp"
#include "stats/weng_lin.hpp"

namespace SQLite {
class Database;
}

namespace bg::arena {

// 1: 1.7.0's first arena; 2: an entry's conformance check (entries.checked, check_failed);
// 3: people's accounts (bots.person); 4: when a bot was paused (bots.paused_at) and each game's
// referee counts (games.counts). A database of an earlier version is brought to this one
// as it is opened (version 1's entries that have played a match counted checked; every account
// of version 2 a bot's).
inline constexpr int schema_version = 4;

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
};

struct Entry {
    int id = 0;
    int bot = 0;
    std::string label;
    stats::Belief belief;
    int matches = 0;
    std::string created;
    std::string checked;       // when it passed the conformance check, or "" (not yet)
    std::string check_failed;  // why its last check failed (until one passes), or ""
};

// Why a bot is not queued when it connects, or "" when it is: paused (it is checked again as it
// connects, and queued once it passes), or a remote bot's newest version not yet through the
// conformance check (failed, and why).
std::string why_not_queued(const Bot& bot, const std::vector<Entry>& entries);

// An entrant of a rated match: its rank, and its rating before and after.
struct Rated {
    int entry = 0;
    int seat = 0;
    int rank = 1;
    stats::Belief before, after;
};

struct StoredGame {
    int rotation = 0;
    std::string log;  // "" for none
    GameResult result;
};

struct Match {
    int id = 0;
    std::uint64_t seed = 0;
    std::string state;  // running, rated or void
    std::string started, finished, why;
    std::optional<int> rated_order;
    std::vector<Rated> entrants;  // once rated
};

class Store {
  public:
    // The database at `path`: made (with the rating model given) when `create` and it is not
    // there; else opened, and refused when it is not an arena's or of a later schema.
    static std::variant<std::unique_ptr<Store>, std::string> open(const std::string& path,
                                                                  bool create,
                                                                  const stats::WengLin& model = {});
    ~Store();

    const stats::WengLin& model() const { return model_; }
    MatchmakerConfig matchmaker() const;
    void set_matchmaker(const MatchmakerConfig& config);

    // Bots. A new bot's token is returned, never kept: only its hash. Throws
    // std::invalid_argument with a sentence for a name taken or not allowed.
    std::string add_bot(const std::string& name, const std::string& owner,
                        const std::optional<std::string>& command,
                        const std::optional<double>& anchor);
    // A person's account, and the code it signs in with (kept only as a hash, as a token is):
    // drawn, or the one given (a person signing up chose it: 16 to 64 of A-Z a-z 0-9 _ -).
    std::string add_person(const std::string& name, const std::string& code = "");
    // Every account, bots' and people's.
    std::vector<Bot> bots(bool removed_too = false) const;
    std::optional<Bot> bot(const std::string& name) const;
    // The active or paused bot whose token this is (none for a removed or disabled one).
    std::optional<Bot> bot_by_token(const std::string& token) const;
    void set_state(int bot, const std::string& state);
    void set_paused(int bot, const std::string& why);
    // A conformance check of `entry` over its bot's connection: passed (the entry checked, its
    // bot no longer paused), or failed, and why.
    void record_check(const Entry& entry, bool passed, const std::string& why);
    std::string rotate_token(int bot);

    // The bot's entry for `label`, made (at the model's first belief, or its anchor) if new.
    Entry entry(const Bot& bot, const std::string& label);
    std::vector<Entry> entries() const;
    std::vector<Entry> entries_of(int bot) const;

    // Matches: begun (running), then rated with their games in one transaction, or void.
    int begin_match(std::uint64_t seed);
    void rate_match(int match, const std::vector<Rated>& entrants,
                    const std::vector<StoredGame>& games);
    void void_match(int match, const std::string& why);
    // Every match left running (the arena was stopped or killed): void, with `why`. How many.
    int void_running(const std::string& why);
    std::vector<Match> matches() const;  // newest first
    // The last `n` matches over (rated or void), the latest first, without their entrants.
    std::vector<Match> last_over(int n) const;
    std::vector<Match> rated_in_order() const;  // with their entrants, as rated
    // The entries of each of the last `n` rated matches, oldest first (in one query).
    std::vector<RecentMatch> recent_groups(int n) const;
    // A match's games, each player's referee counts with its result where they were kept.
    std::vector<StoredGame> games_of(int match) const;
    // Every game of every match the entry was rated in: its seat in the match's first rotation
    // and the match's players beside the game (in seat s of rotation r sits the entrant of
    // first seat (s + r) mod players).
    struct SeatGame {
        int match = 0;
        int seat = 0;
        int players = 0;
        StoredGame game;
    };
    std::vector<SeatGame> games_of_entry(int entry) const;
    // Every entrant of every match the entry was rated in, by match, in seat order.
    std::vector<std::pair<int, Rated>> tables_of(int entry) const;
    std::optional<Match> match(int id) const;  // with its entrants once rated
    // An entry's rated matches, in the order they were rated.
    struct Played {
        int match = 0;
        std::string finished;
        Rated rated;
    };
    std::vector<Played> history(int entry) const;
    // The bot's matches (rated or void) that finished in the last 24 hours, and the seconds
    // until the first of them is 24 hours old (0 when none).
    std::pair<int, int> matches_in_last_day(int bot) const;

  private:
    explicit Store(std::unique_ptr<SQLite::Database> db);
    std::vector<Rated> entrants_of(int match) const;
    std::string add_account(const Bot& account, std::string token);

    std::unique_ptr<SQLite::Database> db_;
    stats::WengLin model_;
};

// The parameters as the database, `arena config` and the API hold them.
nlohmann::json to_json(const stats::WengLin& model);
nlohmann::json to_json(const MatchmakerConfig& config);

// A name a bot may have: 1 to 40 of a-z A-Z 0-9 _ . -
bool valid_name(const std::string& name);
// SHA-256 of a token, in hex.
std::string token_hash(const std::string& token);

}  // namespace bg::arena
