// The arena's store, written once in the SQL that SQLite and PostgreSQL both speak (sql/):
// in one SQLite file (WAL, foreign keys, synchronous FULL: a rated match survives a power loss),
// made and upgraded through sqlite/schema_file.hpp; or in a PostgreSQL database, for an arena
// that more than one machine reaches.
//
// Schema version 11 (SQLite: PRAGMA user_version, and PRAGMA application_id marks the file as an
// arena's; PostgreSQL: the table arena_schema(version)):
//   arena(id = 1, created, rating JSON: the rating model's parameters, fixed when the database
//     is made, matchmaker JSON: the parameters its last `serve` used)
//   bots(id, name unique, owner, command (NULL: a remote bot), anchor (NULL, or the rating held),
//     token_hash (SHA-256 of its token, hex; the token itself is never kept), state
//     active|disabled|removed, paused (why it is not queued, or NULL), created, person (1: a
//     person's account, whose token is the code it signs in with; 0: a bot), paused_at, about
//     (what it is, in a few words for its public pages, or NULL)): every account
//   entries(id, bot_id, label (its version: what a remote bot says when it connects, or its
//     command's), mu, sigma, matches, created, checked, check_failed): a bot's rating entries,
//     one a version
//   matches(id, seed (decimal text), state running|rated|void, started, finished, rated_order
//     (1, 2, ...: the order the matches were rated in; NULL unless rated), why (a void's reason))
//   match_entries(match_id, entry_id, seat (its seat in the first rotation), rank (1 best,
//     equal for a tie), mu_before, sigma_before, mu_after, sigma_after)
//   games(id, match_id, rotation, log (its event log's path, or NULL), result (JSON: the typed
//     result, record/result.hpp), counts (JSON: the referee's peel counts, one object a seat or
//     null; NULL before schema 4), log_gz (the event log itself, gzipped, kept as the match is
//     rated; NULL where none was kept, and before schema 7))
//   hosted(entry_id (the version's entry), sha256 (its archive's, hex), command (its manifest's),
//     protocol v2|v1, submitted, report (its check's, NULL until checked)): hosted bots'
//     versions
//   archives(sha256, bytes): each hosted version's archive as its author submitted it, by its
//     SHA-256 (none for a version submitted before schema 8), for workers to fetch
//   jobs(match_id, plan JSON (what a worker plays: arena/jobs.hpp), words (the word list's
//     fingerprint, hex), players, state queued|claimed|played|void, worker, lease_ms (a claim's
//     end, the database's clock in ms since 1970), finish_order (1, 2, ...: the order workers
//     finished in), result JSON, claimed, finished, node (the front node that plays it, or
//     NULL: any worker)): the matches workers and front nodes play
//   job_logs(match_id, rotation, log_gz): a worker's games' logs, until the match is rated (its
//     games' log_gz then) or void
//   game_stderr(match_id, rotation, seat, text_gz): what each player of a game a worker played
//     wrote to stderr (none where it wrote nothing), gzipped; dropped if the match is void
//   workers(name, host, cores, words (its word list's fingerprint), started, seen_ms): the
//     workers, as each last said it was there
//   stream_events(id, name, data, after_id), live_state(id = 1, state, at_ms): what the holder
//     shows its front nodes (arena/published.hpp)
//   fronts(name, cores, started, seen_ms): the front nodes that seat, as each last said it was
//     there; front_mail(id, node, to_holder (1: the front's to the holder; 0: the holder's to
//     the front), body JSON): the messages between them, each deleted as it is read
//     (arena/front_mail.hpp)
//   seasons(id, name unique, starts, closes, rules JSON (arena/seasons.hpp), state
//     open|finals|over, added, board JSON (frozen at its close), finalists JSON (their entries,
//     in the board's order), standings JSON (its finals' places, once over), ended): the
//     seasons; finals_matches(match_id, season_id, stage, round): the matches of their finals
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "arena/front_mail.hpp"
#include "arena/jobs.hpp"
#include "arena/published.hpp"
#include "arena/seasons.hpp"
#include "arena/store.hpp"
#include "sql/connection.hpp"

