#include "cli/log.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace bg::log {

namespace {

struct Sink {
    std::string program = "bananagrams";
    Console* console = nullptr;
    Level level = Level::info;
    bool journal = false;  // stderr is the journal's stream
};

Sink& sink() {
    static Sink s;
    return s;
}

// Whether stderr is the stream systemd's journal reads: JOURNAL_STREAM is "DEVICE:INODE" of it.
bool stderr_is_journal() {
    const char* stream = std::getenv("JOURNAL_STREAM");
    struct stat status {};
    if (!stream || ::fstat(2, &status) != 0)
        return false;
    unsigned long long device = 0, inode = 0;
    if (std::sscanf(stream, "%llu:%llu", &device, &inode) != 2)
        return false;
    return status.st_dev == device && status.st_ino == inode;
}

// The journal's priority of a level (syslog's: 3 error, 4 warning, 6 info, 7 debug).
int priority(Level level) {
    switch (level) {
        case Level::error:
            return 3;
        case Level::warning:
            return 4;
        case Level::info:
            return 6;
        case Level::debug:
            break;
    }
    return 7;
}

}  // namespace

std::optional<Level> level_named(std::string_view name) {
    if (name == "debug")
        return Level::debug;
    if (name == "info")
        return Level::info;
    if (name == "warning")
        return Level::warning;
    if (name == "error")
        return Level::error;
    return std::nullopt;
}

void start(std::string_view program, Console& console) {
    Sink& s = sink();
    s.program = program;
    s.console = &console;
    s.journal = stderr_is_journal();
    s.level = Level::info;
    const char* named = std::getenv("BANANAGRAMS_LOG_LEVEL");
    if (!named || !*named)
        return;
    if (const auto level = level_named(named)) {
        s.level = *level;
        return;
    }
    say(Level::warning, fmt::format("BANANAGRAMS_LOG_LEVEL is debug, info, warning or error, not "
                                    "'{}': info it is",
                                    std::string(named).substr(0, 20)));
}

bool said(Level level) {
    return level >= sink().level;
}

void say(Level level, std::string_view text) {
    if (!said(level))
        return;
    const Sink& s = sink();
    // "PROGRAM: " on its first line; the journal's priority on each, as it takes each line for a
    // message of its own.
    std::string lines = s.program + ": ";
    while (true) {
        const auto end = text.find('\n');
        if (s.journal)
            lines.insert(lines.rfind('\n') + 1, fmt::format("<{}>", priority(level)));
        lines += text.substr(0, end);
        lines += '\n';
        if (end == std::string_view::npos || end + 1 == text.size())
            break;
        text.remove_prefix(end + 1);
    }
    if (s.console)
        s.console->write(lines);
    else
        std::fputs(lines.c_str(), stderr);
}

}  // namespace bg::log
