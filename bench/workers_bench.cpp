// What handing matches to workers costs (docs/performance.md, "Workers"): matches a second
// through the arena's store, their games free (trivial bots: a canned result of two games, each
// with a real game's log, gzipped as a worker stores it), so that what is measured is the
// coordination alone: the arena's writes of a match (begun, queued, its result read, rated with
// its logs moved into its games) and a worker's (said there, a claim under its lease, a renewal,
// the result with its logs in one transaction), against the same run's baselines: the arena on
// SQLite playing its matches itself (begun, then rated reading each log from its file), and on
// PostgreSQL alone.
//
// The arena's side runs without pause (not on its 200 ms tick), keeping two jobs queued for
// each worker; each worker is a thread with its own connection, as a process would be. Under a
// server of its own, fsync on, as a real one runs:
//
//   tests/with_postgresql -o fsync=on env BG_BENCH_POSTGRESQL=dbname=postgres
//       build-release/bench/workers_bench [SECONDS]   (one line)
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "arena/jobs.hpp"
#include "arena/store.hpp"
#include "bench/scratch_store.hpp"
#include "serve/gzip.hpp"

namespace {

using namespace bg;
using namespace bg::arena;
using namespace bg::bench;
using Clock = std::chrono::steady_clock;

// The arena playing its matches itself: begun, then rated with its games' logs read from their
// files. Matches a second over `seconds`.
double alone(bool postgresql, double seconds) {
    ScratchStore arena(postgresql, "workers_bench_alone");
    const std::vector<StoredGame> games = {{0, log_path, two_player_game(0)},
                                           {1, log_path, two_player_game(1)}};
    int n = 0;
    const auto end = Clock::now() + std::chrono::duration<double>(seconds);
    const auto began = Clock::now();
    while (Clock::now() < end) {
        const int id = arena.store->begin_match(static_cast<std::uint64_t>(n)).id;
        arena.store->rate_match(id, arena.rated(n), games);
        ++n;
    }
    return n / std::chrono::duration<double>(Clock::now() - began).count();
}

// What a worker that plays nothing stores: two games, their logs named as on `worker`.
JobResult canned_result(const std::string& worker) {
    JobResult result{true, "", {}};
    for (int r = 0; r < 2; ++r)
        result.games.push_back({r, worker + ":" + log_path, two_player_game(r)});
    return result;
}

// A worker that plays nothing: says it is there, claims, renews once, and stores the canned
// result with its two logs, gzipped (as a worker gzips its files), until told to stop.
void worker(const std::string& where, const std::string& name, const std::string& log,
            const std::atomic<bool>& stop) {
    auto store = open_store(where, false);
    Jobs& jobs = store->jobs();
    const JobResult result = canned_result(name);
    while (!stop) {
        jobs.hello(name, "bench", 2, "words");
        auto plan = jobs.claim(name, "words", 2, 30'000);
        if (!plan) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            continue;
        }
        jobs.renew(plan->match, name, 30'000);
        const std::string gz = serve::gzip(log);
        jobs.finish(plan->match, name, result, {{0, gz}, {1, gz}});
    }
}

// Match `n` begun and queued for the workers, between the scratch arena's first two bots.
void queue_one(ScratchStore& arena, int n) {
    JobPlan plan;
    plan.match = arena.store->begin_match(static_cast<std::uint64_t>(n)).id;
    plan.seed = static_cast<std::uint64_t>(n);
    plan.game = {{"bench", true}};
    plan.entrants = {{1, "bot0", arena.entries[0].id, "v1", "true", ""},
                     {2, "bot1", arena.entries[1].id, "v1", "true", ""}};
    arena.store->jobs().queue(plan, "words", 2);
}

// The arena's side with `workers` workers: two jobs queued for each, the played ones rated as
// they come (their logs moved from the jobs), the workers' cores and leases read as at a tick.
double with_workers(int workers, double seconds, const std::string& log) {
    ScratchStore arena(true, fmt::format("workers_bench_w{}", workers));
    Store& store = *arena.store;
    Jobs& jobs = store.jobs();
    std::atomic<bool> stop = false;
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w)
        threads.emplace_back(worker, arena.where, fmt::format("w{}", w), std::cref(log),
                             std::cref(stop));
    int queued = 0, rated = 0, n = 0;
    const auto end = Clock::now() + std::chrono::duration<double>(seconds);
    const auto began = Clock::now();
    while (Clock::now() < end) {
        for (; queued < 2 * workers; ++queued, ++n) {
            queue_one(arena, n);
        }
        jobs.seen(10'000, "words");
        jobs.expired();
        for (const Jobs::Played& p : jobs.played()) {
            store.rate_match(p.match, arena.rated(p.match), p.result.games);
            --queued;
            ++rated;
        }
    }
    const double rate = rated / std::chrono::duration<double>(Clock::now() - began).count();
    stop = true;
    for (auto& t : threads)
        t.join();
    return rate;
}

// Until `db` is notified or `ms` passes: its wake socket polled, as arena/wake.hpp's owners
// do; or, `notified` false, `ms` slept, as a side that only looks on its clock.
void wait_for(sql::Connection& db, bool notified, int ms) {
    if (!notified) {
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        return;
    }
    if (db.notified())
        return;
    pollfd wake{db.wake_fd(), POLLIN, 0};
    ::poll(&wake, 1, ms);
    db.notified();
}

// One match at a time, the whole round: the arena queues it, a worker claims it, plays
// nothing and stores its result, the arena reads and rates it. Each side looks on the clock
// that `arena serve` and `arena worker` keep (the arena's 200 ms tick, the worker's default
// --poll of 0.5 s), and, `notified`, is woken as well as the database notifies the other's
// write. Milliseconds a match.
double one_at_a_time(bool notified, double seconds, const std::string& log) {
    ScratchStore arena(true, fmt::format("workers_bench_one_{}", notified ? "woken" : "clock"));
    Store& store = *arena.store;
    Jobs& jobs = store.jobs();
    jobs.connection().listen(Jobs::played_channel);
    std::atomic<bool> stop = false;
    std::thread playing([&] {
        auto opened = open_store(arena.where, false);
        Jobs& mine = opened->jobs();
        mine.connection().listen(Jobs::queued_channel);
        const JobResult result = canned_result("w");
        const std::string gz = serve::gzip(log);
        while (!stop) {
            mine.hello("w", "bench", 2, "words");
            if (auto plan = mine.claim("w", "words", 2, 30'000)) {
                mine.finish(plan->match, "w", result, {{0, gz}, {1, gz}});
                continue;
            }
            wait_for(mine.connection(), notified, 500);
        }
    });
    int n = 0;
    const auto end = Clock::now() + std::chrono::duration<double>(seconds);
    const auto began = Clock::now();
    while (Clock::now() < end) {
        queue_one(arena, n);
        for (bool rated = false; !rated;) {
            for (const Jobs::Played& p : jobs.played()) {
                store.rate_match(p.match, arena.rated(p.match), p.result.games);
                rated = true;
            }
            if (!rated)
                wait_for(jobs.connection(), notified, 200);
        }
        ++n;
    }
    const double ms =
        std::chrono::duration<double, std::milli>(Clock::now() - began).count() / std::max(n, 1);
    stop = true;
    playing.join();
    return ms;
}

}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
    if (!(seconds > 0)) {
        fmt::print(stderr, "usage: workers_bench [SECONDS]\n");
        return 2;
    }
    std::ifstream in(log_path, std::ios::binary);
    const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (log.empty()) {
        fmt::print(stderr, "workers_bench: {} cannot be read\n", log_path);
        return 1;
    }
    const double sqlite = alone(false, seconds);
    fmt::print("the arena alone, SQLite:      {:8.1f} matches/s (the baseline)\n", sqlite);
    if (!postgresql_server()) {
        fmt::print("(no PostgreSQL: set BG_BENCH_POSTGRESQL, under tests/with_postgresql)\n");
        return 0;
    }
    const double postgresql = alone(true, seconds);
    fmt::print("the arena alone, PostgreSQL:  {:8.1f} matches/s ({:.2f}x SQLite)\n", postgresql,
               postgresql / sqlite);
    for (const int workers : {1, 2, 4}) {
        const double rate = with_workers(workers, seconds, log);
        fmt::print(
            "{} worker{}, PostgreSQL:   {:8.1f} matches/s ({:.2f}x SQLite, {:.2f}x the "
            "arena alone on PostgreSQL)\n",
            workers, workers == 1 ? " " : "s", rate, rate / sqlite, rate / postgresql);
    }
    const double clock = one_at_a_time(false, seconds, log);
    const double woken = one_at_a_time(true, seconds, log);
    fmt::print("one match at a time, each side on its clock:  {:7.1f} ms a match (the baseline)\n",
               clock);
    fmt::print("one match at a time, woken by notifications:  {:7.1f} ms a match ({:.3f}x)\n",
               woken, woken / clock);
    return 0;
}
