// arena: a standing ladder of bots (docs/arena.md). This file reads the command line and calls
// the command: the bots and their tokens, the configuration, the standings and rerate
// (admin.cpp), and the server (serve.cpp).
#include <csignal>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "arena/admin.hpp"
#include "arena/serve.hpp"
#include "arena/submit.hpp"
#include "arena/worker.hpp"
#include "core/text.hpp"
#include "record/version.hpp"

namespace po = boost::program_options;
using namespace bg::arena;

namespace {

const char* const usage_text =
    R"(Usage: arena bot add --db DB NAME [--owner WHO] [--command CMD [--anchor R]] [--about TEXT]
       arena bot about --db DB NAME [TEXT]
       arena bot list --db DB [--json]
       arena bot submit --token-file FILE URL ARCHIVE
       arena bot disable|enable|remove|rotate-token --db DB NAME
       arena person add --db DB NAME
       arena person list --db DB [--json]
       arena person disable|enable|remove|rotate-code --db DB NAME
       arena serve --db DB --listen ADDR:PORT [--logs DIR] [--workers] [options]
       arena worker --db DB [--cores LIST] [--logs DIR] [options]
       arena season add --db DB NAME --closes WHEN [--starts WHEN] [finals' and tiers' options]
       arena season list --db DB [--json]
       arena season show --db DB NAME [--json]
       arena standings --db DB [--people] [--json]
       arena rerate --db DB [--json]
       arena config --db DB [--json]
       arena copy --from DB --to DB [--json]
       arena --version
(arena is build/arena in a build tree, bananagrams-arena once installed; its manual: man
bananagrams-arena, or docs/arena.md.)

A standing ladder: bots come (remote ones connect to /bot with their token and stay; house bots
are started by the arena), wait in a queue, are matched by rating, and play matches of one deal
in every seat rotation; each match moves their ratings (Weng and Lin's Bayesian Plackett-Luce
update). Everything is kept in one database, DB: an SQLite file, made by the first bot add;
or a PostgreSQL database, for an arena more than one machine reaches (postgresql://HOST/NAME,
or libpq's keywords: host=... dbname=..., service=NAME; its password from ~/.pgpass or
PGPASSWORD, never the command line).

