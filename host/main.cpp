// host: the Bananagrams referee. Spawns the players, deals, judges, and says who won. This file
// reads the command line; play_game.cpp plays a game, check.cpp checks a bot, replay.cpp replays
// a log.
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <random>
#include <sstream>
#include <stdexcept>
#include <variant>

#include <boost/program_options.hpp>

#include "cli/options.hpp"
#include "core/text.hpp"
#include "core/tiles.hpp"
#include "host/host.hpp"
#include "host/live.hpp"
#include "record/version.hpp"
#include "remote/token.hpp"
#include "serve/request.hpp"

namespace po = boost::program_options;
using namespace bg::host;

namespace bg::host {

Console out(stdout);
Console err(stderr);

}  // namespace bg::host

namespace {

const char* const usage_text = R"(Usage: host [options] CMD1 [CMD2 ... CMDN]
       host --replay LOG [--json] [--quiet] [--html FILE]
       host --check [options] CMD
       host --version
(host is build/host in a build tree, bananagrams-host once installed; its manual: man
bananagrams-host, or docs/host.md.)

Plays a game of Bananagrams between the players (or --games N of them, one after another).
Each CMD runs verbatim through sh -c, in a sandbox of its own (bubblewrap: its own PID
namespace, no network, a read-only file system but for a private /tmp, a clean environment,
limits) and a cgroup of its own (its processes' memory and number bounded together, an equal
share of a contended CPU however many processes it makes), and talks to the host over its stdin
and stdout in the original spec's protocol. A live line per event goes to stderr, with each
player's stderr prefixed by [player N]; the result goes to stdout.

A player given as remote:TOKEN (TOKEN 16 to 64 of A-Z a-z 0-9 _ -), or remote: for a token
drawn here, is not a command: its seat is taken by connecting to the --serve address over a
WebSocket, at ws://ADDR:PORT/seat/TOKEN (a bot, through bananagrams-connect) or from the page
http://ADDR:PORT/play#TOKEN (a person). The host says each seat's URL on stderr before the game
waits for its players; docs/remote.md says who may take a seat, and what a dropped connection
does.

Exit status: 0 the game was played to its end (whoever won); 1 a dictionary or log could not
be read, a log does not replay, or the event log could not be written (the game is aborted at
once); 2 bad options; 3 a player's command could not start (the game was still played and its
result printed); 4 stdout could not be written (closed, full: the game was still played, and
logged); 5 the player sandbox, or the players' cgroups, cannot be had here (the message says
what to do), or --cpus-per-game finds no free cores; 6 only
stderr could not be written (the live lines; the result was printed); 128+N the host was
stopped by signal N (SIGINT, SIGTERM, SIGHUP or SIGQUIT: the game is aborted and every player
ended). With --games, the first status that is not 0 or 3 (no game starts after it), else 3 if
a player could not start in some game, else 0. SIGUSR1 and SIGUSR2 are ignored.

With --check, the host plays scripted scenarios against one bot alone (the handshake, the
deal, a peel accepted, a stale peel, a dump and a refused dump, the end of a game, SIGTERM) and
prints each check as pass or FAIL, with the bytes the bot sent, what was expected and a hint.
It waits --ready-timeout for each message and --kill-grace for the bot to exit, starts it as a
game would (in the sandbox, on the word list of --dict), and exits 0 when every check passed,
1 when one failed. host --check --serve ADDR:PORT remote: checks a bot that connects instead,
with a client of its own or through bananagrams-connect: a remote seat for each scenario, as a
tournament has one for each game (the checks of how its processes end are not made).
)";

// A closed stdin, stdout or stderr would be the next file opened (the log, say), and the
// result would be written into it: each is opened on /dev/null instead, and a closed stdout or
// stderr counts as one that could not be written.
void open_standard_descriptors() {
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1)
            continue;
        const int null = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (null >= 0 && null != fd) {
            ::dup2(null, fd);
            ::close(null);
        }
        if (fd == 1)
            out.mark_failed();
        if (fd == 2)
            err.mark_failed();
    }
}

