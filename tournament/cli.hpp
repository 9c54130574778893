// What the tournament's commands share: their exit statuses, their output (stdout for what was
// asked, stderr for what happened), and how they open a database.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <variant>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "cli/console.hpp"
#include "cli/log.hpp"
#include "core/text.hpp"
#include "tournament/database.hpp"

namespace bg::tournament::cli {

namespace po = boost::program_options;

constexpr int exit_done = 0;
constexpr int exit_database = 1;  // an unusable database, word list or log directory
constexpr int exit_usage = 2;
constexpr int exit_incomplete = 3;  // merged, but games are missing
constexpr int exit_no_sandbox = 5;  // as the host's

// The standings (stdout), and the status line (stderr, where its messages go too:
// cli/log.hpp).
extern bg::Console out;
extern bg::Console err;

// Says what was wrong with the command line; the exit status for it.
int usage_error(const std::string& what);

// The value made, or nullptr once what went wrong has been said.
template <class T>
T* made_or_said(std::variant<T, std::string>& made) {
    if (auto* error = std::get_if<std::string>(&made)) {
        bg::log::error("{}", bg::escape_for_terminal(*error));
        return nullptr;
    }
    return &std::get<T>(made);
}

// The database of --db.
std::variant<std::unique_ptr<Database>, std::string> open_database(const po::variables_map& vm,
                                                                   Database::Access access);

}  // namespace bg::tournament::cli
