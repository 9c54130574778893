#include "tournament/cli.hpp"

namespace bg::tournament::cli {

bg::Console out(stdout);
bg::Console err(stderr);

int usage_error(const std::string& what) {
    log::error("{}\nTry 'tournament --help'.", bg::escape_for_terminal(what));
    return exit_usage;
}

std::variant<std::unique_ptr<Database>, std::string> open_database(const po::variables_map& vm,
                                                                   Database::Access access) {
    return Database::open(vm["db"].as<std::string>(), access);
}

}  // namespace bg::tournament::cli
