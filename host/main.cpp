// host: the Bananagrams referee. Spawns the players, deals, judges, and says who won.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "checker/checker.hpp"
#include "core/text.hpp"
#include "host/console.hpp"
#include "host/host_dictionaries.hpp"
#ifdef BG_HOST_SERVES
#include "host/live_game.hpp"
#endif
#include "host/match.hpp"
#include "host/options.hpp"
#include "host/players_word_list.hpp"
#include "record/event_log.hpp"
#include "record/json_value.hpp"
#include "record/replay.hpp"
#include "record/result.hpp"
#include "record/version.hpp"
#include "serve/request.hpp"
#include "transport/handles.hpp"
#include "viewer/pages.hpp"

namespace po = boost::program_options;

namespace {

// Exit statuses; "played" means the game ran to its end and its result was printed.
constexpr int exit_played = 0;
constexpr int exit_failed = 1;  // a word list or log unreadable, a log not replaying or not written
constexpr int exit_usage = 2;   // bad options
constexpr int exit_player_failed = 3;  // a player's command could not start (played)
constexpr int exit_output_failed = 4;  // stdout (the result) could not be written (played)
constexpr int exit_no_sandbox = 5;     // the player sandbox, or the players' cgroups, cannot be had
constexpr int exit_stderr_failed = 6;  // stderr (the live lines) could not be written (played)

bg::Console out(stdout);
bg::Console err(stderr);

template <class... Args>
void say(fmt::format_string<Args...> format, Args&&... args) {
    err.write(fmt::format(format, std::forward<Args>(args)...));
}

const char* const usage_text = R"(Usage: host [options] CMD1 [CMD2 ... CMDN]
       host --replay LOG [--json] [--quiet] [--html FILE]
       host --check [options] CMD
       host --version
(host is build/host in a build tree, bananagrams-host once installed; its manual: man
bananagrams-host, or docs/host.md.)

Plays one game of Bananagrams between the players. Each CMD runs verbatim through sh -c, in a
sandbox of its own (bubblewrap: its own PID namespace, no network, a read-only file system but
for a private /tmp, a clean environment, limits) and a cgroup of its own (its processes'
memory and number bounded together, an equal share of a contended CPU however many processes
it makes), and talks to the host over its stdin and stdout in the original spec's protocol. A
live line per event goes to stderr, with each player's stderr prefixed by [player N]; the
result goes to stdout.

Exit status: 0 the game was played to its end (whoever won); 1 a dictionary or log could not
be read, a log does not replay, or the event log could not be written (the game is aborted at
once); 2 bad options; 3 a player's command could not start (the game was still played and its
result printed); 4 stdout could not be written (closed, full: the game was still played, and
logged); 5 the player sandbox, or the players' cgroups, cannot be had here (the message says
what to do), or --cpus-per-game finds no free cores; 6 only
stderr could not be written (the live lines; the result was printed); 128+N the host was
stopped by signal N (SIGINT, SIGTERM, SIGHUP or SIGQUIT: the game is aborted and every player
ended). SIGUSR1 and SIGUSR2 are ignored.

With --check, the host plays scripted scenarios against one bot alone (the handshake, the
deal, a peel accepted, a stale peel, a dump and a refused dump, the end of a game, SIGTERM) and
prints each check as pass or FAIL, with the bytes the bot sent, what was expected and a hint.
It waits --ready-timeout for each message and --kill-grace for the bot to exit, starts it as a
game would (in the sandbox, on the word list of --dict), and exits 0 when every check passed,
1 when one failed.
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

void print_result(const nlohmann::json& result, bool json) {
    if (json)
        out.write(result.dump() + "\n");
    else
        out.write(bg::result_table(result));
}

void print_live_line(double seconds, const std::string& line) {
    say("[{:8.3f}s] {}\n", seconds, line);
}

// The game's page (viewer/), from its log's records; false (and said why) when it cannot be had.
bool write_game_page(std::istream& log, const std::string& log_name, const std::string& path) {
    auto records = bg::viewer::read_records(log);
    if (auto* error = std::get_if<std::string>(&records)) {
        say("host: {}: {}\n", bg::escape_for_terminal(log_name), *error);
        return false;
    }
    const std::string page = bg::viewer::game_page(std::get<std::vector<nlohmann::json>>(records));
    std::FILE* file = std::fopen(path.c_str(), "we");
    const bool written = file && std::fwrite(page.data(), 1, page.size(), file) == page.size();
    const bool closed = file && std::fclose(file) == 0;
    if (!written || !closed) {
        say("host: cannot write the page {}: {}\n", bg::escape_for_terminal(path),
            std::strerror(errno));
        return false;
    }
    return true;
}

