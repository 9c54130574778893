// sql::Connection over an SQLite file (SQLiteCpp), as sqlite/schema_file.hpp made or opened it.
#pragma once

#include <memory>

#include "sql/connection.hpp"

namespace SQLite {
class Database;
}

namespace bg::sql {

class SqliteConnection final : public Connection {
  public:
    explicit SqliteConnection(std::unique_ptr<SQLite::Database> db);
    ~SqliteConnection() override;
    SQLite::Database& database() { return *db_; }

    Backend backend() const override { return Backend::sqlite; }
    Rows query(std::string_view statement, const std::vector<Value>& parameters = {}) override;
    std::int64_t execute(std::string_view statement,
                         const std::vector<Value>& parameters = {}) override;
    void script(std::string_view statements) override;
    std::vector<std::string> private_paths() const override;
    bool try_hold(std::int64_t key) override;
    void let_go(std::int64_t key) override;
    bool holding() const override;
    void listen(std::string_view) override {}
    void unlisten(std::string_view) override {}
    void notify(std::string_view) override {}
    bool notified() override { return false; }
    int wake_fd() const override { return -1; }
    std::uint64_t session() const override { return 0; }
    std::string_view now() const override;
    std::string_view now_ms() const override;
    std::string json_number(std::string_view column, std::string_view array, std::string_view index,
                            const std::vector<std::string>& fields) const override;

  private:
    // Its holds (try_hold): a descriptor of the file each, closed after the database is.
    std::vector<int> held_;
    std::unique_ptr<SQLite::Database> db_;
};

}  // namespace bg::sql
