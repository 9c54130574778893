// Everyone an arena knows, in memory: its accounts and their rating entries, read from the
// store once as it starts and kept current with the arena's own writes (a new entry, a check, a
// pause, a rated match), and the archive's rankings, which the order-free fit reads. What the
// core decides with, and what the leaderboard and a match's names are drawn from, without a
// read of the database. Pure.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "arena/core/ladder.hpp"
#include "arena/core/records.hpp"
#include "stats/weng_lin.hpp"

namespace bg::arena {

class Roster {
  public:
    Roster() = default;
    // The store's accounts (removed ones too), entries, and rated matches in the order they were
    // rated (with their entrants).
    Roster(const stats::WengLin& model, const std::vector<Bot>& accounts,
           const std::vector<Entry>& entries, const std::vector<Match>& rated);

    const stats::WengLin& model() const { return model_; }

    const Bot* account(int id) const;
    const Bot* account(std::string_view name) const;
    // A new account, or one as the store holds it now.
    void put(const Bot& bot);
    // Every account, by name (removed ones too).
    std::vector<Bot> accounts() const;

    const Entry* entry(int id) const;
    std::vector<Entry> entries_of(int bot) const;
    std::vector<Entry> entries() const;  // by id
    std::vector<int> entry_ids() const;
    // A new entry, or one as the store holds it now.
    void put(const Entry& entry);
    // An entry's rating as its next match finds it: held where its account is the anchor.
    Standing standing(int entry) const;

    // A match rated and stored: each entrant's entry takes its rating after it, and a match more;
    // it finished then.
    void rated(const std::vector<Rated>& rated, const std::string& finished);
    // When the entry's latest rated match finished ("": none).
    std::string last_match(int entry) const;
    const Rankings& rankings() const { return rankings_; }

    // The leaderboard of `board`, with the fit beside each row.
    std::vector<Row> leaderboard(Board board, const Fit& fit) const;

    // An entry as documents name it: its account's name and kind, and its version.
    struct Named {
        std::string bot, version;
        const char* kind = "remote";
    };
    Named named(int entry) const;

  private:
    stats::WengLin model_;
    std::map<int, Bot> accounts_;
    std::map<std::string, int, std::less<>> by_name_;
    std::map<int, Entry> entries_;
    std::map<int, std::string> last_match_;  // by entry
    Rankings rankings_;
};

}  // namespace bg::arena