namespace bg::arena {

// 1: 1.7.0's first arena; 2: an entry's conformance check (entries.checked, check_failed);
// 3: people's accounts (bots.person); 4: when a bot was paused (bots.paused_at) and each game's
// referee counts (games.counts); 5: a bot's public description (bots.about); 6: hosted bots'
// versions (hosted); 7: each game's event log kept in the store (games.log_gz); 8: workers
// (archives, jobs, job_logs, game_stderr, workers); 9: what the holder shows its front nodes
// (stream_events, live_state); 10: front nodes that seat (fronts, front_mail, jobs.node); 11:
// seasons (seasons, finals_matches). A database of an
// earlier version is brought to this one as it is opened (version 1's entries that have played
// a match counted checked; every account of version 2 a bot's); on PostgreSQL, whose first
// arenas were of version 6, from 6.
inline constexpr int schema_version = 11;

// The accounts and their rating entries.
class SqlAccounts {
  public:
    SqlAccounts(sql::Connection& db, const stats::WengLin& model) : db_(db), model_(model) {}
    std::string add_bot(const std::string& name, const std::string& owner,
                        const std::optional<std::string>& command,
                        const std::optional<double>& anchor);
    std::string add_person(const std::string& name, const std::string& code);
    std::vector<Bot> bots(bool removed_too = false) const;
    std::optional<Bot> bot(const std::string& name) const;
    std::optional<Bot> bot_by_token(const std::string& token) const;
    void set_state(int bot, const std::string& state);
    void set_about(int bot, const std::string& about);
    std::string set_paused(int bot, const std::string& why);
    std::string record_check(int entry, bool passed, const std::string& why);
    std::string rotate_token(int bot);
    Entry entry(const Bot& bot, const std::string& label);
    std::vector<Entry> entries() const;
    std::vector<Entry> entries_of(int bot) const;

  private:
    std::string add_account(const Bot& account, std::string token);
    sql::Connection& db_;
    const stats::WengLin& model_;
};

// The hosted bots' versions.
class SqlHosted {
  public:
    explicit SqlHosted(sql::Connection& db) : db_(db) {}
    Entry add(SqlAccounts& accounts, const Bot& bot, const HostedVersion& version);
    std::vector<HostedVersion> of(int bot) const;
    std::vector<HostedVersion> all() const;
    void set_report(int entry, const std::string& report);
    std::pair<int, int> in_last_day(int bot) const;

  private:
    sql::Connection& db_;
};

// The matches and their games: written, and read back for the API and rerate.
class SqlArchive {
  public:
    explicit SqlArchive(sql::Connection& db) : db_(db) {}
    Store::Begun begin_match(std::uint64_t seed);
    std::string rate_match(int match, const std::vector<Rated>& entrants,
                           const std::vector<StoredGame>& games);
    std::string void_match(int match, const std::string& why);
    int void_running(const std::string& why);
    std::vector<Match> matches() const;
    std::vector<Match> last_over(int n) const;
    std::vector<Match> rated_in_order() const;
    std::vector<RecentMatch> recent_groups(int n) const;
    std::vector<StoredGame> games_of(int match) const;
    std::optional<std::string> game_log(int match, int rotation) const;
    std::optional<std::string> game_stderr(int match, int rotation, int seat) const;
    std::vector<Store::SeatGame> games_of_entry(int entry) const;
    std::vector<std::pair<int, Rated>> tables_of(int entry) const;
    std::optional<Match> match(int id) const;
    std::vector<Store::Played> history(int entry) const;
    std::pair<int, int> matches_in_last_day(int bot) const;
    std::map<int, double> round_trips(int matches) const;

  private:
    // The matches `rest` (WHERE ... ORDER BY ...) selects, with their entrants where asked.
    std::vector<Match> matches_where(const std::string& rest,
                                     const std::vector<sql::Value>& parameters,
                                     bool with_entrants) const;
    std::vector<Rated> entrants_of(int match) const;
    sql::Connection& db_;
};

// The store: its connection, its parameters, and each of its parts answering its share of Store.
class SqlStore final : public Store {
  public:
    // An SQLite file (made when `create` and it is not there).
    static std::variant<std::unique_ptr<Store>, std::string> open_sqlite(
        const std::string& path, bool create, const stats::WengLin& model);
    // A PostgreSQL database (sql/postgres_connection.hpp; its arena made when `create` and it
    // holds none).
    static std::variant<std::unique_ptr<Store>, std::string> open_postgresql(
        const std::string& where, bool create, const stats::WengLin& model);
    ~SqlStore() override;
    sql::Connection& connection() { return *db_; }
    std::vector<std::string> private_paths() const override { return db_->private_paths(); }
    bool hold_serving() override { return db_->try_hold(serving_lock); }
    void release_serving() override { db_->let_go(serving_lock); }
    bool still_serving() const override { return db_->holding(); }
    static constexpr std::int64_t serving_lock = 0x42674172;  // "BgAr", as the file's id
    const stats::WengLin& model() const override { return model_; }
    MatchmakerConfig matchmaker() const override;
    void set_matchmaker(const MatchmakerConfig& config) override;
    std::string add_bot(const std::string& name, const std::string& owner,
                        const std::optional<std::string>& command,
                        const std::optional<double>& anchor) override {
        return accounts_.add_bot(name, owner, command, anchor);
    }
    std::string add_person(const std::string& name, const std::string& code = "") override {
        return accounts_.add_person(name, code);
    }
    std::vector<Bot> bots(bool removed_too = false) const override {
        return accounts_.bots(removed_too);
    }
    std::optional<Bot> bot(const std::string& name) const override { return accounts_.bot(name); }
    std::optional<Bot> bot_by_token(const std::string& token) const override {
        return accounts_.bot_by_token(token);
    }
    void set_state(int bot, const std::string& state) override { accounts_.set_state(bot, state); }
    void set_about(int bot, const std::string& about) override { accounts_.set_about(bot, about); }
    std::string set_paused(int bot, const std::string& why) override {
        return accounts_.set_paused(bot, why);
    }
    std::string record_check(int entry, bool passed, const std::string& why) override {
        return accounts_.record_check(entry, passed, why);
    }
    std::string rotate_token(int bot) override { return accounts_.rotate_token(bot); }
    Entry entry(const Bot& bot, const std::string& label) override {
        return accounts_.entry(bot, label);
    }
    std::vector<Entry> entries() const override { return accounts_.entries(); }
    std::vector<Entry> entries_of(int bot) const override { return accounts_.entries_of(bot); }