// Nothing the host inherited (a terminal's, a scheduler's or a caller's descriptors) reaches a
// player: every descriptor past stderr is closed at exec.
void close_inherited_descriptors_on_exec() {
    if (::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
        return;
    for (int fd = 3; fd < 65536; ++fd) {
        const int flags = ::fcntl(fd, F_GETFD);
        if (flags >= 0)
            ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
    }
}

// Every option the host takes, and the positional player commands.
struct CommandLine {
    po::options_description options{"Options"};
    po::options_description all;
    po::positional_options_description positional;
};

void describe_options(CommandLine& line) {
    po::options_description& options = line.options;
    // clang-format off
    options.add_options()
        ("help,h", "show this help and exit")
        ("version", "show the version and exit")
        ("seed", po::value<std::string>()->value_name("N"),
         "the deal: the same seed and the same players give the same tiles (default: a random "
         "seed, printed and logged)");
    bg::options::add_game(options);
    options.add_options()
        ("json", po::bool_switch(), "print the result as one JSON object instead of a table")
        ("games", po::value<std::string>()->value_name("N"),
         "play N games with the same players, one after another (default 1): the first dealt by "
         "--seed, each later one by a seed drawn from it; each game's result as it ends (with "
         "--json, a line each), then each player's wins. A bot that asks for protocol v004 "
         "keeps its process for all of them")
        ("log", po::value<std::string>()->value_name("FILE"), "write the event log (JSON Lines) to this file")
        ("logs", po::value<std::string>()->value_name("DIR"),
         "write each game's event log to DIR/game-NNNNNN.jsonl (made if missing), as a "
         "tournament does; the players may not read it")
        ("html", po::value<std::string>()->value_name("FILE"),
         "write the game's page to this file at its end (or a replayed log's): one HTML file "
         "that shows the grids move by move, opened from disk in any browser")
        ("replay", po::value<std::string>()->value_name("FILE"),
         "rebuild a game from its event log alone, spawning nothing, and print its result (and "
         "its live lines on stderr)")
        ("quiet,q", po::bool_switch(), "no live lines on stderr (in a game or a replay)")
        ("serve", po::value<std::string>()->value_name("ADDR:PORT"),
         "serve the game while it plays: its page following it (GET /) and its event stream "
         "(GET /events, docs/live.md), from the loop that plays it, until it is over; "
         "127.0.0.1:PORT is this machine alone, any other address shows the game to whoever "
         "can reach it (its seed only once it is over); port 0 picks one")
        ("check", po::bool_switch(),
         "check one bot against the protocol in scripted scenarios, alone, instead of playing "
         "a game: each check is printed as pass or FAIL, with a hint");
    // clang-format on
    bg::options::add_remote_grace(options);
    options.add(bg::options::sandbox());
    options.add(bg::options::shares());
    options.add(bg::options::reuse());
    po::options_description hidden;
    hidden.add_options()("command", po::value<std::vector<std::string>>());
    line.all.add(options).add(hidden);
    line.positional.add("command", -1);
}

// Players given as `remote:TOKEN` (or `remote:`, for a token drawn here): seats taken by
// connecting to --serve's server (docs/remote.md).
void read_remote_seats(const po::variables_map& vm, bool check, Invocation& invocation) {
    std::vector<std::string>& commands = invocation.setup.commands;
    std::vector<std::string> tokens;
    for (std::size_t i = 0; i < commands.size(); ++i) {
        if (!bg::remote::is_remote(commands[i]))
            continue;
        std::string token(bg::remote::token_of(commands[i]));
        if (token.empty())
            token = bg::remote::draw_token();
        else if (auto why = bg::remote::token_problem(token); !why.empty())
            throw po::error(fmt::format("player {} (remote:...): {}", i + 1, why));
        if (std::find(tokens.begin(), tokens.end(), token) != tokens.end())
            throw po::error(
                fmt::format("player {} (remote:...): another remote seat has the "
                            "same token; each needs its own",
                            i + 1));
        tokens.push_back(token);
        commands[i] = std::string(bg::remote::prefix) + token;
    }
    if (!tokens.empty() && !vm.count("serve"))
        throw po::error(
            "a remote: seat is taken by connecting to the host's server: give --serve ADDR:PORT "
            "(127.0.0.1:0 for this machine alone, any free port)");
    if (check && tokens.empty() && vm.count("serve"))
        throw po::error(
            "--check --serve checks a bot that connects to a remote seat: give remote: (or "
            "remote:TOKEN) as the bot, not a command");
    invocation.remote_grace_ms = bg::options::read_remote_grace(vm);
}

// What the command line asks of a game or a check, once it holds together; po::error if not.
Invocation read_invocation(const po::variables_map& vm, bool check) {
    Invocation invocation;
    bg::GameSetup& setup = invocation.setup;
    if (!vm.count("command"))
        throw po::error("no player commands given");
    setup.commands = vm["command"].as<std::vector<std::string>>();
    if (check) {
        if (setup.commands.size() != 1)
            throw po::error(fmt::format("--check checks one bot: give one command, not {}",
                                        setup.commands.size()));
        for (const char* game_only :
             {"seed", "log", "logs", "html", "sets", "games", "fresh-bots", "games-per-process"})
            if (vm.count(game_only) && !vm[game_only].defaulted())
                throw po::error(
                    fmt::format("--check plays scripted scenarios, not a game: --{} does not apply",
                                game_only));
        if (vm["json"].as<bool>())
            throw po::error("--check prints its checks as text: --json does not apply");
    }
    read_remote_seats(vm, check, invocation);
    setup.game.players = static_cast<int>(setup.commands.size());
    bg::options::read_game(vm, setup);
    std::string error;
    if (!check && !bg::tile_rules_for(setup.game.players, setup.game.sets, &error))
        throw po::error(error);
    invocation.sandboxed = bg::options::read_sandbox(vm, invocation.sandbox);
    invocation.shares = bg::options::read_shares(vm, invocation.sandbox);
    setup.game.seed = vm.count("seed")
                          ? bg::options::count(vm, "seed", 0, UINT64_MAX)
                          : (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    if (vm.count("games"))
        invocation.games = static_cast<int>(bg::options::count(vm, "games", 1, 100000));
    invocation.reuse = bg::options::read_reuse(vm);
    if (invocation.games > 1) {
        if (vm.count("log"))
            throw po::error("--log writes one game's log: with --games, give --logs DIR");
        if (vm.count("html"))
            throw po::error(
                "--html writes one game's page: with --games, give --logs DIR and make a game's "
                "page from its log (host --replay LOG --html FILE)");
        if (vm.count("serve"))
            throw po::error(
                "--serve follows one game: with --games, watch a tournament instead "
                "(tournament run --serve)");
    }
    invocation.json = vm["json"].as<bool>();
    invocation.quiet = vm["quiet"].as<bool>();
    if (vm.count("log"))
        invocation.log = vm["log"].as<std::string>();
    if (vm.count("logs"))
        invocation.logs = vm["logs"].as<std::string>();
    if (vm.count("html"))
        invocation.html = vm["html"].as<std::string>();
    if (vm.count("serve"))
        invocation.serve =
            std::get<bg::serve::Address>(bg::serve::parse_address(vm["serve"].as<std::string>()));
    return invocation;
}

// The options that go with another or not at all, checked before anything is done.
void check_combinations(const po::variables_map& vm) {
    const bool check = vm["check"].as<bool>();
    if (vm.count("serve") && vm.count("replay"))
        throw po::error("--serve serves a game as it is played: not with --replay");
    if (vm.count("serve"))
        if (auto address = bg::serve::parse_address(vm["serve"].as<std::string>());
            std::holds_alternative<std::string>(address))
            throw po::error("--serve: " + std::get<std::string>(address));
    if (vm.count("replay") && check)
        throw po::error("--check checks a bot, --replay a log: give one of them");
    if (vm.count("replay") && vm.count("command"))
        throw po::error("--replay spawns nothing: give no player commands with it");
    if (vm.count("replay"))
        for (const char* game_only : {"games", "logs", "fresh-bots", "games-per-process"})
            if (vm.count(game_only) && !vm[game_only].defaulted())
                throw po::error(
                    fmt::format("--replay rebuilds one game from its log: --{} does "
                                "not apply",
                                game_only));
    if (vm.count("log") && vm.count("logs"))
        throw po::error("--log writes one file, --logs a folder of them: give one of them");
}

// Reads the command line and does what it asks; the exit status.
int dispatch(int argc, char** argv) {
    CommandLine line;
    describe_options(line);
    po::variables_map vm;
    std::optional<Invocation> invocation;
    try {
        po::store(
            po::command_line_parser(argc, argv).options(line.all).positional(line.positional).run(),
            vm);
        po::notify(vm);
        if (vm.count("help")) {
            std::ostringstream help;
            help << usage_text << "\n" << line.options << "\n";
            out.write(help.str());
            return out.failed() ? exit_output_failed : exit_played;
        }
        if (vm.count("version")) {
            out.write(bg::version_line("bananagrams-host") + "\n");
            return out.failed() ? exit_output_failed : exit_played;
        }
        check_combinations(vm);
        if (vm.count("replay"))
            return replay(vm["replay"].as<std::string>(), vm["json"].as<bool>(),
                          vm["quiet"].as<bool>(),
                          vm.count("html") ? vm["html"].as<std::string>() : std::string());
        invocation = read_invocation(vm, vm["check"].as<bool>());
    } catch (const po::error& e) {
        bg::log::error("{}\nTry 'host --help'.", bg::escape_for_terminal(e.what()));
        return exit_usage;
    }
    if (invocation->serve && !bg::live::serves()) {
        bg::log::error("{}", bg::live::hand_over(argv));
        return exit_failed;
    }
    if (vm["check"].as<bool>())
        return check_bot(*invocation);
    return play_game(*invocation);
}

int run(int argc, char** argv) {
    // A player that dies with our bytes in its pipe must not take the host with it.
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGUSR1, SIG_IGN);
    std::signal(SIGUSR2, SIG_IGN);
    open_standard_descriptors();
    close_inherited_descriptors_on_exec();
    bg::log::start("host", err);
    return dispatch(argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        // Not a rule, nor a player: the machine (no event loop to be had, no memory left). A
        // sandboxed player dies with the host (bubblewrap's --die-with-parent).
        bg::log::error("{}", bg::escape_for_terminal(e.what()));
        return exit_failed;
    }
}
