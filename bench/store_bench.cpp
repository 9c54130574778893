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

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "bench/scratch_store.hpp"

namespace {

using namespace bg;
using namespace bg::arena;
using namespace bg::bench;

// A store of 20 bots on one backend (bench/scratch_store.hpp), and match n rated in it: two
// of the bots, two games (each with a real game's log), their ratings moved a little.
class Bench : public ScratchStore {
  public:
    explicit Bench(bool postgresql) : ScratchStore(postgresql, "store_bench") {}
    void rate(int n) {
        const int id = store->begin_match(static_cast<std::uint64_t>(n)).id;
        store->rate_match(id, rated(n),
                          {{0, log_path, two_player_game(0)}, {1, log_path, two_player_game(1)}});
    }
    int entry(int i) const { return entries[static_cast<std::size_t>(i)].id; }
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
        benchmark::DoNotOptimize(bench.store->history(bench.entry(3)));
        benchmark::DoNotOptimize(bench.store->games_of_entry(bench.entry(3)));
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
