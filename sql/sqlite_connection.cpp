#include "sql/sqlite_connection.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

namespace bg::sql {

namespace {

void bind(SQLite::Statement& statement, const std::vector<Value>& parameters) {
    int at = 1;
    for (const Value& v : parameters) {
        if (const auto* i = std::get_if<std::int64_t>(&v))
            statement.bind(at, *i);
        else if (const auto* d = std::get_if<double>(&v))
            statement.bind(at, *d);
        else if (const auto* s = std::get_if<std::string>(&v))
            statement.bind(at, *s);
        else if (const auto* b = std::get_if<Blob>(&v))
            statement.bind(at, b->data(), static_cast<int>(b->size()));
        else
            statement.bind(at);
        ++at;
    }
}

Value value_of(const SQLite::Column& column) {
    if (column.isInteger())
        return column.getInt64();
    if (column.isFloat())
        return column.getDouble();
    if (column.isNull())
        return nullptr;
    if (column.isBlob()) {
        const auto* bytes = static_cast<const unsigned char*>(column.getBlob());
        return Blob(bytes, bytes + column.getBytes());
    }
    return column.getString();
}

template <class F>
auto translated(F&& f) {
    try {
        return f();
    } catch (const SQLite::Exception& e) {
        throw Error(e.what());
    }
}

}  // namespace

SqliteConnection::SqliteConnection(std::unique_ptr<SQLite::Database> db) : db_(std::move(db)) {}
SqliteConnection::~SqliteConnection() {
    // SQLite's own locks (fcntl's) go when any descriptor of the file closes: the database is
    // closed before the holds are.
    db_.reset();
    for (const int fd : held_)
        ::close(fd);
}

bool SqliteConnection::try_hold(std::int64_t key) {
    // One lock a file (flock's, which does not meet SQLite's fcntl locks on a local disk): the
    // key is the caller's name for it.
    (void)key;
    const int fd = ::open(db_->getFilename().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return false;
    }
    held_.push_back(fd);
    return true;
}

void SqliteConnection::let_go(std::int64_t) {
    for (const int fd : held_)
        ::close(fd);
    held_.clear();
}

bool SqliteConnection::holding() const {
    return true;
}

Rows SqliteConnection::query(std::string_view statement, const std::vector<Value>& parameters) {
    return translated([&] {
        SQLite::Statement q(*db_, std::string(statement));
        bind(q, parameters);
        Rows rows;
        const int columns = q.getColumnCount();
        while (q.executeStep()) {
            std::vector<Value> values;
            values.reserve(static_cast<std::size_t>(columns));
            for (int c = 0; c < columns; ++c)
                values.push_back(value_of(q.getColumn(c)));
            rows.emplace_back(std::move(values));
        }
        return rows;
    });
}

std::int64_t SqliteConnection::execute(std::string_view statement,
                                       const std::vector<Value>& parameters) {
    return translated([&] {
        SQLite::Statement q(*db_, std::string(statement));
        bind(q, parameters);
        return static_cast<std::int64_t>(q.exec());
    });
}

void SqliteConnection::script(std::string_view statements) {
    translated([&] { return db_->exec(std::string(statements)); });
}

std::vector<std::string> SqliteConnection::private_paths() const {
    std::vector<std::string> paths;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        if (const std::string path = db_->getFilename() + suffix; std::filesystem::exists(path))
            paths.push_back(path);
    return paths;
}

std::string_view SqliteConnection::now_ms() const {
    return "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";
}

std::string_view SqliteConnection::now() const {
    return "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
}

std::string SqliteConnection::json_number(std::string_view column, std::string_view array,
                                          std::string_view index,
                                          const std::vector<std::string>& fields) const {
    std::string path;
    for (const std::string& f : fields)
        path += "." + f;
    return fmt::format("json_extract({}, '$.{}[' || ({}) || ']{}')", column, array, index, path);
}

}  // namespace bg::sql