  bot add       a new bot: remote, or a house bot with --command; prints its token once, on
                its last line (only a hash of it is kept). --anchor R holds a house bot's
                rating at R, so that a figure means the same next month; --about TEXT says
                what it is on the public pages, in a few words ("level 1: a person's pace")
  bot about     what it is, for the public pages (up to 80 characters; none: no more said)
  bot list      every bot: its owner, kind, versions and state (paused, and why)
  bot submit    a hosted bot's new version, from its author's machine: ARCHIVE (a .tar.gz of
                its files and bananagrams.json) sent to the arena at URL (the bot's page,
                http://HOST:PORT/bots/NAME) with the bot's token from FILE; prints the
                arena's answer (docs/arena.md, "Hosting a bot")
  bot disable   it is not queued, and its token does not connect; enable undoes it
  bot remove    it is gone from the leaderboard and cannot connect; its matches stay
  bot rotate-token  a new token for it; the old one no longer connects
  person add    a person's account, who plays from the arena's page (/play): prints the code
                to sign in with once, on its last line (only a hash of it is kept); list,
                disable, enable, remove and rotate-code as for bots
  serve         the arena itself, until SIGTERM or SIGINT; --workers: its matches of house
                and hosted bots alone are played by workers (DB a PostgreSQL database);
                --standby: waits while another arena serves DB, and takes over as it ends;
                on PostgreSQL at an address of its own, a front node meanwhile: it answers
                the pages, the API and the stream, and seats remote bots and people, whose
                matches it plays (docs/arena.md, "Front nodes")
  worker        plays an arena's matches of house and hosted bots on this machine, a core a
                player, until SIGTERM or SIGINT: any number of workers, on any machines that
                reach DB, a PostgreSQL database (docs/arena.md, "Workers")
  season add    a season: a contest from now (or --starts) to --closes, on a board of its own
                (every account rated from the first belief over its matches alone, the
                ladder's ratings untouched), with tiers; at its close its board is frozen and
                its best house and hosted bots play its finals, by paired deals, until their
                order is settled (docs/arena.md, "Seasons"); the arena that serves plays them
  season list   every season, and its state (open, finals, over)
  season show   a season's board (as it stands, or frozen at its close) and its finals
  standings     the leaderboard: mean less three deviations, provisional entries marked, and
                the order-free maximum-likelihood fit beside each; --people: the people's,
                which is apart from the bots'
  rerate        every rating recomputed from the archive, in the order the matches were rated:
                exit status 0 when each is exactly the stored one, 3 when not
  config        the rating model's and the matchmaker's parameters
  copy          the arena at --from whole into a new one at --to, in one transaction: every
                account (its token still lets it in), rating, match, game and hosted version,
                with their ids and the games' logs the database keeps; between SQLite and
                PostgreSQL either way. The players' stderr and the hosted bots' files are not
                in the database: they stay where they are

Exit status: 0 done; 1 the database could not be used (bot submit: the arena did not take the
version); 2 bad options; 3 rerate disagrees.
)";

struct Parsed {
    std::string command;  // "bot add", "serve", ...
    po::variables_map vm;
};

po::options_description options_of(const std::string& command) {
    po::options_description o;
    o.add_options()("help,h", "this help");
    if (command != "copy")
        o.add_options()("db", po::value<std::string>()->value_name("DB"),
                        "the arena's database: a file, or PostgreSQL's (postgresql://...)");
    if (command == "bot add")
        o.add_options()("name", po::value<std::string>(), "")(
            "owner", po::value<std::string>()->value_name("WHO"),
            "its owner: no two bots of one owner meet (default: the bot's own name)")(
            "command", po::value<std::string>()->value_name("CMD"),
            "a house bot: the command the arena starts it with")(
            "anchor", po::value<double>()->value_name("R"), "hold this house bot's rating at R")(
            "about", po::value<std::string>()->value_name("TEXT"),
            "what it is, in a few words for the public pages");
    else if (command == "bot about")
        o.add_options()("name", po::value<std::string>(), "")(
            "about", po::value<std::string>()->default_value(""), "");
    else if (command == "bot submit")
        o.add_options()("token-file", po::value<std::string>()->value_name("FILE"),
                        "the bot's token, on the file's first line")(
            "url", po::value<std::string>(), "")("archive", po::value<std::string>(), "");
    else if (command == "bot disable" || command == "bot enable" || command == "bot remove" ||
             command == "bot rotate-token" || command == "person add" ||
             command == "person disable" || command == "person enable" ||
             command == "person remove" || command == "person rotate-code")
        o.add_options()("name", po::value<std::string>(), "");
    else if (command == "serve")
        o.add(serve_options());
    else if (command == "worker")
        o.add(worker_options());
    else if (command == "season add")
        o.add_options()("name", po::value<std::string>(), "")(
            "closes", po::value<std::string>()->value_name("WHEN"),
            "when it closes: a UTC time (2026-12-24T18:00:00Z, 2026-12-24 18:00) or one from "
            "now (+90s, +30m, +2h, +7d)")(
            "starts", po::value<std::string>()->value_name("WHEN"),
            "when it starts (default: now): its matches are those that finish from then")(
            "finalists", po::value<int>()->value_name("N"),
            "the best N of its board that the arena runs play its finals (default 8; 2 to 64)")(
            "stages", po::value<std::string>()->value_name("F1,F2,..."),
            "the finals' stages' fields, narrowing (default: N halved down to 2: 8,4,2)")(
            "finals-deals", po::value<int>()->value_name("D"),
            "the most deals a stage plays, each by every pair of its field (default 40)")(
            "finals-sprt", po::value<std::string>()->value_name("TEST"),
            "when two neighbours are settled: \"elo0=E0 elo1=E1 [alpha=A] [beta=B]\" "
            "(default \"elo0=0 elo1=100\", alpha and beta 0.05)")(
            "tiers", po::value<std::string>()->value_name("LIST"),
            "the tiers by percentile, each to its end: NAME:PERCENT,... (default "
            "gold:10,silver:30,bronze:60,entrant:100)");
    else if (command == "season show")
        o.add_options()("name", po::value<std::string>(), "")("json", po::bool_switch(), "as JSON");
    else if (command == "bot list" || command == "person list" || command == "standings" ||
             command == "rerate" || command == "config" || command == "season list")
        o.add_options()("json", po::bool_switch(), "as JSON");
    else if (command == "copy")
        o.add_options()("from", po::value<std::string>()->value_name("DB"), "the arena copied")(
            "to", po::value<std::string>()->value_name("DB"),
            "where it is copied to: a file or a PostgreSQL database without an arena")(
            "json", po::bool_switch(), "as JSON");
    else
        throw po::error(
            fmt::format("unknown command '{}': bot add|about|list|submit|disable|enable|remove|"
                        "rotate-token, person add|list|disable|enable|remove|rotate-code, season "
                        "add|list|show, serve, worker, standings, rerate, config or copy",
                        bg::escape_for_terminal(command)));
    if (command == "standings")
        o.add_options()("people", po::bool_switch(), "the people's leaderboard");
    return o;
}

Parsed parse(int argc, char** argv) {
    Parsed parsed;
    int first = 2;
    parsed.command = argv[1];
    if (parsed.command == "bot" || parsed.command == "person" || parsed.command == "season") {
        if (argc < 3)
            throw po::error(parsed.command == "bot"
                                ? "bot what? add, about, list, submit, disable, enable, remove or "
                                  "rotate-token"
                            : parsed.command == "person"
                                ? "person what? add, list, disable, enable, remove or rotate-code"
                                : "season what? add, list or show");
        parsed.command += std::string(" ") + argv[2];
        first = 3;
    }
    const po::options_description accepted = options_of(parsed.command);
    po::positional_options_description positional;
    const bool submit = parsed.command == "bot submit";
    positional.add(submit ? "url" : "name", 1);
    if (parsed.command == "bot about")
        positional.add("about", 1);
    if (submit)
        positional.add("archive", 1);
    // The parser takes its first argument for the program's name: the command's last word.
    po::store(po::command_line_parser(argc - first + 1, argv + first - 1)
                  .options(accepted)
                  .positional(positional)
                  .run(),
              parsed.vm);
    po::notify(parsed.vm);
    if (submit && !parsed.vm.count("help")) {
        if (!parsed.vm.count("token-file"))
            throw po::error("--token-file FILE is needed: the bot's token");
        if (!parsed.vm.count("url") || !parsed.vm.count("archive"))
            throw po::error("give the arena's URL (the bot's page) and the archive");
        return parsed;
    }
    if (parsed.command == "copy") {
        if (!parsed.vm.count("help") && (!parsed.vm.count("from") || !parsed.vm.count("to")))
            throw po::error("--from DB and --to DB are needed: the arena and where it goes");
        return parsed;
    }
    if (!parsed.vm.count("help") && !parsed.vm.count("db"))
        throw po::error("--db DB is needed: the arena's database");
    if (accepted.find_nothrow("name", false) && !parsed.vm.count("name") &&
        !parsed.vm.count("help") && parsed.command != "worker")  // a worker's --name is optional
        throw po::error(parsed.command.starts_with("person")   ? "who? give the person's name"
                        : parsed.command.starts_with("season") ? "which season? give its name"
                                                               : "which bot? give its name");
    if (parsed.command == "season add" && !parsed.vm.count("help") && !parsed.vm.count("closes"))
        throw po::error("--closes WHEN is needed: when the season closes");
    return parsed;
}

int run(const Parsed& p) {
    const po::variables_map& vm = p.vm;
    if (p.command == "bot submit")
        return submit_command(vm["token-file"].as<std::string>(), vm["url"].as<std::string>(),
                              vm["archive"].as<std::string>());
    if (p.command == "copy")
        return copy_command(vm["from"].as<std::string>(), vm["to"].as<std::string>(),
                            vm["json"].as<bool>());
    const std::string db = vm["db"].as<std::string>();
    auto opened = Store::open(db, p.command == "bot add" || p.command == "person add");
    if (auto* error = std::get_if<std::string>(&opened)) {
        bg::log::error("{}", *error);
        return exit_database;
    }
    Store& store = *std::get<std::unique_ptr<Store>>(opened);
    const auto json = [&] { return vm.count("json") && vm["json"].as<bool>(); };
    const auto text = [&](const char* name) -> std::optional<std::string> {
        if (!vm.count(name))
            return std::nullopt;
        return vm[name].as<std::string>();
    };
    if (p.command == "bot add") {
        std::optional<double> anchor;
        if (vm.count("anchor"))
            anchor = vm["anchor"].as<double>();
        return bot_add(store, *text("name"), text("owner").value_or(""), text("command"), anchor,
                       text("about").value_or(""));
    }
    if (p.command == "bot about")
        return bot_about(store, *text("name"), *text("about"));
    if (p.command == "season add") {
        const auto number = [&](const char* name) -> std::optional<int> {
            if (!vm.count(name))
                return std::nullopt;
            return vm[name].as<int>();
        };
        return season_add(store, {*text("name"), *text("closes"), text("starts"), text("stages"),
                                  text("finals-sprt"), text("tiers"), number("finalists"),
                                  number("finals-deals")});
    }
    if (p.command == "season list")
        return season_list(store, json());
    if (p.command == "season show")
        return season_show(store, *text("name"), json());
    if (p.command == "bot list")
        return bot_list(store, json());
    if (p.command.starts_with("bot "))
        return bot_change(store, p.command.substr(4), *text("name"));
    if (p.command == "person add")
        return person_add(store, *text("name"));
    if (p.command == "person list")
        return bot_list(store, json(), true);
    if (p.command.starts_with("person "))
        return bot_change(store, p.command.substr(7), *text("name"), true);
    if (p.command == "config")
        return show_config(store, json());
    if (p.command == "standings")
        return standings(store, json(), vm["people"].as<bool>());
    if (p.command == "rerate")
        return rerate_command(store, json());
    if (p.command == "worker")
        return work(store, vm);
    return serve(store, vm);
}

}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);
    bg::log::start("arena", err);
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--version") {
        out.write(bg::version_line("bananagrams-arena") + "\n");
        return exit_done;
    }
    if (first.empty() || first == "--help" || first == "-h" || first == "help") {
        out.write(usage_text);
        std::ostringstream serve_help;
        serve_help << serve_options();
        out.write("\nserve's options:\n" + serve_help.str());
        return first.empty() ? exit_usage : exit_done;
    }
    Parsed parsed;
    try {
        parsed = parse(argc, argv);
    } catch (const po::error& e) {
        bg::log::error("{}\n(arena --help says how to use it)", e.what());
        return exit_usage;
    }
    if (parsed.vm.count("help")) {
        out.write(usage_text);
        if (parsed.command == "serve" || parsed.command == "worker") {
            std::ostringstream help;
            help << (parsed.command == "serve" ? serve_options() : worker_options());
            out.write(fmt::format("\n{}'s options:\n{}", parsed.command, help.str()));
        }
        return exit_done;
    }
    try {
        return run(parsed);
    } catch (const std::exception& e) {
        bg::log::error("the database could not be used: {}", e.what());
        return exit_database;
    }
}
