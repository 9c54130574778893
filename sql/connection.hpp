// One way to speak SQL to the two databases the arena keeps its store in: SQLite (a file, no
// server) and PostgreSQL (a server that many machines reach). The store writes its statements
// once, with `?` for each parameter, in the SQL both understand; what differs (the time now, a
// JSON field) each connection says in its own dialect.
//
// A statement's rows come back whole, each value typed as the database holds it (an integer, a
// double, text, bytes or NULL), so that a double read from either is the double written, bit for
// bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace bg::sql {

// Bytes, not text (a compressed log): SQLite's BLOB, PostgreSQL's bytea.
using Blob = std::vector<unsigned char>;
using Value = std::variant<std::nullptr_t, std::int64_t, double, std::string, Blob>;

// A statement refused or failed; `state` is its SQLSTATE where the database gave one
// (PostgreSQL's; SQLite's errors have none).
class Error : public std::runtime_error {
  public:
    Error(const std::string& what, std::string state = "")
        : std::runtime_error(what), state(std::move(state)) {}
    std::string state;
};

// One row of a result, its values in the statement's column order.
class Row {
  public:
    explicit Row(std::vector<Value> values) : values_(std::move(values)) {}
    std::size_t size() const { return values_.size(); }
    const Value& at(std::size_t column) const { return values_.at(column); }
    bool null(std::size_t column) const;
    std::int64_t integer(std::size_t column) const;     // an integer's; throws for anything else
    int number(std::size_t column) const;               // integer(), as an int
    double real(std::size_t column) const;              // a double's, or an integer's
    const std::string& text(std::size_t column) const;  // text's; throws otherwise
    const Blob& blob(std::size_t column) const;         // bytes'; throws otherwise
    std::string text_or(std::size_t column, std::string fallback = "") const;  // NULL: fallback

  private:
    std::vector<Value> values_;
};
using Rows = std::vector<Row>;

enum class Backend { sqlite, postgresql };

class Connection {
  public:
    virtual ~Connection() = default;
    virtual Backend backend() const = 0;
    // The rows a statement gives (none for most writes; a write's `RETURNING` gives them).
    virtual Rows query(std::string_view statement, const std::vector<Value>& parameters = {}) = 0;
    // A write, and how many rows it changed.
    virtual std::int64_t execute(std::string_view statement,
                                 const std::vector<Value>& parameters = {}) = 0;
    // Several statements without parameters (a schema).
    virtual void script(std::string_view statements) = 0;
    // The files and folders of this machine through which the database is read without this
    // connection: SQLite's file and its journals; PostgreSQL's sockets' folders, password and
    // service files. Those that exist.
    virtual std::vector<std::string> private_paths() const = 0;
    // Takes the database's lock `key` for as long as this connection lives, where no other
    // connection, of this process or another, holds it; whether it did. (SQLite: an flock of
    // the file, apart from SQLite's own locks; PostgreSQL: a session's advisory lock, taken
    // again when a lost connection is made again, or every statement fails.)
    virtual bool try_hold(std::int64_t key) = 0;
    // Its holds let go (SQLite: the file's; PostgreSQL: `key`'s).
    virtual void let_go(std::int64_t key) = 0;
    // Whether it still holds what it took (false: another took a lock while the connection was
    // lost, and it writes nothing more).
    virtual bool holding() const = 0;

    // Notifications, for a process that would otherwise look again and again for what another
    // wrote (PostgreSQL's LISTEN and NOTIFY; SQLite has none: listen() and notify() do nothing,
    // and a caller looks on its own clock as before). `channel`: lowercase letters and '_'.
    //
    // From now on (and on every new session, after a lost connection), notifications of
    // `channel` come to this connection.
    virtual void listen(std::string_view channel) = 0;
    // No longer (nor on a new session).
    virtual void unlisten(std::string_view channel) = 0;
    // Every listener of `channel` is told, when the transaction this is in commits (at once
    // outside one).
    virtual void notify(std::string_view channel) = 0;
    // Whether a notification came since it was last asked, or some may have been missed (its
    // session was lost, or made again): reads what waits, without waiting. Never throws.
    virtual bool notified() = 0;
    // What becomes readable as a notification comes (poll it, then ask notified()); -1 when
    // nothing does (SQLite; a lost connection, until a statement makes it again). It changes
    // as a lost connection is made again (session() with it: the same number may be another
    // socket; and the connection closes its socket as it finds it lost: watch a dup()). One
    // read with a statement's result wakes no poll: ask notified() after statements too.
    virtual int wake_fd() const = 0;
    virtual std::uint64_t session() const = 0;

    // The dialect. The time now as the store writes times, UTC text to the millisecond
    // (2026-11-28T22:03:31.123Z): the same text from both, so that times compare as text.
    virtual std::string_view now() const = 0;
    // The time now as a number: milliseconds since 1970 (UTC), for leases and deadlines that
    // every machine reads off the one clock, the database's.
    virtual std::string_view now_ms() const = 0;
    // The number at `array`[`index`].`fields`... of the JSON text in `column`, or NULL: `index`
    // an SQL integer expression ("players", "e.seat", {"remote", "rtt_ms"}).
    virtual std::string json_number(std::string_view column, std::string_view array,
                                    std::string_view index,
                                    const std::vector<std::string>& fields) const = 0;
};

// A transaction: begun as it is made, rolled back unless committed (an exception on the way out
// undoes every write in it). A snapshot reads one state of the database throughout, whatever
// others commit meanwhile (SQLite's WAL gives every read transaction one; PostgreSQL's
// repeatable read), and writes nothing.
class Transaction {
  public:
    enum class Kind { write, snapshot };
    explicit Transaction(Connection& db, Kind kind = Kind::write);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

  private:
    Connection& db_;
    bool open_ = true;
};

// `statement` with each `?` outside quotes numbered as PostgreSQL writes its parameters ($1,
// $2, ...).
std::string numbered_parameters(std::string_view statement);

}  // namespace bg::sql