    Begun begin_match(std::uint64_t seed) override { return archive_.begin_match(seed); }
    std::string rate_match(int match, const std::vector<Rated>& entrants,
                           const std::vector<StoredGame>& games) override {
        return archive_.rate_match(match, entrants, games);
    }
    std::string void_match(int match, const std::string& why) override {
        return archive_.void_match(match, why);
    }
    int void_running(const std::string& why) override { return archive_.void_running(why); }
    std::vector<Match> matches() const override { return archive_.matches(); }
    std::vector<Match> last_over(int n) const override { return archive_.last_over(n); }
    std::vector<Match> rated_in_order() const override { return archive_.rated_in_order(); }
    std::vector<RecentMatch> recent_groups(int n) const override {
        return archive_.recent_groups(n);
    }
    std::vector<StoredGame> games_of(int match) const override { return archive_.games_of(match); }
    std::optional<std::string> game_log(int match, int rotation) const override {
        return archive_.game_log(match, rotation);
    }
    std::optional<std::string> game_stderr(int match, int rotation, int seat) const override {
        return archive_.game_stderr(match, rotation, seat);
    }
    std::vector<SeatGame> games_of_entry(int entry) const override {
        return archive_.games_of_entry(entry);
    }
    std::vector<std::pair<int, Rated>> tables_of(int entry) const override {
        return archive_.tables_of(entry);
    }
    std::optional<Match> match(int id) const override { return archive_.match(id); }
    std::vector<Played> history(int entry) const override { return archive_.history(entry); }
    std::pair<int, int> matches_in_last_day(int bot) const override {
        return archive_.matches_in_last_day(bot);
    }
    std::map<int, double> round_trips(int matches) const override {
        return archive_.round_trips(matches);
    }
    Entry add_hosted(const Bot& bot, const HostedVersion& version) override {
        return hosted_.add(accounts_, bot, version);
    }
    std::vector<HostedVersion> hosted_of(int bot) const override { return hosted_.of(bot); }
    std::vector<HostedVersion> hosted() const override { return hosted_.all(); }
    void set_check_report(int entry, const std::string& report) override {
        hosted_.set_report(entry, report);
    }
    std::pair<int, int> submitted_in_last_day(int bot) const override {
        return hosted_.in_last_day(bot);
    }
    Jobs& jobs() override { return jobs_; }
    Published& published() override { return published_; }
    FrontMail& fronts() override { return fronts_; }
    Seasons& seasons() override { return seasons_; }
    const Seasons& seasons() const override { return seasons_; }
    Begun begin_finals_match(const FinalsOf& finals) override;

  private:
    SqlStore(std::unique_ptr<sql::Connection> db, const stats::WengLin& model);

    std::unique_ptr<sql::Connection> db_;
    stats::WengLin model_;
    SqlAccounts accounts_;
    SqlArchive archive_;
    SqlHosted hosted_;
    Jobs jobs_;
    Published published_;
    FrontMail fronts_;
    Seasons seasons_;
};

// Copies the arena at `from` whole into a new one at `to` (a file or PostgreSQL, either way):
// every account (with its token's digest), entry, match, game and version, with their ids and
// times, in one transaction; refused when `to` holds an arena already. How many rows of each
// table it copied, or why it did not.
using Copied = std::vector<std::pair<std::string, std::size_t>>;
std::variant<Copied, std::string> copy_arena(const std::string& from, const std::string& to);

}  // namespace bg::arena