int replay(const std::string& path, bool json, bool quiet, const std::string& html) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        say("host: cannot open log {}: {}\n", bg::escape_for_terminal(path), std::strerror(errno));
        return exit_failed;
    }
    std::optional<bg::Dictionary> loaded;
    bg::ReplayLines lines;
    if (!quiet)
        lines = [](std::uint64_t t, const std::string& line) {
            print_live_line(static_cast<double>(t) / 1e9, line);
        };
    auto replayed = bg::replay_log(in, bg::host_dictionaries(loaded), lines);
    if (auto* error = std::get_if<std::string>(&replayed)) {
        say("host: {}: {}\n", bg::escape_for_terminal(path), *error);
        return exit_failed;
    }
    print_result(std::get<nlohmann::json>(replayed), json);
    if (!html.empty()) {
        in.clear();
        in.seekg(0);
        if (!write_game_page(in, path, html))
            return exit_failed;
    }
    return out.failed() ? exit_output_failed : exit_played;
}

// The players' cgroups: the machine's base and this game's cgroup (pinned to cores of its own
// with --cpus-per-game); none with --unfair-per-process-limits. What killed hosts left is
// removed, and said.
struct GameCgroups {
    std::unique_ptr<bg::cgroups::Machine> machine;
    std::unique_ptr<bg::cgroups::Game> game;
};

std::variant<GameCgroups, std::string> game_cgroups(const bg::options::Shares& shares) {
    GameCgroups made;
    if (!shares.cgroups)
        return made;
    auto opened =
        bg::options::open_machine(shares, [](const std::string& line) { say("host: {}\n", line); });
    if (auto* error = std::get_if<std::string>(&opened))
        return *error;
    made.machine = std::move(std::get<std::unique_ptr<bg::cgroups::Machine>>(opened));
    auto game = made.machine->game(shares.cpus_per_game);
    if (auto* error = std::get_if<bg::cgroups::Machine::GameError>(&game))
        return error->message;
    made.game = std::move(std::get<std::unique_ptr<bg::cgroups::Game>>(game));
    return made;
}

// host --check CMD: the conformance checker, against the bot started as a game would start it.
int check(const bg::Setup& setup, std::optional<bg::SandboxConfig> sandbox,
          const bg::options::Shares& shares, const bg::cgroups::PlayerLimits& limits,
          const bg::Dictionary& dictionary, const bg::PlayersWordList& words) {
    std::string missing;
    if (!bg::checker::has_scenario_words(dictionary, &missing)) {
        say("host: the word list lacks {}, which the checks deal: check with a fuller list\n",
            missing);
        return exit_failed;
    }
    bg::checker::Options options;
    options.command = setup.commands[0];
    options.dictionary = &dictionary;
    options.legacy_dialect = setup.dialect;
    options.wait_ms = setup.ready_timeout_ms;
    options.grace_ms = setup.kill_grace_ms;
    if (sandbox) {
        sandbox->shared_paths.push_back(words.path());
        sandbox->set_env.push_back(words.variable());
        auto created = bg::Sandbox::create(*sandbox, setup.commands);
        if (auto* error = std::get_if<std::string>(&created)) {
            say("host: {}\n", bg::escape_for_terminal(*error));
            return exit_no_sandbox;
        }
        options.launch = [made = std::get<bg::Sandbox>(std::move(created))] {
            return made.launch(0);
        };
    } else {
        options.launch = [command = setup.commands[0], variable = words.variable()] {
            return bg::unsandboxed_launch(command, {variable});
        };
    }
    auto cgroups = game_cgroups(shares);
    if (auto* error = std::get_if<std::string>(&cgroups)) {
        say("host: {}\n", bg::escape_for_terminal(*error));
        return exit_no_sandbox;
    }
    bg::cgroups::Game* game = std::get<GameCgroups>(cgroups).game.get();
    // A cgroup for each scenario's bot; one that cannot be made is the machine's failure.
    if (game)
        options.cgroup = [game, seat = 0, limits]() mutable {
            auto made = game->player(seat++, limits);
            if (auto* error = std::get_if<std::string>(&made))
                throw std::runtime_error("cannot make the bot's cgroup: " + *error);
            return std::move(std::get<std::unique_ptr<bg::cgroups::Player>>(made));
        };
    const int failed = bg::checker::run(options, std::cout);
    std::cout.flush();
    return failed == 0 ? exit_played : exit_failed;
}

