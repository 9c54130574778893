// sql::Connection to a PostgreSQL server, over libpq (Debian's libpq5).
//
// Where it connects is a libpq connection string: a URI (postgresql://host:port/dbname?...) or
// keywords (host=... dbname=..., service=NAME). Its password is never part of it, since a
// command line is read by every user of the machine: libpq takes it from a password file
// (~/.pgpass, PGPASSFILE) or its environment (PGPASSWORD), as it takes any keyword not given.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "sql/connection.hpp"

struct pg_conn;

namespace bg::sql {

// Whether `where` names a PostgreSQL database rather than a file: a postgresql:// or
// postgres:// URI, or libpq's keywords (it begins with `keyword=`).
bool is_postgresql(std::string_view where);

// `where` as it may be shown: a URI's password, if any, hidden.
std::string shown(std::string_view where);

class PostgresConnection final : public Connection {
  public:
    // Connected (within 10 s unless `where` sets connect_timeout), or why not; refused when
    // `where` holds a password.
    static std::variant<std::unique_ptr<PostgresConnection>, std::string> connect(
        const std::string& where);
    ~PostgresConnection() override;
    PostgresConnection(const PostgresConnection&) = delete;
    PostgresConnection& operator=(const PostgresConnection&) = delete;

    Backend backend() const override { return Backend::postgresql; }
    Rows query(std::string_view statement, const std::vector<Value>& parameters = {}) override;
    std::int64_t execute(std::string_view statement,
                         const std::vector<Value>& parameters = {}) override;
    void script(std::string_view statements) override;
    std::vector<std::string> private_paths() const override;
    bool try_hold(std::int64_t key) override;
    void let_go(std::int64_t key) override;
    bool holding() const override;
    void listen(std::string_view channel) override;
    void unlisten(std::string_view channel) override;
    void notify(std::string_view channel) override;
    bool notified() override;
    int wake_fd() const override;
    std::uint64_t session() const override { return session_; }
    std::string_view now() const override;
    std::string_view now_ms() const override;
    std::string json_number(std::string_view column, std::string_view array, std::string_view index,
                            const std::vector<std::string>& fields) const override;

  private:
    explicit PostgresConnection(pg_conn* conn) : conn_(conn) {}
    // The connection, made again if it was lost between statements (the server restarted); a
    // statement that was under way when it was lost is never sent again.
    pg_conn* ready();
    pg_conn* conn_;
    bool take(std::int64_t key);         // pg_try_advisory_lock
    std::vector<std::int64_t> held_;     // its advisory locks, taken again on a new connection
    std::vector<std::string> channels_;  // what it listens to, again on a new connection
    bool missed_ = false;                // a session was made again since notified() was asked
    std::uint64_t session_ = 0;          // sessions made again
    std::string lost_;                   // why it may not be used again (a lock lost), or ""
};

}  // namespace bg::sql
