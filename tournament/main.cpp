// tournament: many games between bots, played concurrently into an SQLite database, summed up
// with ratings and intervals. This file reads the command line and calls the command's own
// file (commands.hpp): run and resume (run_command.cpp, which play with play.cpp), standings
// and games (games_command.cpp), report (report_command.cpp) and merge (merge_command.cpp).
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "cli/options.hpp"
#include "core/text.hpp"
#include "record/version.hpp"
#include "tournament/cli.hpp"
#include "tournament/commands.hpp"

namespace po = boost::program_options;
using namespace bg::tournament;
using namespace bg::tournament::cli;
using bg::escape_for_terminal;
using bg::version_line;

namespace {

const char* const usage_text =
    R"(Usage: tournament run --db FILE --bot NAME=CMD --bot NAME=CMD... [options]
       tournament resume --db FILE [--concurrency N] [--json] [--replay-contended]
       tournament standings --db FILE [--json] [--uncontended]
       tournament games --db FILE [--json|--csv]
       tournament merge --db OUT SHARD.db...
       tournament report --db FILE --html FILE
       tournament --version
(tournament is build/tournament in a build tree, bananagrams-tournament once installed; its
manual: man bananagrams-tournament, or docs/tournament.md.)

Plays many games of Bananagrams between bots, several at once, and keeps everything in one
SQLite database: the options, the bots, the whole schedule and every game's result. A table is
a set of --players bots (round-robin: every such set; gauntlet: the first bot with every set of
the others); each table plays --deals deals, each deal in every cyclic rotation of its seats,
so that the luck of a deal falls on each bot in each seat. The schedule is a function of the
options and --seed alone. Each player runs in the host's sandbox and a cgroup of its own, every
game weighing the same (see host --help).

  run        start a tournament in a new database and play it
  resume     finish one that was stopped (Ctrl-C, SIGKILL, power loss): games left running are
             played again from the start, games done never
  standings  the standings of a database, finished or not: games, wins, win rate (Wilson 95%),
             mean standing, disqualifications, timeouts, stale peels, think time, CPU time a
             game and peak memory, and a rating on the Elo scale with its 95% interval (a
             Plackett-Luce fit of all standings); a head-to-head table; for two bots the Elo
             difference on game pairs and the SPRT
  games      every game of the schedule: its state, and once done its result
  report     writes the tournament's page (--html FILE): standings with the ratings' intervals
             drawn, wins by seat, head to head, disqualifications, and every game linking to
             its replay page (written beside it, in games/, from the game logs)
  merge      gathers the games of shards (run --shard I/N, each into its own database) into one
             database, made if missing: it refuses shards of another tournament, a game done
             twice with different results, and names the games no shard has done; merging
             again, or in another order, changes nothing

Exit status: 0 done; 1 the database (or the word list, or the log directory) cannot be used, or
shards do not merge; 2 bad options; 3 merged, but games are missing (resume their shards, then
merge again); 5 the player sandbox, the players' cgroups or free cores (--cpus-per-game) cannot
be had here; 128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP, SIGQUIT: the games running go
back to pending; resume plays them).
)";

std::string help_text(const po::options_description& options) {
    std::ostringstream text;
    text << usage_text << "\n" << options << "\n";
    return text.str();
}

// Every option a command may take, grouped as --help shows them.
struct Options {
    po::options_description common{"Common"};
    po::options_description run_only;  // run's own, but --db
    po::options_description play = commands::play_options();
    po::options_description sandbox = bg::options::sandbox();
    po::options_description resume_only{"resume"};
    po::options_description read{"standings and games"};

