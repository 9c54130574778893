// What the store's benches share (store_bench, workers_bench): an arena's store of 20 bots on a
// fresh database, SQLite's (a file in the temporary folder) or PostgreSQL's (a database of its
// own on the server BG_BENCH_POSTGRESQL names, dropped after), and a two-player match's games
// and ratings as a real one stores them.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "arena/sql_store.hpp"
#include "arena/store.hpp"
#include "sql/postgres_connection.hpp"

namespace bg::bench {

inline const char* postgresql_server() {
    const char* server = std::getenv("BG_BENCH_POSTGRESQL");
    return server && *server ? server : nullptr;
}

// A real game's event log (48 KB, 8 KB gzipped).
inline const std::string log_path = BG_SOURCE_DIR "/tests/data/log-v2-wamerican-default.jsonl";

// A game's result as a two-player match stores it: its JSON is what a real one is in size.
inline GameResult two_player_game(int winner) {
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

inline std::unique_ptr<arena::Store> open_store(const std::string& where, bool create) {
    auto opened = arena::Store::open(where, create);
    if (auto* error = std::get_if<std::string>(&opened))
        throw std::runtime_error(*error);
    return std::move(std::get<std::unique_ptr<arena::Store>>(opened));
}

// A store of 20 bots, each with an entry, named `name` (two at once in one bench apart).
class ScratchStore {
  public:
    ScratchStore(bool postgresql, const std::string& name) {
        if (postgresql) {
            database_ = fmt::format("bg_{}_{}", name, ::getpid());
            admin(fmt::format("CREATE DATABASE {}", database_));
            where = "dbname=" + database_;
        } else {
            where = (std::filesystem::temp_directory_path() /
                     fmt::format("bg-{}-{}.db", name, ::getpid()))
                        .string();
            remove();
        }
        store = open_store(where, true);
        for (int i = 0; i < 20; ++i) {
            store->add_bot(fmt::format("bot{}", i), "", std::nullopt, std::nullopt);
            entries.push_back(store->entry(*store->bot(fmt::format("bot{}", i)), "v1"));
        }
    }
    ~ScratchStore() {
        store.reset();
        if (!database_.empty())
            admin(fmt::format("DROP DATABASE IF EXISTS {} WITH (FORCE)", database_));
        else
            remove();
    }
    ScratchStore(const ScratchStore&) = delete;
    ScratchStore& operator=(const ScratchStore&) = delete;

    sql::Connection& connection() { return dynamic_cast<arena::SqlStore&>(*store).connection(); }
    // Match n's entrants (two of the bots) and their ratings, moved a little.
    std::vector<arena::Rated> rated(int n) const {
        const arena::Entry& a = entries[static_cast<std::size_t>(n % 20)];
        const arena::Entry& b = entries[static_cast<std::size_t>((n * 7 + 3) % 20)];
        const double d = 0.001 * (n % 13);
        return {{a.id, 0, 1, a.belief, {a.belief.mu + d, a.belief.sigma - d}},
                {b.id, 1, 2, b.belief, {b.belief.mu - d, b.belief.sigma - d}}};
    }

    std::string where;  // what Store::open takes
    std::unique_ptr<arena::Store> store;
    std::vector<arena::Entry> entries;

  private:
    void remove() const {
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(where + suffix);
    }
    static void admin(const std::string& statement) {
        auto connected = sql::PostgresConnection::connect(postgresql_server());
        if (auto* error = std::get_if<std::string>(&connected))
            throw std::runtime_error(*error);
        std::get<std::unique_ptr<sql::PostgresConnection>>(connected)->execute(statement);
    }
    std::string database_;
};

}  // namespace bg::bench
