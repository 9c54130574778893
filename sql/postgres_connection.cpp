#include "sql/postgres_connection.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <regex>
#include <utility>

#include <fmt/format.h>

namespace bg::sql {

namespace {

// The types of PostgreSQL's catalog (pg_type.h) a row's values are read as.
constexpr Oid bool_oid = 16, bytea_oid = 17, int8_oid = 20, int2_oid = 21, int4_oid = 23,
              oid_oid = 26, float4_oid = 700, float8_oid = 701, numeric_oid = 1700;

struct ResultFree {
    void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultFree>;

// libpq's message on one line: its lines (a hint indented under its error) joined by spaces.
std::string trimmed(const char* message) {
    std::string s;
    for (const char* c = message ? message : ""; *c; ++c) {
        const bool space = std::isspace(static_cast<unsigned char>(*c));
        if (!space)
            s += *c;
        else if (!s.empty() && s.back() != ' ')
            s += ' ';
    }
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    return s;
}

// bytea as PostgreSQL writes it in text ("hex" output, its default since 9.0): a backslash, an
// x, and two hex digits a byte.
Blob bytes_of(const char* text) {
    const auto digit = [](char c) {
        return static_cast<unsigned char>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    };
    if (text[0] != '\\' || text[1] != 'x')
        throw Error("bytea not in hex output (bytea_output = 'hex')");
    Blob bytes;
    for (const char* c = text + 2; c[0] && c[1]; c += 2)
        bytes.push_back(static_cast<unsigned char>(digit(c[0]) << 4 | digit(c[1])));
    return bytes;
}

Value value_of(const PGresult* r, int row, int column) {
    if (PQgetisnull(r, row, column))
        return nullptr;
    const char* text = PQgetvalue(r, row, column);
    switch (PQftype(r, column)) {
        case bool_oid:
            return std::int64_t{text[0] == 't' ? 1 : 0};
        case int8_oid:
        case int2_oid:
        case int4_oid:
        case oid_oid:
            return std::int64_t{std::strtoll(text, nullptr, 10)};
        // Written as the shortest text that reads back as the same double (extra_float_digits 1,
        // PostgreSQL 12's default), read by strtod, which rounds correctly: the double stored.
        case float4_oid:
        case float8_oid:
        case numeric_oid:
            return std::strtod(text, nullptr);
        case bytea_oid:
            return bytes_of(text);
        default:
            return std::string(text, static_cast<std::size_t>(PQgetlength(r, row, column)));
    }
}

void ignore_notice(void*, const char*) {}

}  // namespace

bool is_postgresql(std::string_view where) {
    if (where.rfind("postgresql://", 0) == 0 || where.rfind("postgres://", 0) == 0)
        return true;
    std::size_t i = 0;
    while (i < where.size() &&
           (std::islower(static_cast<unsigned char>(where[i])) || where[i] == '_'))
        ++i;
    while (i < where.size() && where[i] == ' ')
        ++i;
    return i > 0 && i < where.size() && where[i] == '=';
}

std::string shown(std::string_view where) {
    // A keyword's (password=..., quoted or not) or a URI's query's (?password=...&...).
    static const std::regex keyword(R"((password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]*))");
    std::string out = std::regex_replace(std::string(where), keyword, "$1***");
    // postgresql://user:password@host/...: between the first ':' after the scheme and the '@'.
    const auto scheme = out.find("://");
    if (scheme == std::string::npos)
        return out;
    const auto at = out.find('@', scheme + 3);
    const auto colon = out.find(':', scheme + 3);
    if (at == std::string::npos || colon == std::string::npos || colon > at)
        return out;
    return fmt::format("{}:***{}", out.substr(0, colon), out.substr(at));
}

std::variant<std::unique_ptr<PostgresConnection>, std::string> PostgresConnection::connect(
    const std::string& where) {
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(where.c_str(), &error);
    if (!options) {
        std::string why = trimmed(error);
        PQfreemem(error);
        return fmt::format("{} is not a PostgreSQL connection string: {}", shown(where), why);
    }
    bool password = false;
    for (PQconninfoOption* o = options; o->keyword; ++o)
        if (std::string_view(o->keyword) == "password" && o->val && *o->val)
            password = true;
    PQconninfoFree(options);
    if (password)
        return fmt::format(
            "{} holds a password: a command line is read by every user of the machine. Put it "
            "in a password file (~/.pgpass, or the file PGPASSFILE names) or PGPASSWORD",
            shown(where));
    // The caller's string last, so that what it says overrides these.
    const char* keywords[] = {"connect_timeout", "fallback_application_name", "dbname", nullptr};
    const char* values[] = {"10", "bananagrams-arena", where.c_str(), nullptr};
    pg_conn* conn = PQconnectdbParams(keywords, values, 1);
    if (PQstatus(conn) != CONNECTION_OK) {
        std::string why = trimmed(PQerrorMessage(conn));
        PQfinish(conn);
        return fmt::format("cannot connect to PostgreSQL at {}: {}", shown(where), why);
    }
    PQsetNoticeProcessor(conn, ignore_notice, nullptr);
    return std::unique_ptr<PostgresConnection>(new PostgresConnection(conn));
}

PostgresConnection::~PostgresConnection() {
    PQfinish(conn_);
}

namespace {

// A statement's result, or its failure thrown with its SQLSTATE (08006, a lost connection,
// where the server gave none).
Result checked(pg_conn* conn, Result r) {
    const auto status = PQresultStatus(r.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        const char* state = PQresultErrorField(r.get(), PG_DIAG_SQLSTATE);
        throw Error(trimmed(r ? PQresultErrorMessage(r.get()) : PQerrorMessage(conn)),
                    state ? state : (PQstatus(conn) == CONNECTION_OK ? "" : "08006"));
    }
    return r;
}

Result run(pg_conn* conn, std::string_view statement, const std::vector<Value>& parameters) {
    // Text, each but bytes, which go as they are (binary format, with their length).
    std::vector<std::string> texts;
    texts.reserve(parameters.size());
    std::vector<const char*> values;
    std::vector<int> lengths, formats;
    for (const Value& v : parameters) {
        const auto* b = std::get_if<Blob>(&v);
        lengths.push_back(b ? static_cast<int>(b->size()) : 0);
        formats.push_back(b ? 1 : 0);
        if (const auto* i = std::get_if<std::int64_t>(&v))
            texts.push_back(std::to_string(*i));
        else if (const auto* d = std::get_if<double>(&v))
            texts.push_back(fmt::format("{}", *d));  // the shortest text that reads back as *d
        else if (const auto* s = std::get_if<std::string>(&v))
            texts.push_back(*s);
        else
            texts.emplace_back();
    }
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        if (const auto* b = std::get_if<Blob>(&parameters[i]))
            values.push_back(reinterpret_cast<const char*>(b->data()));
        else
            values.push_back(
                std::holds_alternative<std::nullptr_t>(parameters[i]) ? nullptr : texts[i].c_str());
    }
    const std::string numbered = numbered_parameters(statement);
    Result r(PQexecParams(conn, numbered.c_str(), static_cast<int>(values.size()), nullptr,
                          values.data(), lengths.data(), formats.data(), 0));
    return checked(conn, std::move(r));
}

}  // namespace

pg_conn* PostgresConnection::ready() {
    if (!lost_.empty())
        throw Error(lost_, "55P03");
    if (PQstatus(conn_) == CONNECTION_OK)
        return conn_;
    PQreset(conn_);
    ++session_;  // its socket closed, another (or none) in its place
    if (PQstatus(conn_) != CONNECTION_OK)
        throw Error(
            fmt::format("the connection to PostgreSQL is lost: {}", trimmed(PQerrorMessage(conn_))),
            "08006");
    // A new session: the locks the old one held went with it. One another took meanwhile is
    // lost for good: no statement is sent on this connection again.
    for (const std::int64_t key : held_)
        if (!take(key)) {
            lost_ = "the database's lock was taken by another while the connection was lost";
            throw Error(lost_, "55P03");
        }
    // What was notified while it was away is lost with the old session.
    missed_ = true;
    for (const std::string& channel : channels_)
        run(conn_, "LISTEN " + channel, {});
    return conn_;
}

bool PostgresConnection::take(std::int64_t key) {
    const Result r = run(conn_, "SELECT pg_try_advisory_lock(?)", {key});
    return PQntuples(r.get()) == 1 && PQgetvalue(r.get(), 0, 0)[0] == 't';
}

bool PostgresConnection::try_hold(std::int64_t key) {
    ready();
    if (!take(key))
        return false;
    held_.push_back(key);
    return true;
}

void PostgresConnection::let_go(std::int64_t key) {
    if (std::erase(held_, key) > 0 && lost_.empty() && PQstatus(conn_) == CONNECTION_OK)
        run(conn_, "SELECT pg_advisory_unlock(?)", {key});
}

bool PostgresConnection::holding() const {
    return lost_.empty();
}

namespace {

void check_channel(std::string_view channel) {
    if (channel.empty() || channel.size() > 63 ||
        !std::all_of(channel.begin(), channel.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; }))
        throw Error(fmt::format("'{}' is not a channel's name", channel), "42602");
}

}  // namespace

