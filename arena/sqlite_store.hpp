// The arena's store in one SQLite file (WAL, foreign keys, synchronous FULL: a rated match
// survives a power loss), made and upgraded through sqlite/schema_file.hpp.
//
// Schema version 4 (PRAGMA user_version; PRAGMA application_id marks the file as an arena's):
//   arena(id = 1, created, rating JSON: the rating model's parameters, fixed when the database
//     is made, matchmaker JSON: the parameters its last `serve` used)
//   bots(id, name unique, owner, command (NULL: a remote bot), anchor (NULL, or the rating held),
//     token_hash (SHA-256 of its token, hex; the token itself is never kept), state
//     active|disabled|removed, paused (why it is not queued, or NULL), created, person (1: a
//     person's account, whose token is the code it signs in with; 0: a bot), paused_at): every
//     account
//   entries(id, bot_id, label (its version: what a remote bot says when it connects, or its
//     command's), mu, sigma, matches, created, checked, check_failed): a bot's rating entries,
//     one a version
//   matches(id, seed (decimal text), state running|rated|void, started, finished, rated_order
//     (1, 2, ...: the order the matches were rated in; NULL unless rated), why (a void's reason))
//   match_entries(match_id, entry_id, seat (its seat in the first rotation), rank (1 best,
//     equal for a tie), mu_before, sigma_before, mu_after, sigma_after)
//   games(id, match_id, rotation, log (its event log's path, or NULL), result (JSON: the typed
//     result, record/result.hpp), counts (JSON: the referee's peel counts, one object a seat or
//     null; NULL before schema 4))
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "arena/store.hpp"

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

class SqliteStore final : public Store {
  public:
    static std::variant<std::unique_ptr<Store>, std::string> open(const std::string& path,
                                                                  bool create,
                                                                  const stats::WengLin& model);
    ~SqliteStore() override;

    const stats::WengLin& model() const override { return model_; }
    MatchmakerConfig matchmaker() const override;
    void set_matchmaker(const MatchmakerConfig& config) override;

    std::string add_bot(const std::string& name, const std::string& owner,
                        const std::optional<std::string>& command,
                        const std::optional<double>& anchor) override;
    std::string add_person(const std::string& name, const std::string& code = "") override;
    std::vector<Bot> bots(bool removed_too = false) const override;
    std::optional<Bot> bot(const std::string& name) const override;
    std::optional<Bot> bot_by_token(const std::string& token) const override;
    void set_state(int bot, const std::string& state) override;
    std::string set_paused(int bot, const std::string& why) override;
    std::string record_check(int entry, bool passed, const std::string& why) override;
    std::string rotate_token(int bot) override;

    Entry entry(const Bot& bot, const std::string& label) override;
    std::vector<Entry> entries() const override;
    std::vector<Entry> entries_of(int bot) const override;

    Begun begin_match(std::uint64_t seed) override;
    std::string rate_match(int match, const std::vector<Rated>& entrants,
                           const std::vector<StoredGame>& games) override;
    std::string void_match(int match, const std::string& why) override;
    int void_running(const std::string& why) override;
    std::vector<Match> matches() const override;
    std::vector<Match> last_over(int n) const override;
    std::vector<Match> rated_in_order() const override;
    std::vector<RecentMatch> recent_groups(int n) const override;
    std::vector<StoredGame> games_of(int match) const override;
    std::vector<SeatGame> games_of_entry(int entry) const override;
    std::vector<std::pair<int, Rated>> tables_of(int entry) const override;
    std::optional<Match> match(int id) const override;
    std::vector<Played> history(int entry) const override;
    std::pair<int, int> matches_in_last_day(int bot) const override;

  private:
    explicit SqliteStore(std::unique_ptr<SQLite::Database> db);
    std::vector<Rated> entrants_of(int match) const;
    std::string add_account(const Bot& account, std::string token);

    std::unique_ptr<SQLite::Database> db_;
    stats::WengLin model_;
};

}  // namespace bg::arena
