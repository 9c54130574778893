// What a program says of itself on stderr, one helper for every program: a line a message,
// "PROGRAM: text" ("arena: match 12 rated: ..."), each with a level. Messages below the level
// BANANAGRAMS_LOG_LEVEL names (debug, info, warning or error; info when it is unset) are not
// said. Under systemd, where stderr is the journal's stream (JOURNAL_STREAM names it), each line
// carries its level as the journal reads it (<3> to <7>), so that `journalctl -p warning` finds
// the warnings. What a program prints as its product (a game's live lines, a result) is not a
// message: it goes to its Console as it is.
#pragma once

#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "cli/console.hpp"

namespace bg::log {

enum class Level { debug, info, warning, error };

// Once, as the program starts: its name, the console its messages go to (its stderr), and the
// level from the environment. Before it, messages go to stderr under the name "bananagrams".
void start(std::string_view program, Console& sink);
// The level named, or none for a name that is not one.
std::optional<Level> level_named(std::string_view name);
// Whether a message of `level` is said.
bool said(Level level);
// `text` (one line or several, without the last newline) at `level`, if that is said.
void say(Level level, std::string_view text);

template <class... Args>
void error(fmt::format_string<Args...> format, Args&&... args) {
    if (said(Level::error))
        say(Level::error, fmt::format(format, std::forward<Args>(args)...));
}
template <class... Args>
void warning(fmt::format_string<Args...> format, Args&&... args) {
    if (said(Level::warning))
        say(Level::warning, fmt::format(format, std::forward<Args>(args)...));
}
template <class... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
    if (said(Level::info))
        say(Level::info, fmt::format(format, std::forward<Args>(args)...));
}
template <class... Args>
void debug(fmt::format_string<Args...> format, Args&&... args) {
    if (said(Level::debug))
        say(Level::debug, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace bg::log