void PostgresConnection::listen(std::string_view channel) {
    check_channel(channel);
    if (std::find(channels_.begin(), channels_.end(), channel) != channels_.end())
        return;
    // Listened to again on the next session if this LISTEN fails with the connection.
    channels_.emplace_back(channel);
    run(ready(), fmt::format("LISTEN {}", channel), {});
}

void PostgresConnection::unlisten(std::string_view channel) {
    check_channel(channel);
    const auto found = std::find(channels_.begin(), channels_.end(), channel);
    if (found == channels_.end())
        return;
    channels_.erase(found);
    run(ready(), fmt::format("UNLISTEN {}", channel), {});
}

void PostgresConnection::notify(std::string_view channel) {
    check_channel(channel);
    run(ready(), "SELECT pg_notify(?, '')", {std::string(channel)});
}

bool PostgresConnection::notified() {
    bool any = std::exchange(missed_, false);
    // A connection that cannot read (lost) may have missed some: the caller looks for itself.
    if (PQconsumeInput(conn_) == 0 || PQstatus(conn_) != CONNECTION_OK)
        return true;
    while (PGnotify* n = PQnotifies(conn_)) {
        PQfreemem(n);
        any = true;
    }
    return any;
}

int PostgresConnection::wake_fd() const {
    // A lost connection's socket (a failed reset keeps one open) is readable for ever: nothing
    // to watch until a statement makes the connection again.
    return PQstatus(conn_) == CONNECTION_OK ? PQsocket(conn_) : -1;
}

