// An arena's store for one test, made afresh and removed when the test is over: a file in the
// temporary folder under a name of the test's, or, where BG_TEST_POSTGRESQL names a PostgreSQL
// server's database to connect to first (a libpq connection string, "dbname=postgres" under
// pg_virtualenv), a database of its own on that server.
#pragma once

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <variant>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "arena/sql_store.hpp"
#include "arena/store.hpp"
#include "sql/postgres_connection.hpp"

namespace bg::test {

// The server the store tests run against, or none (SQLite files).
inline const char* test_postgresql() {
    const char* server = std::getenv("BG_TEST_POSTGRESQL");
    return server && *server ? server : nullptr;
}

struct ScratchArena {
    explicit ScratchArena(const std::string& name) {
        if (test_postgresql()) {
            database = fmt::format("bg_test_{}_", ::getpid());
            for (const char c : name)
                database += std::isalnum(static_cast<unsigned char>(c))
                                ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                                : '_';
            path = "dbname=" + database;
            admin([&](sql::Connection& db) {
                db.execute(fmt::format("DROP DATABASE IF EXISTS {}", database));
                db.execute(fmt::format("CREATE DATABASE {}", database));
            });
        } else {
            path = (std::filesystem::temp_directory_path() /
                    fmt::format("bg-arena-test-{}-{}.db", ::getpid(), name))
                       .string();
            remove();
        }
        auto made = arena::Store::open(path, true);
        if (auto* error = std::get_if<std::string>(&made))
            FAIL(*error);
        store = std::move(std::get<std::unique_ptr<arena::Store>>(made));
    }
    ~ScratchArena() {
        store.reset();
        if (!database.empty())
            admin([&](sql::Connection& db) {
                db.execute(fmt::format("DROP DATABASE IF EXISTS {} WITH (FORCE)", database));
            });
        else
            remove();
    }
    bool postgresql() const { return !database.empty(); }
    // A statement run on the store's database behind its back.
    void exec(const std::string& statement) const {
        dynamic_cast<arena::SqlStore&>(*store).connection().execute(statement);
    }
    void remove() const {
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(path + suffix);
    }
    // Everything the store holds, as it is kept: the file's bytes, or every row as text.
    std::string bytes() const {
        std::string all;
        if (postgresql()) {
            auto& db = dynamic_cast<arena::SqlStore&>(*store).connection();
            for (const char* table :
                 {"arena", "bots", "entries", "matches", "match_entries", "games", "hosted"})
                for (const sql::Row& r : db.query(fmt::format(
                         "SELECT COALESCE(string_agg(t::text, ' '), '') FROM {} t", table)))
                    all += r.text(0);
            return all;
        }
        for (const char* suffix : {"", "-wal"}) {
            std::ifstream in(path + suffix, std::ios::binary);
            all.append(std::istreambuf_iterator<char>(in), {});
        }
        return all;
    }
    template <class F>
    static void admin(F&& f) {
        auto connected = sql::PostgresConnection::connect(test_postgresql());
        if (auto* error = std::get_if<std::string>(&connected))
            FAIL(*error);
        f(*std::get<std::unique_ptr<sql::PostgresConnection>>(connected));
    }
    std::string path;      // what Store::open takes
    std::string database;  // PostgreSQL's, or none
    std::unique_ptr<arena::Store> store;
};

// Whether `db` is told (sql::Connection::notified) within `ms`, asked every 5 ms as an owner of
// arena/wake.hpp asks on its clock.
inline bool told_within(sql::Connection& db, int ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    do {
        if (db.notified())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } while (std::chrono::steady_clock::now() < until);
    return false;
}

}  // namespace bg::test
