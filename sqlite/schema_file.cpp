#include "sqlite/schema_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::sqlite {

namespace {

void configure(SQLite::Database& db) {
    db.exec("PRAGMA foreign_keys = ON");
    // Readers wait for a moment rather than fail while another process writes.
    db.exec("PRAGMA busy_timeout = 10000");
}

}  // namespace

Opened create(const std::string& path, const Kind& kind, mode_t mode,
              const std::function<void(SQLite::Database&)>& fill) {
    const std::string shown = escape_for_terminal(path);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
        if (errno == EEXIST && !kind.exists_hint.empty())
            return fmt::format("{} already exists: {}", shown, kind.exists_hint);
        return fmt::format("cannot create the {} {}: {}", kind.name, shown, std::strerror(errno));
    }
    ::close(fd);
    try {
        auto db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE);
        // First the wait for a reader that has the new file open (a script watching for it to
        // appear): switching to WAL takes the file for a moment.
        configure(*db);
        db->exec("PRAGMA journal_mode = WAL");
        db->exec("PRAGMA synchronous = FULL");
        SQLite::Transaction transaction(*db);
        db->exec(fmt::format("PRAGMA application_id = {}", kind.application_id));
        db->exec(fmt::format("PRAGMA user_version = {}", kind.version));
        db->exec(kind.schema);
        if (fill)
            fill(*db);
        transaction.commit();
        return db;
    } catch (const std::exception& e) {
        std::remove(path.c_str());
        return fmt::format("cannot create the {} {}: {}", kind.name, shown, e.what());
    }
}

Opened open(const std::string& path, const Kind& kind, Access access, Schema* schema) {
    const std::string shown = escape_for_terminal(path);
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0)
        return fmt::format("cannot open the {} {}: {}{}", kind.name, shown, std::strerror(errno),
                           errno == ENOENT ? kind.how_to_make : "");
    if (!S_ISREG(status.st_mode))
        return fmt::format("{} is not {}: not a file", shown, kind.a_kind);
    try {
        // A reader opens the file for writing too where it may, only to leave no WAL files
        // behind when it closes (a read-only connection cannot remove them), and writes nothing.
        std::unique_ptr<SQLite::Database> db;
        try {
            db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE);
        } catch (const SQLite::Exception&) {
            if (access == Access::write)
                throw;
            db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READONLY);
        }
        if (access == Access::read)
            db->exec("PRAGMA query_only = ON");
        configure(*db);
        const int id = db->execAndGet("PRAGMA application_id").getInt();
        const int version = db->execAndGet("PRAGMA user_version").getInt();
        if (id != kind.application_id)
            return fmt::format("{} is an SQLite database, but not {}", shown, kind.owners);
        if (version < kind.oldest_version || version > kind.version)
            return fmt::format(
                "{} holds {} of schema version {}; this program reads versions {} "
                "to {}",
                shown, kind.holds, version, kind.oldest_version, kind.version);
        if (access == Access::write && version < kind.version) {
            SQLite::Transaction transaction(*db);
            kind.upgrade(*db, version);
            db->exec(fmt::format("PRAGMA user_version = {}", kind.version));
            transaction.commit();
        }
        if (schema)
            schema->version = access == Access::write ? kind.version : version;
        return db;
    } catch (const SQLite::Exception& e) {
        return fmt::format("{} is not {}: {}", shown, kind.a_kind, e.what());
    }
}

}  // namespace bg::sqlite