Rows PostgresConnection::query(std::string_view statement, const std::vector<Value>& parameters) {
    const Result r = run(ready(), statement, parameters);
    Rows rows;
    const int n = PQntuples(r.get()), columns = PQnfields(r.get());
    rows.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        std::vector<Value> values;
        values.reserve(static_cast<std::size_t>(columns));
        for (int c = 0; c < columns; ++c)
            values.push_back(value_of(r.get(), i, c));
        rows.emplace_back(std::move(values));
    }
    return rows;
}

std::int64_t PostgresConnection::execute(std::string_view statement,
                                         const std::vector<Value>& parameters) {
    const Result r = run(ready(), statement, parameters);
    const char* changed = PQcmdTuples(r.get());
    return changed && *changed ? std::strtoll(changed, nullptr, 10) : 0;
}

void PostgresConnection::script(std::string_view statements) {
    pg_conn* conn = ready();
    checked(conn, Result(PQexec(conn, std::string(statements).c_str())));
}

std::vector<std::string> PostgresConnection::private_paths() const {
    // A socket's folder reaches the server without the network, as the user the bot runs as
    // (peer authentication): Debian's, and the one connected to.
    std::vector<std::string> candidates = {"/run/postgresql", "/var/run/postgresql"};
    if (const char* host = PQhost(conn_); host && host[0] == '/')
        candidates.emplace_back(host);
    const char* home = std::getenv("HOME");
    const auto file = [&](const char* variable, const char* in_home) {
        if (const char* set = std::getenv(variable); set && *set)
            candidates.emplace_back(set);
        else if (home && *home)
            candidates.push_back(std::string(home) + "/" + in_home);
    };
    file("PGPASSFILE", ".pgpass");
    file("PGSERVICEFILE", ".pg_service.conf");
    std::vector<std::string> paths;
    for (const std::string& c : candidates)
        if (std::filesystem::exists(c) && std::find(paths.begin(), paths.end(), c) == paths.end())
            paths.push_back(c);
    return paths;
}

std::string_view PostgresConnection::now_ms() const {
    return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";
}

std::string_view PostgresConnection::now() const {
    // clock_timestamp(): the time of the statement, not of its transaction's start (now()).
    return "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";
}

std::string PostgresConnection::json_number(std::string_view column, std::string_view array,
                                            std::string_view index,
                                            const std::vector<std::string>& fields) const {
    std::string path = fmt::format("({})::jsonb -> '{}' -> (({})::integer)", column, array, index);
    for (std::size_t i = 0; i < fields.size(); ++i)
        path += fmt::format(" {} '{}'", i + 1 == fields.size() ? "->>" : "->", fields[i]);
    return fmt::format("({})::double precision", path);
}

}  // namespace bg::sql
