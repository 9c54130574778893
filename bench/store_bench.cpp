// The arena's store, SQLite's and PostgreSQL's (Google Benchmark): what rating a match costs (the
// one transaction that stores its games and its entrants' ratings: the work of the arena's one
// rating writer), and what a bot's page reads, against a baseline measured in the same run on the
// same database: a transaction that writes one row, which any durable write costs at the least.
//
// SQLite's file is in the temporary folder (synchronous FULL, as the arena keeps it). PostgreSQL
// is measured where BG_BENCH_POSTGRESQL names a server's database to connect to first (a libpq
// connection string): a database of the bench's own is made there and dropped after. With a
// server of its own, fsync on, as a real one runs (README, "Benchmarks"):
//
//   tests/with_postgresql -o fsync=on env BG_BENCH_POSTGRESQL=dbname=postgres
//       build-release/bench/store_bench   (one line)
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "arena/sql_store.hpp"
#include "arena/store.hpp"
#include "sql/postgres_connection.hpp"

namespace {

using namespace bg;
using namespace bg::arena;

const char* postgresql_server() {
    const char* server = std::getenv("BG_BENCH_POSTGRESQL");
    return server && *server ? server : nullptr;
}

// A game's result as a two-player match stores it: its JSON is what a real one is in size.
GameResult two_player_game(int winner) {
    GameResult g;
    g.end = End::bananas;
    g.winner = static_cast<PlayerId>(winner);
    for (int s = 0; s < 2; ++s) {
        PlayerResult p;
        p.rank = s == winner ? 1 : 2;
        p.outcome = s == winner ? Outcome::won : Outcome::lost;
        p.counts = PeelCounts{0, 12, 35.5};
        p.cpu_ms = 812.25;
        p.cpu_wait_ms = 3.5;
        g.players.push_back(p);
    }
    return g;
}

// A store with 20 bots, each with an entry, on one backend; removed when done.
class Bench {
  public:
    explicit Bench(bool postgresql) {
        if (postgresql) {
            database_ = fmt::format("bg_bench_{}", ::getpid());
            admin(fmt::format("CREATE DATABASE {}", database_));
            where_ = "dbname=" + database_;
        } else {
            where_ = (std::filesystem::temp_directory_path() /
                      fmt::format("bg-store-bench-{}.db", ::getpid()))
                         .string();
            remove();
        }
        auto made = Store::open(where_, true);
        if (auto* error = std::get_if<std::string>(&made))
            throw std::runtime_error(*error);
        store_ = std::move(std::get<std::unique_ptr<Store>>(made));
        for (int i = 0; i < 20; ++i) {
            store_->add_bot(fmt::format("bot{}", i), "", std::nullopt, std::nullopt);
            entries_.push_back(store_->entry(*store_->bot(fmt::format("bot{}", i)), "v1"));
        }
    }
    ~Bench() {
        store_.reset();
        if (!database_.empty())
            admin(fmt::format("DROP DATABASE IF EXISTS {} WITH (FORCE)", database_));
        else
            remove();
    }
    Store& store() { return *store_; }
    sql::Connection& connection() { return dynamic_cast<SqlStore&>(*store_).connection(); }
    // Match n: two of the bots, two games, their ratings moved a little.
    void rate(int n) {
        const Entry& a = entries_[static_cast<std::size_t>(n % 20)];
        const Entry& b = entries_[static_cast<std::size_t>((n * 7 + 3) % 20)];
        const int id = store_->begin_match(static_cast<std::uint64_t>(n)).id;
        const double d = 0.001 * (n % 13);
        store_->rate_match(id,
                           {{a.id, 0, 1, a.belief, {a.belief.mu + d, a.belief.sigma - d}},
                            {b.id, 1, 2, b.belief, {b.belief.mu - d, b.belief.sigma - d}}},
                           {{0, log_, two_player_game(0)}, {1, log_, two_player_game(1)}});
    }
    int entry(int i) const { return entries_[static_cast<std::size_t>(i)].id; }

  private:
    void remove() const {
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(where_ + suffix);
    }
    static void admin(const std::string& statement) {
        auto connected = sql::PostgresConnection::connect(postgresql_server());
        if (auto* error = std::get_if<std::string>(&connected))
            throw std::runtime_error(*error);
        std::get<std::unique_ptr<sql::PostgresConnection>>(connected)->execute(statement);
    }
    std::string where_, database_;
    // A real game's event log (48 KB, 8 KB gzipped), each game's: the store keeps it gzipped.
    std::string log_ = BG_SOURCE_DIR "/tests/data/log-v2-wamerican-default.jsonl";
    std::unique_ptr<Store> store_;
    std::vector<Entry> entries_;
};

// The rating writer's work for one match: begun, then rated with its two games in one
// transaction (7 rows written: the match twice, 2 entrants, 2 ratings, 2 games with their logs,
// each read from its file and gzipped).
void rate_match(benchmark::State& state, bool postgresql) {
    Bench bench(postgresql);
    int n = 0;
    for (auto _ : state)
        bench.rate(n++);
    state.SetItemsProcessed(state.iterations());
}

// The least a durable write costs on the same database: one row, one transaction.
void baseline_one_row_transaction(benchmark::State& state, bool postgresql) {
    Bench bench(postgresql);
    sql::Connection& db = bench.connection();
    db.script("CREATE TABLE bench_rows (n INTEGER NOT NULL)");
    std::int64_t n = 0;
    for (auto _ : state) {
        sql::Transaction t(db);
        db.execute("INSERT INTO bench_rows (n) VALUES (?)", {n++});
        t.commit();
    }
    state.SetItemsProcessed(state.iterations());
}

// What a bot's page reads of a bot with 200 rated matches (of 2,000 in the arena): its history
// and its games. (The matches are written without waiting for the disk: their cost is not what
// is measured here.)
void bot_page_reads(benchmark::State& state, bool postgresql) {
    Bench bench(postgresql);
    sql::Connection& db = bench.connection();
    db.script(postgresql ? "SET synchronous_commit = off" : "PRAGMA synchronous = OFF");
    for (int n = 0; n < 2'000; ++n)
        bench.rate(n);
    db.script(postgresql ? "SET synchronous_commit = on" : "PRAGMA synchronous = FULL");
    for (auto _ : state) {
        benchmark::DoNotOptimize(bench.store().history(bench.entry(3)));
        benchmark::DoNotOptimize(bench.store().games_of_entry(bench.entry(3)));
    }
}

void register_for(const char* name, bool postgresql) {
    benchmark::RegisterBenchmark(fmt::format("rate_match/{}", name).c_str(), rate_match,
                                 postgresql);
    benchmark::RegisterBenchmark(fmt::format("baseline_one_row_transaction/{}", name).c_str(),
                                 baseline_one_row_transaction, postgresql);
    benchmark::RegisterBenchmark(fmt::format("bot_page_reads/{}", name).c_str(), bot_page_reads,
                                 postgresql)
        ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
    register_for("sqlite", false);
    if (postgresql_server())
        register_for("postgresql", true);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
