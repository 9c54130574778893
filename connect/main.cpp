// bananagrams-connect: a bot on this machine takes a remote seat of a host elsewhere
// (docs/remote.md). This file reads the command line; connector.cpp does the rest.
#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "cli/log.hpp"
#include "connect/connector.hpp"
#include "core/text.hpp"
#include "record/version.hpp"
#include "transport/handles.hpp"

namespace po = boost::program_options;

namespace bg::connect {
namespace {

const char* const usage_text = R"(Usage: connect [options] URL -- CMD
(connect is build/connect in a build tree, bananagrams-connect once installed.)

Takes the remote seat at URL (ws://ADDR:PORT/seat/TOKEN, as the host or the tournament said it
on its stderr) for the bot CMD, run through sh -c on this machine. The bot plays as it would on
the host: the protocol's bytes on its stdin and stdout, its stderr here. Its word list
($BANANAGRAMS_WORDLIST) is this machine's: give the game's with --words FILE, or let
--words from-seat fetch it from the host (once: it is kept by its fingerprint).

A tournament's remote bot plays each of its games on a seat of its own, one connection each:
--games 0 plays them all, one after another, and stops once the host says it has no more.

An arena's bot (URL ws://ADDR:PORT/bot, docs/arena.md) gives its token from --token-file or
$BANANAGRAMS_TOKEN and stays connected, playing match after match until the arena closes.

Every wait is bounded: a connection's handshake by 10 s, trying again by --retry (a dropped
connection by --grace, a host restarting by --restart-wait), the bot's end by --kill-grace. Each try that fails is said on stderr,
with what it met. SIGINT, SIGTERM or SIGHUP end it within a second, the bot too; SIGUSR1 has an
arena's bot leave once its match is over (exit status 0).

Exit status: 0 the host ended the game (each of --games; with --games 0, every game the host
had for the bot); 1 the seat could not be taken (refused: the host's reason is said; or no
answer within --retry), its connection was lost for good, the host had fewer games than --games,
or the word list could not be had; 2 bad options; 3 the bot could not start; 128+N stopped by
signal N (the bot is ended, and the host sees the seat's player leave).
)";

// An arena's bot (ws://HOST:PORT/bot): its token, from --token-file or $BANANAGRAMS_TOKEN (never
// the command line, where other users could read it), its version, and a session.
void read_arena_settings(const po::variables_map& vm, Settings& settings) {
    if (vm.count("bot-version"))
        settings.version = vm["bot-version"].as<std::string>();
    if (vm.count("opponent")) {
        settings.opponent = vm["opponent"].as<std::string>();
        const bool name =
            !settings.opponent.empty() && settings.opponent.size() <= 40 &&
            std::all_of(settings.opponent.begin(), settings.opponent.end(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
                       c == '-';
            });
        if (!name)
            throw po::error("--opponent is a house bot's name: 1 to 40 of a-z A-Z 0-9 _ . -");
    }
    if (settings.version.size() > 64 ||
        settings.version.find_first_of(" \t\r\n") != std::string::npos)
        throw po::error("--bot-version is up to 64 characters, no spaces");
    if (vm.count("token-file")) {
        const std::string path = vm["token-file"].as<std::string>();
        std::ifstream file(path);
        if (!file || !std::getline(file, settings.token))
            throw po::error(fmt::format("--token-file {}: cannot be read", path));
    } else if (const char* token = std::getenv("BANANAGRAMS_TOKEN")) {
        settings.token = token;
    }
    while (!settings.token.empty() &&
           std::isspace(static_cast<unsigned char>(settings.token.back())))
        settings.token.pop_back();
    if (settings.token.size() > 64 || settings.token.find_first_of(" \t") != std::string::npos)
        throw po::error("the token is up to 64 characters, no spaces");
    if (!settings.url.arena()) {
        if (vm.count("token-file") || vm.count("bot-version") || vm.count("opponent"))
            throw po::error(
                "--token-file, --bot-version and --opponent are for an arena's URL (ws://.../bot)");
        settings.token.clear();
        return;
    }
    if (settings.token.empty())
        throw po::error("an arena's bot needs its token: --token-file FILE or $BANANAGRAMS_TOKEN");
    if (vm["games"].defaulted())
        settings.games = 0;  // match after match, until the arena closes
    else if (settings.games != 0)
        throw po::error("an arena's bot stays for match after match: --games 0 (or none)");
}

// What the command line asks for, or po::error.
Settings read_settings(const po::variables_map& vm) {
    Settings settings;
    if (!vm.count("url"))
        throw po::error("no seat URL given");
    auto url = parse_seat_url(vm["url"].as<std::string>());
    if (auto* why = std::get_if<std::string>(&url))
        throw po::error(*why);
    settings.url = std::get<SeatUrl>(url);
    if (!vm.count("command"))
        throw po::error("no bot command given (URL -- CMD)");
    for (const auto& word : vm["command"].as<std::vector<std::string>>())
        settings.command += (settings.command.empty() ? "" : " ") + word;
    if (vm.count("words")) {
        settings.words = vm["words"].as<std::string>();
        settings.words_from_seat = settings.words == "from-seat";
        if (settings.words_from_seat)
            settings.words.clear();
        else if (settings.words.empty())
            throw po::error("--words is a file, or from-seat");
    }
    for (const char* name : {"retry", "grace", "restart-wait", "kill-grace"})
        if (vm[name].as<double>() < 0 || vm[name].as<double>() > 86400)
            throw po::error(fmt::format("--{} is 0 to 86400 seconds", name));
    settings.retry_seconds = vm["retry"].as<double>();
    settings.grace_seconds = vm["grace"].as<double>();
    settings.restart_seconds = vm["restart-wait"].as<double>();
    settings.kill_grace_seconds = vm["kill-grace"].as<double>();
    const std::string games = vm["games"].as<std::string>();
    if (games.empty() || games.size() > 6 ||
        games.find_first_not_of("0123456789") != std::string::npos)
        throw po::error("--games is a number of games, 0 for as many as the host has for the bot");
    settings.games = std::stoi(games);
    read_arena_settings(vm, settings);
    return settings;
}

int run(int argc, char** argv) {
    static Console err(stderr);
    log::start("connect", err);
    std::signal(SIGPIPE, SIG_IGN);
    po::options_description options("Options");
    // clang-format off
    options.add_options()
        ("help,h", "show this help and exit")
        ("version", "show the version and exit")
        ("words", po::value<std::string>()->value_name("FILE|from-seat"),
         "the word list the bot reads ($BANANAGRAMS_WORDLIST): the game's, on this machine; or "
         "from-seat: fetched from the seat's server, checked by its fingerprint, and kept in "
         "$XDG_CACHE_HOME/bananagrams-connect (~/.cache/bananagrams-connect) for the next time "
         "(default: the variable as it is here)")
        ("retry", po::value<double>()->value_name("SEC")->default_value(0),
         "keep trying this long while no seat is had: the host cannot be reached or does not "
         "answer, or its seat is not open yet (a refusal is not tried again); between --games, a "
         "second at least")
        ("games", po::value<std::string>()->value_name("N")->default_value("1"),
         "play N games one after another (a tournament's), each with its own connection and a "
         "fresh bot; 0: every game the host has for the bot, until it says there are no more")
        ("grace", po::value<double>()->value_name("SEC")->default_value(10),
         "a connection that drops is taken again for this long (the host's --remote-grace)")
        ("restart-wait", po::value<double>()->value_name("SEC")->default_value(300),
         "a host that closes the connection saying it restarts (1012: an arena stopped by "
         "SIGTERM) is tried again for this long, and played on once it is back")
        ("token-file", po::value<std::string>()->value_name("FILE"),
         "an arena's bot (URL ws://ADDR:PORT/bot): the file that holds its token (else "
         "$BANANAGRAMS_TOKEN); never give a token on the command line")
        ("bot-version", po::value<std::string>()->value_name("LABEL"),
         "an arena's bot: its version; a new one is rated apart from the old")
        ("opponent", po::value<std::string>()->value_name("NAME"),
         "an arena's bot: play only house bot NAME, in sparring matches that are never rated nor "
         "counted towards a pause")
        ("kill-grace", po::value<double>()->value_name("SEC")->default_value(2),
         "once the game is over, the bot's input is closed: it has this long to leave by "
         "itself before SIGTERM, and as long again before SIGKILL");
    // clang-format on
    po::options_description hidden;
    hidden.add_options()("url", po::value<std::string>())("command",
                                                          po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description positional;
    positional.add("url", 1).add("command", -1);
    Settings settings;
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(),
                  vm);
        po::notify(vm);
        if (vm.count("help")) {
            std::printf("%s\n", usage_text);
            std::cout << options << "\n";
            return 0;
        }
        if (vm.count("version")) {
            std::printf("%s\n", version_line("bananagrams-connect").c_str());
            return 0;
        }
        settings = read_settings(vm);
    } catch (const po::error& e) {
        log::error("{}\nTry 'connect --help'.", escape_for_terminal(e.what()));
        return exit_usage;
    }
    EventLoop loop;
    int status = exit_failed;
    if (auto context = ClientContext::make(loop.get())) {
        Connector connector(loop.get(), *context, std::move(settings));
        connector.start();
        loop.run();
        status = connector.status();
    }
    loop.run();
    loop.close();
    return status;
}

}  // namespace
}  // namespace bg::connect

int main(int argc, char** argv) {
    try {
        return bg::connect::run(argc, argv);
    } catch (const std::exception& e) {
        bg::log::error("{}", e.what());
        return 1;
    }
}
