// The SQLite files the programs keep, a tournament's and an arena's, opened in one way: made
// exclusively (an existing file is never written over) with their schema in one transaction,
// marked as theirs (PRAGMA application_id) and versioned (PRAGMA user_version); opened again
// only when they are of a version this program reads, and brought to its version in one
// transaction when opened for writing. WAL, foreign keys, and a wait for a busy writer.
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>
#include <variant>

namespace SQLite {
class Database;
}

namespace bg::sqlite {

// What kind of file it is, and how it is made and brought up to date.
struct Kind {
    // As messages name it: "the {name}" ("database", "arena database"), "is not {a_kind}" ("a
    // tournament database"), "is an SQLite database, but not {owners}" ("a tournament's"), "holds
    // {holds} of schema version N" ("a tournament").
    std::string name;
    std::string a_kind;
    std::string owners;
    std::string holds;
    // Added to "cannot open the ...: No such file or directory": how to make one.
    std::string how_to_make;
    // Added to "... already exists": what to do with it instead.
    std::string exists_hint;
    int application_id = 0;
    int oldest_version = 1;  // the oldest it reads
    int version = 1;         // this program's
    // The schema of `version`, run as the file is made.
    std::string schema;
    // Brings a file of schema `from` (oldest_version to version - 1) to `version`; the helper runs
    // it in one transaction, and sets user_version after it.
    std::function<void(SQLite::Database&, int from)> upgrade;
};

using Opened = std::variant<std::unique_ptr<SQLite::Database>, std::string>;

// A new file at `path` with `mode`: the schema and `fill`'s rows, all in one transaction (written
// with synchronous FULL), or why not; a file made and then not filled is removed.
Opened create(const std::string& path, const Kind& kind, mode_t mode,
              const std::function<void(SQLite::Database&)>& fill);

enum class Access { read, write };
struct Schema {
    int version = 0;  // as the file holds it: below kind.version only when read
};
// An existing file of `kind`: opened for writing (upgraded to kind.version first), or for reading
// (as it is: a file this process may not write is opened read-only, and nothing is written
// either way). The version it holds is put in `schema`.
Opened open(const std::string& path, const Kind& kind, Access access, Schema* schema = nullptr);

}  // namespace bg::sqlite