#ifndef BG_HOST_SERVES
// --serve: this host, linked statically for a fast start, has no server; host-live is the same
// host with one, and takes the same command line. Users never run it, so once installed it is
// out of the PATH: BG_LIVE_HOST_DIR, relative to the host's folder, holds it
// (../libexec/bananagrams-host/bananagrams-host-live beside bin/bananagrams-host); in a build tree
// it sits beside the host (build/host-live). The first of the two that exists is run.
int exec_live_host(char** argv) {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) {
        say("host: --serve needs host-live, the host built with its live server, which is found "
            "from this program's own path, and that cannot be read: {}\n",
            error.message());
        return exit_failed;
    }
    const std::string name = self.filename().string() + "-live";
    std::vector<std::filesystem::path> places;
#ifdef BG_LIVE_HOST_DIR
    places.push_back(self.parent_path() / BG_LIVE_HOST_DIR / name);
#endif
    places.push_back(self.parent_path() / name);
    // execv returns only when it failed: a place where the program is not is passed over, any
    // other failure (a program there that cannot be run) is said.
    for (const auto& place : places) {
        ::execv(place.c_str(), argv);
        if (errno != ENOENT && errno != ENOTDIR) {
            say("host: --serve needs {}, the host built with its live server: {}\n",
                bg::escape_for_terminal(place.string()), std::strerror(errno));
            return exit_failed;
        }
    }
    std::string tried;
    for (const auto& place : places)
        tried += (tried.empty() ? "" : " or ") + bg::escape_for_terminal(place.string());
    say("host: --serve needs the host built with its live server, {}: {}\n", tried,
        std::strerror(ENOENT));
    return exit_failed;
}
#endif

int run(int argc, char** argv) {
    // A player that dies with our bytes in its pipe must not take the host with it.
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGUSR1, SIG_IGN);
    std::signal(SIGUSR2, SIG_IGN);
    open_standard_descriptors();
    close_inherited_descriptors_on_exec();

    po::options_description options("Options");
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
        ("log", po::value<std::string>()->value_name("FILE"), "write the event log (JSON Lines) to this file")
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
    options.add(bg::options::sandbox());
    options.add(bg::options::shares());
    po::options_description hidden;
    hidden.add_options()("command", po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description positional;
    positional.add("command", -1);

    po::variables_map vm;
    bg::Setup setup;
    bg::SandboxConfig sandbox;
    bg::options::Shares shares;
    bool sandboxed = true;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(),
                  vm);
        po::notify(vm);
        if (vm.count("help")) {
            std::ostringstream help;
            help << usage_text << "\n" << options << "\n";
            out.write(help.str());
            return out.failed() ? exit_output_failed : exit_played;
        }
        if (vm.count("version")) {
            out.write(bg::version_line("bananagrams-host") + "\n");
            return out.failed() ? exit_output_failed : exit_played;
        }
        if (vm.count("serve") && (vm.count("replay") || vm["check"].as<bool>()))
            throw po::error("--serve serves a game as it is played: not with --replay or --check");
        if (vm.count("serve"))
            if (auto address = bg::serve::parse_address(vm["serve"].as<std::string>());
                std::holds_alternative<std::string>(address))
                throw po::error("--serve: " + std::get<std::string>(address));
        if (vm.count("replay")) {
            if (vm["check"].as<bool>())
                throw po::error("--check checks a bot, --replay a log: give one of them");
            if (vm.count("command"))
                throw po::error("--replay spawns nothing: give no player commands with it");
            return replay(vm["replay"].as<std::string>(), vm["json"].as<bool>(),
                          vm["quiet"].as<bool>(),
                          vm.count("html") ? vm["html"].as<std::string>() : std::string());
        }
        if (!vm.count("command"))
            throw po::error("no player commands given");
        setup.commands = vm["command"].as<std::vector<std::string>>();
        if (vm["check"].as<bool>()) {
            if (setup.commands.size() != 1)
                throw po::error(fmt::format("--check checks one bot: give one command, not {}",
                                            setup.commands.size()));
            for (const char* game_only : {"seed", "log", "html", "sets"})
                if (vm.count(game_only) && !vm[game_only].defaulted())
                    throw po::error(fmt::format(
                        "--check plays scripted scenarios, not a game: --{} does not apply",
                        game_only));
            if (vm["json"].as<bool>())
                throw po::error("--check prints its checks as text: --json does not apply");
        }
        setup.game.players = static_cast<int>(setup.commands.size());
        bg::options::read_game(vm, setup);
        std::string error;
        if (!vm["check"].as<bool>() &&
            !bg::tile_rules_for(setup.game.players, setup.game.sets, &error))
            throw po::error(error);
        sandboxed = bg::options::read_sandbox(vm, sandbox);
        shares = bg::options::read_shares(vm, sandbox);
        setup.game.seed = vm.count("seed") ? bg::options::count(vm, "seed", 0, UINT64_MAX)
                                           : (std::uint64_t{std::random_device{}()} << 32) ^
                                                 std::random_device{}();
    } catch (const po::error& e) {
        say("host: {}\nTry 'host --help'.\n", bg::escape_for_terminal(e.what()));
        return exit_usage;
    }

