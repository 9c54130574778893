#include "sql/connection.hpp"

#include <limits>

#include <fmt/format.h>

namespace bg::sql {

namespace {

const char* type_of(const Value& v) {
    switch (v.index()) {
        case 0:
            return "NULL";
        case 1:
            return "an integer";
        case 2:
            return "a double";
        case 3:
            return "text";
        default:
            return "bytes";
    }
}

[[noreturn]] void wrong(const Value& v, std::size_t column, const char* wanted) {
    throw Error(fmt::format("column {} is {}, not {}", column, type_of(v), wanted));
}

}  // namespace

bool Row::null(std::size_t column) const {
    return std::holds_alternative<std::nullptr_t>(at(column));
}

std::int64_t Row::integer(std::size_t column) const {
    const Value& v = at(column);
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return *i;
    wrong(v, column, "an integer");
}

int Row::number(std::size_t column) const {
    const std::int64_t i = integer(column);
    if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
        throw Error(fmt::format("column {} holds {}, past an int", column, i));
    return static_cast<int>(i);
}

double Row::real(std::size_t column) const {
    const Value& v = at(column);
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return static_cast<double>(*i);
    wrong(v, column, "a number");
}

const std::string& Row::text(std::size_t column) const {
    const Value& v = at(column);
    if (const auto* s = std::get_if<std::string>(&v))
        return *s;
    wrong(v, column, "text");
}

const Blob& Row::blob(std::size_t column) const {
    const Value& v = at(column);
    if (const auto* b = std::get_if<Blob>(&v))
        return *b;
    wrong(v, column, "bytes");
}

std::string Row::text_or(std::size_t column, std::string fallback) const {
    return null(column) ? fallback : text(column);
}

Transaction::Transaction(Connection& db, Kind kind) : db_(db) {
    db_.execute(kind == Kind::snapshot && db.backend() == Backend::postgresql
                    ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
                    : "BEGIN");
}

Transaction::~Transaction() {
    if (!open_)
        return;
    try {
        db_.execute("ROLLBACK");
    } catch (...) {
        // The connection is gone, and its transaction with it.
    }
}

void Transaction::commit() {
    db_.execute("COMMIT");
    open_ = false;
}

std::string numbered_parameters(std::string_view statement) {
    std::string out;
    out.reserve(statement.size() + 16);
    int n = 0;
    char quote = 0;  // inside '...' or "...": a `?` there is text, not a parameter
    for (const char c : statement) {
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '?') {
            out += fmt::format("${}", ++n);
            continue;
        }
        out += c;
    }
    return out;
}

}  // namespace bg::sql
