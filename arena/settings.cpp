#include "arena/settings.hpp"

#include <sched.h>

#include <algorithm>

#include "cli/log.hpp"
#include "cli/options.hpp"
#include "core/text.hpp"

namespace bg::arena {

namespace po = boost::program_options;

po::options_description serve_options() {
    po::options_description o("serve");
    // clang-format off
    o.add_options()
        ("listen", po::value<std::string>()->value_name("ADDR:PORT"),
         "where bots connect (/bot), people play (/play), the pages (/, /live...) and the API "
         "(/api/...) are served; port 0: any free one, said")
        ("logs", po::value<std::string>()->value_name("DIR"),
         "keep every game's event log there (match-NNNNNN-R.jsonl), and its players' stderr")
        ("max-players", po::value<std::string>()->value_name("N")->default_value("4"),
         "the most seats at a table, 2 to 8")
        ("max-wait", po::value<double>()->value_name("SEC")->default_value(30),
         "after this long waiting a bot plays at a table of fewer seats rather than wait on")
        ("concurrency", po::value<std::string>()->value_name("N")->default_value("2"),
         "matches played at once")
        ("house-seats", po::value<std::string>()->value_name("N")->default_value("1"),
         "matches at once of each house bot")
        ("connections-per-bot", po::value<std::string>()->value_name("N")->default_value("4"),
         "a remote bot's connections at once (each one its own match): more are refused (429)")
        ("connections-a-minute", po::value<std::string>()->value_name("N")->default_value("30"),
         "a remote bot's new connections in any minute: more are refused (429, with the seconds "
         "to wait)")
        ("matches-a-day", po::value<std::string>()->value_name("N")->default_value("0"),
         "a remote bot's matches in any 24 hours, 0 for no limit: past it, its connections are "
         "closed after their match and refused (429, with the seconds to wait)")
        ("failures-a-minute", po::value<std::string>()->value_name("N")->default_value("10"),
         "wrong tokens or codes from one address in any minute: past it, every connection from "
         "there is refused (429, with the seconds to wait) before its token is looked up")
        ("max-connections", po::value<std::string>()->value_name("N")->default_value("64"),
         "WebSocket connections at once, of all bots and people: more are refused (503)")
        ("people", po::value<std::string>()->value_name("open|closed")->default_value("closed"),
         "people play from /play with the accounts the organiser made (arena person add), or, "
         "open, may also sign up there")
        ("check-move-timeout", po::value<double>()->value_name("SEC")->default_value(120),
         "how long the conformance check waits for each of a remote bot's moves (its first "
         "message waits --ready-timeout): a bot at a person's pace passes (the reference bot's "
         "level 1 takes 90 s over its first grid)")
        ("people-game-timeout", po::value<double>()->value_name("SEC")->default_value(1200),
         "a game with a person at it ends after this long (--game-timeout ends one of bots "
         "alone): a person at a person's pace needs 8 to 10 minutes")
        ("hosted", po::value<std::string>()->value_name("DIR"),
         "host bots whose authors submit their code (POST /api/bots/NAME/versions): their "
         "archives are unpacked there, and run in the player sandbox (which this needs)")
        ("submissions-a-day", po::value<std::string>()->value_name("N")->default_value("5"),
         "a hosted bot's versions submitted in any 24 hours: more are refused (429, with the "
         "seconds to wait)")
        ("archive-limit", po::value<std::string>()->value_name("MIB")->default_value("16"),
         "a hosted bot's archive, as submitted, at most (413 past it)")
        ("unpacked-limit", po::value<std::string>()->value_name("MIB")->default_value("64"),
         "a hosted bot's files, unpacked, at most (413 past it)")
        ("archive-entries", po::value<std::string>()->value_name("N")->default_value("2000"),
         "a hosted bot's files and folders, at most (413 past it)")
        ("cores", po::value<std::string>()->value_name("N"),
         "the players the arena runs itself (house and hosted bots) at once, at most, so that "
         "each has a core; where it hosts bots, the CPUs it may use by default (at least 2), "
         "else not limited")
        ("standby", po::bool_switch(),
         "where another arena serves the database, wait, and take over as it ends (its "
         "matches left running voided, its workers' matches played on by the same workers); "
         "on PostgreSQL at an address of its own, a front node meanwhile, which answers the "
         "pages, the API and the stream as that arena does, and seats remote bots and people "
         "(its --cores: for the house and hosted bots at their tables)")
        ("workers", po::bool_switch(),
         "the matches of house and hosted bots alone are played by workers (arena worker) on "
         "any machines that reach the store, which is then PostgreSQL; the arena plays those "
         "with a remote bot or a person, and checks hosted versions, itself")
        ("stop-grace", po::value<double>()->value_name("SEC")->default_value(120),
         "after SIGTERM or SIGINT, how long the matches playing may take to finish before "
         "they are voided (a match's next game begins only where it would end within it)");
    // clang-format on
    options::add_remote_grace(o);
    options::add_game(o);
    o.add(options::sandbox()).add(options::shares());
    return o;
}

int cpus_here() {
    cpu_set_t set;
    CPU_ZERO(&set);
    return ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

PlayersMachine read_players(const po::variables_map& vm) {
    PlayersMachine players;
    SandboxConfig sandbox;
    const bool sandboxed = options::read_sandbox(vm, sandbox);
    players.shares = options::read_shares(vm, sandbox);
    players.limits = sandbox.limits;
    if (sandboxed)
        players.sandbox = sandbox;
    return players;
}

VenuePlan players_plan(const PlayersMachine& players, const std::string& dictionary,
                       const std::string& logs, std::vector<std::string> secret_paths) {
    VenuePlan plan;
    plan.dictionary = dictionary;
    plan.sandbox = players.sandbox;
    plan.secret_paths = std::move(secret_paths);
    plan.log_folder = logs;
    plan.shares = players.shares;
    plan.limits = player_limits(players.limits);
    plan.note = [](const std::string& line) { log::info("{}", line); };
    return plan;
}

namespace {

void read_hosting(const po::variables_map& vm, Settings& s) {
    if (vm.count("hosted")) {
        s.hosting.folder = vm["hosted"].as<std::string>();
        if (s.hosting.folder.empty())
            throw po::error("--hosted DIR: a folder is needed");
        if (!s.players.sandbox)
            throw po::error(
                "--hosted runs its authors' code in the player sandbox: it cannot go with "
                "--no-sandbox");
    }
    s.hosting.submissions_a_day =
        static_cast<int>(options::count(vm, "submissions-a-day", 1, 10'000));
    s.hosting.archive.archive_bytes = options::count(vm, "archive-limit", 1, 1024) << 20;
    s.hosting.archive.unpacked_bytes = options::count(vm, "unpacked-limit", 1, 65'536) << 20;
    s.hosting.archive.entries = options::count(vm, "archive-entries", 1, 1'000'000);
    if (vm.count("cores"))
        s.core.cores = static_cast<int>(options::count(vm, "cores", 2, 100'000));
    else if (!s.hosting.folder.empty())
        s.core.cores = std::max(2, cpus_here());
}

}  // namespace

Settings read_settings(const po::variables_map& vm) {
    Settings s;
    if (!vm.count("listen"))
        throw po::error("--listen ADDR:PORT is needed: where bots connect and the API answers");
    auto address = serve::parse_address(vm["listen"].as<std::string>());
    if (auto* why = std::get_if<std::string>(&address))
        throw po::error("--listen: " + *why);
    s.listen = std::get<serve::Address>(address);
    if (vm.count("logs"))
        s.logs = vm["logs"].as<std::string>();
    s.core.matchmaker.max_players = static_cast<int>(options::count(vm, "max-players", 2, 8));
    s.core.matchmaker.max_wait_ms = options::milliseconds(vm, "max-wait", false);
    s.core.concurrency = static_cast<int>(options::count(vm, "concurrency", 1, 100'000));
    s.core.house_seats = static_cast<int>(options::count(vm, "house-seats", 1, 100));
    s.lobby.connections_per_bot =
        static_cast<int>(options::count(vm, "connections-per-bot", 1, 100));
    s.lobby.connections_a_minute =
        static_cast<int>(options::count(vm, "connections-a-minute", 1, 10'000));
    s.lobby.matches_a_day = static_cast<int>(options::count(vm, "matches-a-day", 0, 1'000'000));
    s.lobby.failures_a_minute =
        static_cast<int>(options::count(vm, "failures-a-minute", 1, 10'000));
    s.max_connections = static_cast<int>(options::count(vm, "max-connections", 1, 100'000));
    const std::string people = vm["people"].as<std::string>();
    if (people != "open" && people != "closed")
        throw po::error("--people must be open or closed, not '" + escape_for_terminal(people) +
                        "'");
    s.lobby.people_open = people == "open";
    s.lobby.grace_ms = options::read_remote_grace(vm);
    s.check_move_ms = options::milliseconds(vm, "check-move-timeout", false);
    s.people_game_timeout_ms = options::milliseconds(vm, "people-game-timeout", false);
    s.core.stop_grace_ms = options::milliseconds(vm, "stop-grace", true);
    options::read_game(vm, s.game);
    s.core.loop_stall_bar_ms = std::max<std::uint64_t>(s.game.ready_timeout_ms / 10, 1);
    s.players = read_players(vm);
    read_hosting(vm, s);
    s.core.workers = vm["workers"].as<bool>();
    return s;
}

GameSetup game_of(const Settings& settings, const std::vector<MatchSeat>& seats) {
    GameSetup game = settings.game;
    game.game_timeout_ms =
        game_clock(seats, settings.game.game_timeout_ms, settings.people_game_timeout_ms);
    return game;
}

}  // namespace bg::arena
