// The matches an arena's workers play (docs/arena.md, "Workers"), kept in its store beside its
// matches: the arena queues a match of its own players alone (house and hosted bots) as a job
// with its plan; a worker (`arena worker`, on any machine that reaches the database) claims it
// with a lease it renews, plays it, and stores what its games came to with their logs, gzipped;
// the arena takes the played jobs in the order the workers finished them and rates each in the
// transaction that checks its match still runs (one key a match: never rated twice), or voids
// the match of a lease that ran out. Every deadline is read off the database's clock, the one
// every machine shares.
//
// On PostgreSQL a claim skips the jobs others are claiming (FOR UPDATE SKIP LOCKED), so that
// workers never wait on each other; SQLite, which writes one at a time, needs no such clause.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/core/inputs.hpp"
#include "arena/core/records.hpp"
#include "sql/connection.hpp"

namespace bg::arena {

// What a worker plays: the match, its seed, the games' setup (record/setup.hpp's JSON: clocks,
// dialect; the word list by its fingerprint, the worker's own), and its entrants in the order of
// the first rotation, each a house bot's command or a hosted version's (its archive by SHA-256,
// its command run from its files).
struct JobEntrant {
    int bot = 0;
    std::string name;
    int entry = 0;
    std::string label;
    std::string command;
    std::string sha256;  // a hosted version's archive; "" for a house bot
    // A match placed at a front node (arena/front_mail.hpp): a connection's seat there, by the
    // front's own name of it (0: a house or hosted bot's seat).
    std::uint64_t connection = 0;
    // Its rating as the match began (what a connection is told of its table).
    double mu = 0, sigma = 0;
};
struct JobPlan {
    int match = 0;
    std::uint64_t seed = 0;
    nlohmann::json game;
    std::vector<JobEntrant> entrants;
};
nlohmann::json to_json(const JobPlan& plan);
// Throws nlohmann::json::exception for a plan that is not one.
JobPlan plan_from(const nlohmann::json& j);

// What a worker's match came to: input::Played's, without the arena's clock. A game's `log` is
// where the worker kept it (WORKER:PATH): its text is in the store.
struct JobResult {
    bool complete = false;
    std::string why;
    std::vector<StoredGame> games;
    // How long the worker's loop stalled in each game (its players waited as long: the machine's
    // fault for one not ready, input::Played's).
    std::vector<std::uint64_t> stalled_ms = {};
};
nlohmann::json to_json(const JobResult& result);
JobResult result_from(const nlohmann::json& j);

// What the player in `seat` of a game (its rotation) wrote to stderr, gzipped.
struct SeatStderr {
    int rotation = 0;
    int seat = 0;
    std::string gz;
};

class Jobs {
  public:
    explicit Jobs(sql::Connection& db) : db_(db) {}

    // What is notified (arena/wake.hpp), on PostgreSQL: a job queued, to the workers; a job
    // played, to the arena. Each as its transaction commits.
    static constexpr std::string_view queued_channel = "bg_jobs_queued";
    static constexpr std::string_view played_channel = "bg_jobs_played";
    sql::Connection& connection() { return db_; }

    // ---- the arena's part ----
    // A begun match queued for the workers: `words` the word list's fingerprint (hex), which a
    // worker's must be; `players` the cores it takes; `node` the front node that is to play it
    // (its connections' seats there), or "" for any worker.
    void queue(const JobPlan& plan, const std::string& words, int players,
               const std::string& node = "");
    // The played jobs whose match still runs, in the order they were finished.
    struct Played {
        int match = 0;
        std::string worker;
        JobResult result;
        std::string unreadable;  // why its result cannot be read (a worker of another version)
    };
    std::vector<Played> played() const;
    // The claims whose lease ran out, each ended (its match's result will be refused): their
    // matches and the workers that held them.
    std::vector<std::pair<int, std::string>> expired();
    // A queued or claimed job ended (the arena stops): its worker's result will be refused.
    void cancel(int match);
    // The queued jobs, not yet claimed.
    std::vector<int> queued() const;
    // The workers of word list `words` seen within `within_ms`: their cores, all told, and the
    // most of one.
    input::Workers seen(std::uint64_t within_ms, const std::string& words) const;
    // A hosted version's archive, kept by its SHA-256 (once), and whether one is.
    void keep_archive(const std::string& sha256, std::string_view bytes);
    bool has_archive(const std::string& sha256) const;

    // ---- a worker's part ----
    // The worker, there now with `cores` free to the arena (0 while it stops or backs off) for
    // matches of word list `words` (its row made or brought up to date).
    void hello(const std::string& worker, const std::string& host, int cores,
               const std::string& words);
    void goodbye(const std::string& worker);
    // The oldest queued job of this word list and of `free_cores` players at most, claimed for
    // `lease_ms`; or none. A worker's (`node` ""): one addressed to no front; a front node's
    // (`node` its name): one addressed to it, of any size (the core counted its cores) and
    // any word list (a front refuses one of another list, which is then void).
    std::optional<JobPlan> claim(const std::string& worker, const std::string& words,
                                 int free_cores, std::uint64_t lease_ms,
                                 const std::string& node = "");
    // The lease renewed; false where the job is no longer the worker's (its lease ran out, or
    // the arena ended it): its match is void, and its play is to stop. A lease past its end is
    // never renewed, nor a result stored under it.
    bool renew(int match, const std::string& worker, std::uint64_t lease_ms);
    // Played: its result, its games' logs (gzipped, by rotation) and what their players wrote
    // to stderr stored in one transaction, numbered in the order workers finish; false where it
    // is no longer the worker's (nothing stored).
    bool finish(int match, const std::string& worker, const JobResult& result,
                const std::vector<std::pair<int, std::string>>& logs_gz,
                const std::vector<SeatStderr>& stderr_gz = {});
    std::optional<std::string> archive(const std::string& sha256) const;

  private:
    sql::Connection& db_;
};

}  // namespace bg::arena