#ifndef BG_HOST_SERVES
    if (vm.count("serve"))
        return exec_live_host(argv);
#endif
    std::optional<bg::Dictionary> loaded;
    auto found = bg::host_word_list(setup.dictionary, loaded);
    if (auto* error = std::get_if<std::string>(&found)) {
        say("host: {}\n", bg::escape_for_terminal(*error));
        return exit_failed;
    }
    const bg::Dictionary* dictionary = std::get<const bg::Dictionary*>(found);
    setup.dictionary_fingerprint = dictionary->stats().fingerprint;
    setup.dictionary_name = bg::word_list_name(setup.dictionary, setup.dictionary_fingerprint);
    // The players read the game's list too, as the host's own user or the sandbox's.
    auto players_words =
        bg::PlayersWordList::make(setup.dictionary, *dictionary, sandboxed && ::geteuid() == 0);
    if (auto* error = std::get_if<std::string>(&players_words)) {
        say("host: {}\n", bg::escape_for_terminal(*error));
        return exit_failed;
    }
    const auto& words = std::get<bg::PlayersWordList>(players_words);
    if (vm["check"].as<bool>())
        return check(setup, sandboxed ? std::optional(sandbox) : std::nullopt, shares,
                     bg::options::player_limits(sandbox.limits), *dictionary, words);

    std::FILE* log_file = nullptr;
    bool log_existed = false;
    if (vm.count("log")) {
        const auto path = vm["log"].as<std::string>();
        struct stat before {};
        log_existed = ::stat(path.c_str(), &before) == 0;
        // Close-on-exec ("e"): no player may write, cut or read the record of its own game.
        log_file = std::fopen(path.c_str(), "we");
        if (!log_file) {
            say("host: cannot write log {}: {}\n", bg::escape_for_terminal(path),
                std::strerror(errno));
            return exit_failed;
        }
    }
    // A page needs the log's records: without --log they are kept in memory.
    char* memory_log = nullptr;
    std::size_t memory_log_size = 0;
    std::FILE* page_log = nullptr;
    if (!log_file && vm.count("html"))
        page_log = ::open_memstream(&memory_log, &memory_log_size);
    bg::EventLog log(log_file ? log_file : page_log);

    // The players cannot be given their sandbox or their cgroups: said, and exit 5. Only a log
    // this host made is taken back: never a file (or a device, such as /dev/full) that was there
    // before.
    const auto cannot_play = [&](const std::string& why) {
        say("host: {}\n", bg::escape_for_terminal(why));
        if (log_file) {
            std::fclose(log_file);
            if (!log_existed)
                std::remove(vm["log"].as<std::string>().c_str());
        }
        return exit_no_sandbox;
    };
    std::vector<bg::Launch> launches;
    if (sandboxed) {
        if (vm.count("log"))
            sandbox.secret_paths.push_back(vm["log"].as<std::string>());
        sandbox.shared_paths.push_back(words.path());
        sandbox.set_env.push_back(words.variable());
        auto created = bg::Sandbox::create(sandbox, setup.commands);
        if (auto* error = std::get_if<std::string>(&created))
            return cannot_play(*error);
        const auto& made = std::get<bg::Sandbox>(created);
        for (std::size_t i = 0; i < setup.commands.size(); ++i)
            launches.push_back(made.launch(i));
        setup.sandbox = bg::options::sandbox_json(made.config());
    } else {
        launches = bg::unsandboxed_launches(setup.commands, {words.variable()});
    }
    auto cgroups = game_cgroups(shares);
    if (auto* error = std::get_if<std::string>(&cgroups))
        return cannot_play(*error);
    GameCgroups& game_cgroup = std::get<GameCgroups>(cgroups);
    if (game_cgroup.game)
        setup.shares = bg::options::shares_json(game_cgroup.machine->kind(),
                                                bg::options::player_limits(sandbox.limits),
                                                shares.cpus_per_game, game_cgroup.game->cpus());

    const bool quiet = vm["quiet"].as<bool>();
    if (!quiet)
        say("seed {}\n", setup.game.seed);
    const bool json = vm["json"].as<bool>();

    bg::EventLoop loop;
    int status = exit_played;