    Options() {
        common.add_options()("help,h", "show this help and exit")("version",
                                                                  "show the version and exit")(
            "db", po::value<std::string>()->value_name("FILE"), "the tournament's database");
        const po::options_description run = commands::run_options();
        for (const auto& option : run.options())
            if (option->long_name() != "db")
                run_only.add(option);
        sandbox.add(bg::options::shares());
        resume_only.add_options()(
            "replay-contended", po::bool_switch(),
            "before the pending games, schedule a replay of every game that was contended (a "
            "player waited for a CPU longer than the host allows: docs/host.md), with the same "
            "deal and seats; once played, the standings count the replay instead, and keep and "
            "show the first play");
        read.add_options()("uncontended", po::bool_switch(),
                           "standings: leave out the games that were contended")(
            "csv", po::bool_switch(), "games: one CSV row a seat")(
            "html", po::value<std::string>()->value_name("FILE"),
            "report: the page to write (the games' pages go in games/ beside it)");
    }
    // The options `command` takes; po::error for a command there is not.
    po::options_description accepted(const std::string& command) const {
        po::options_description accepted;
        accepted.add(common);
        if (command == "run")
            accepted.add(run_only).add(play).add(sandbox);
        else if (command == "resume")
            accepted.add(play).add(resume_only);
        else if (command == "standings")
            accepted.add_options()("json", po::bool_switch(), "")("uncontended", po::bool_switch(),
                                                                  "");
        else if (command == "games")
            accepted.add_options()("json", po::bool_switch(), "")("csv", po::bool_switch(), "");
        else if (command == "merge")
            accepted.add_options()("shards", po::value<std::vector<std::string>>(), "");
        else if (command == "report")
            accepted.add_options()("html", po::value<std::string>(), "");
        else
            throw po::error(
                fmt::format("unknown command '{}': run, resume, standings, games, merge or report",
                            escape_for_terminal(command)));
        return accepted;
    }
};

// The command's options read; po::error when they do not hold together.
po::variables_map read_options(const Options& options, const std::string& command, int argc,
                               char** argv) {
    const po::options_description accepted = options.accepted(command);
    po::positional_options_description positional;
    if (command == "merge")
        positional.add("shards", -1);
    po::variables_map vm;
    po::store(
        po::command_line_parser(argc - 1, argv + 1).options(accepted).positional(positional).run(),
        vm);
    po::notify(vm);
    if (vm.count("help") || vm.count("version"))
        return vm;
    if ((command == "standings" || command == "games") && !vm.count("db"))
        throw po::error("--db FILE is needed: the tournament's database");
    if (command == "games" && vm["json"].as<bool>() && vm["csv"].as<bool>())
        throw po::error("--json or --csv, not both");
    return vm;
}

// The command, run; what went wrong on the machine or in the database said.
int run_command(const std::string& command, const po::variables_map& vm) {
    try {
        if (command == "run")
            return commands::run(vm);
        if (command == "resume")
            return commands::resume(vm);
        if (command == "standings")
            return commands::standings(vm);
        if (command == "games")
            return commands::games(vm);
        if (command == "merge")
            return commands::merge(vm);
        return commands::report(vm);
    } catch (const std::system_error& e) {
        // The machine's, not the database's: no event loop to be had, a file system call failed.
        bg::log::error("{}", escape_for_terminal(e.what()));
        return exit_database;
    } catch (const std::exception& e) {
        bg::log::error("the database could not be used: {}", e.what());
        return exit_database;
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);
    // As the host: nothing the runner inherited reaches a player.
    if (::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
        for (int fd = 3; fd < 1024; ++fd)
            if (const int flags = ::fcntl(fd, F_GETFD); flags >= 0)
                ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
    bg::log::start("tournament", err);
    const Options options;
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "--version") {
        out.write(version_line("bananagrams-tournament") + "\n");
        return exit_done;
    }
    if (command.empty() || command == "--help" || command == "-h" || command == "help") {
        po::options_description visible;
        po::options_description run_visible("run");
        run_visible.add(options.run_only);
        visible.add(options.common)
            .add(run_visible)
            .add(options.play)
            .add(options.resume_only)
            .add(options.read)
            .add(options.sandbox);
        out.write(help_text(visible));
        if (command.empty()) {
            bg::log::error("no command given (run, resume, standings, games, merge or report)");
            return exit_usage;
        }
        return exit_done;
    }
    po::variables_map vm;
    try {
        vm = read_options(options, command, argc, argv);
    } catch (const po::error& e) {
        return usage_error(e.what());
    }
    if (vm.count("help")) {
        out.write(help_text(options.accepted(command)));
        return exit_done;
    }
    if (vm.count("version")) {
        out.write(version_line("bananagrams-tournament") + "\n");
        return exit_done;
    }
    return run_command(command, vm);
}