#ifdef BG_HOST_SERVES
    std::unique_ptr<bg::LiveGame> live;
    if (vm.count("serve")) {
        const auto address =
            std::get<bg::serve::Address>(bg::serve::parse_address(vm["serve"].as<std::string>()));
        auto started = bg::LiveGame::start(loop.get(), address);
        if (auto* error = std::get_if<std::string>(&started)) {
            say("host: --serve: {}; no game was played\n", bg::escape_for_terminal(*error));
            if (log_file) {
                std::fclose(log_file);
                if (!log_existed)
                    std::remove(vm["log"].as<std::string>().c_str());
            }
            return exit_failed;
        }
        live = std::move(std::get<std::unique_ptr<bg::LiveGame>>(started));
        bg::serve::Address shown = address;
        shown.port = live->port();
        say("host: watch it live at http://{}/{}\n", shown.authority(),
            shown.loopback() ? ""
                             : " (not a loopback address: anyone who can reach this machine "
                               "can watch)");
        log.observe([&live](const nlohmann::json& record) { live->record(record); });
    }
#endif
    {
        bg::Match::Options options;
        options.player_lines = [](bg::PlayerId player, const std::string& line) {
            say("[player {}] {}\n", player + 1, line);
        };
        if (!quiet)
            options.reporter = print_live_line;
        options.cgroup = game_cgroup.game.get();
        options.limits = bg::options::player_limits(sandbox.limits);
        std::vector<bg::SignalWatch> signals;
        options.on_done = [&] {
            // The game is over: a signal from now on changes nothing, and must not kill the
            // host before it has printed the result.
            bg::hold_signals(bg::Match::abort_signals);
            signals.clear();
#ifdef BG_HOST_SERVES
            // Its clients get the end, then the server closes and the loop can run out.
            if (live)
                live->finished([] {});
#endif
        };
        bg::Match match(loop.get(), setup, *dictionary, log, std::move(launches),
                        std::move(options));
        // A closed terminal (SIGHUP) or ssh session, ^C, ^\\ and kill all end the game the same
        // way: aborted, recorded, and every player ended.
        for (int signal : bg::Match::abort_signals)
            signals.emplace_back(loop.get(), signal, [&match](int signum) { match.abort(signum); });
        match.start();
        loop.run();
        const bg::Referee& referee = match.referee();
        print_result(referee.result(), json);
        if (referee.any_failed_to_start())
            status = exit_player_failed;
        if (referee.abort_signal() != 0)
            status = 128 + referee.abort_signal();
    }
#ifdef BG_HOST_SERVES
    // Its server is done (the loop ran out once it had closed): gone before the loop is.
    live.reset();
#endif
    if (!loop.close())
        say("host: internal: libuv handles left open\n");
    // The game's cgroup goes with its players, and the machine's base with the last host using
    // it.
    game_cgroup.game.reset();
    game_cgroup.machine.reset();
    if (log_file) {
        const bool closed = std::fclose(log_file) == 0;
        if (log.failed() || !closed) {
            say("host: the event log {} could not be written ({}){}\n",
                bg::escape_for_terminal(vm["log"].as<std::string>()),
                log.failed() ? log.error() : std::strerror(errno),
                log.failed() ? ": the game was aborted" : "");
            if (status == exit_played || status == exit_player_failed)
                status = exit_failed;
        }
    }
    if (vm.count("html")) {
        const std::string html = vm["html"].as<std::string>();
        bool written = false;
        if (page_log) {
            std::fclose(page_log);
            std::istringstream records(std::string(memory_log, memory_log_size));
            written = !log.failed() && write_game_page(records, "the event log", html);
            std::free(memory_log);
        } else {
            std::ifstream records(vm["log"].as<std::string>(), std::ios::binary);
            written = write_game_page(records, vm["log"].as<std::string>(), html);
        }
        if (written && !vm["quiet"].as<bool>())
            say("the game's page: {}\n", bg::escape_for_terminal(html));
        if (!written && (status == exit_played || status == exit_player_failed))
            status = exit_failed;
    }
    if (out.failed() && status == exit_played)
        status = exit_output_failed;
    else if (err.failed() && status == exit_played)
        status = exit_stderr_failed;
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        // Not a rule, nor a player: the machine (no event loop to be had, no memory left). A
        // sandboxed player dies with the host (bubblewrap's --die-with-parent).
        say("host: {}\n", bg::escape_for_terminal(e.what()));
        return exit_failed;
    }
}
