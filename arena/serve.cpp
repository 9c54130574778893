// arena serve: the shell (arena/shell.hpp) started: its venue (the house bots, the word list,
// the sandbox), its core, its server and its clocks; and stopped.
#include "arena/serve.hpp"

#include <netdb.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "arena/admin.hpp"
#include "arena/api.hpp"
#include "arena/jobs.hpp"
#include "arena/shell.hpp"
#include "arena/web.hpp"
#include "checker/checker.hpp"
#include "core/text.hpp"
#include "match/word_list.hpp"
#include "sql/postgres_connection.hpp"
#include "viewer/pages.hpp"

namespace bg::arena {

namespace po = boost::program_options;

namespace {

constexpr std::uint64_t tick_ms = 200;
// How long a serve waits for the database another arena holds before it gives up.
constexpr int hold_wait_ms = 3000;

// The house bots' commands, the word list, the logs' folder, the players' sandbox and cgroups.
// (The venue, or the exit status; the house bots' commands as its, with their entries.)
std::variant<std::unique_ptr<Venue>, int> open_venue(Store& store, Settings& settings,
                                                     std::vector<House>& houses) {
    // No player may read the arena's database (its tokens' hashes, every deal) or a log, nor
    // the hosted bots' files (each its own only: transport/sandbox.hpp).
    std::vector<std::string> secret_paths = store.private_paths();
    if (!settings.hosting.folder.empty()) {
        std::error_code error;
        std::filesystem::create_directories(settings.hosting.folder, error);
        secret_paths.push_back(settings.hosting.folder);
    }
    VenuePlan plan = players_plan(settings.players, settings.game.dictionary, settings.logs,
                                  std::move(secret_paths));
    std::vector<Bot> house_bots;
    for (const Bot& bot : store.bots())
        if (bot.command) {
            house_bots.push_back(bot);
            plan.commands.push_back(*bot.command);
        }
    auto opened = Venue::open(std::move(plan));
    if (auto* error = std::get_if<std::string>(&opened)) {
        log::error("{}", escape_for_terminal(*error));
        return exit_database;
    }
    auto venue = std::move(std::get<std::unique_ptr<Venue>>(opened));
    if (std::string missing; !checker::has_scenario_words(venue->dictionary(), &missing)) {
        log::error(
            "the word list lacks {}, which the conformance check deals: the arena's bots "
            "cannot be checked on it",
            missing);
        return exit_database;
    }
    if (auto error = venue->prepare_players()) {
        log::error("{}", escape_for_terminal(*error));
        return 5;
    }
    for (std::size_t i = 0; i < house_bots.size(); ++i)
        houses.push_back({house_bots[i].id, static_cast<int>(i),
                          store.entry(house_bots[i], *house_bots[i].command).id});
    settings.game.dictionary_fingerprint = venue->dictionary().stats().fingerprint;
    return venue;
}

// --standby: the signal that ends the wait, if one came.
volatile std::sig_atomic_t stopped_standing_by = 0;

// Whether `address` can be listened on now (no one else there: the arena that served at it is
// gone). Port 0 always can.
bool can_listen(const serve::Address& address) {
    if (address.port == 0)
        return true;
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string port = std::to_string(address.port);
    if (::getaddrinfo(address.host.empty() ? nullptr : address.host.c_str(), port.c_str(), &hints,
                      &found) != 0)
        return true;  // its own listening will say why not
    bool free = true;
    for (addrinfo* a = found; a && free; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0)
            continue;
        const int on = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        free = ::bind(fd, a->ai_addr, a->ai_addrlen) == 0 || errno != EADDRINUSE;
        ::close(fd);
    }
    ::freeaddrinfo(found);
    return free;
}

// Waits, with --standby, for the arena that serves the store to end, and takes it over (true);
// false where SIGTERM or SIGINT came first. Taken only where its address can be listened on:
// else the lock is let go at once (the arena there lives on: after a restart of PostgreSQL it
// may not have taken its lock again yet), and nothing is written.
bool stand_by(Store& store, const serve::Address& address) {
    log::info(
        "standing by: another arena serves this database; this one takes over as it "
        "ends (SIGTERM or SIGINT: no longer)");
    const auto stop = [](int signal) { stopped_standing_by = signal; };
    std::signal(SIGTERM, stop);
    std::signal(SIGINT, stop);
    bool held = false, unreached = false;
    while (!held && !stopped_standing_by) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        try {
            held = store.hold_serving();
            if (held && !can_listen(address)) {
                store.release_serving();
                held = false;
            }
            unreached = false;
        } catch (const std::exception& e) {
            if (!unreached)  // said once, until it answers again
                log::warning("the database cannot be reached while standing by: {}", e.what());
            unreached = true;
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    }
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGINT, SIG_DFL);
    if (held)
        log::info("taking over: the arena that served this database has ended");
    return held;
}

// What an arena that was killed left running: void, and said.
void void_left_running(Store& store) {
    const int voided = store.void_running("the arena stopped before the match ended");
    if (voided > 0)
        log::info("{} match{} left running by an arena that stopped voided", voided,
                  voided == 1 ? "" : "es");
}

// The core, from what the store holds: every account, entry and rated match, the groups of the
// last rated matches, the last matches over.
std::unique_ptr<ArenaCore> core_of(const Store& store, const Settings& settings,
                                   const std::vector<House>& houses) {
    return std::make_unique<ArenaCore>(
        settings.core,
        ArenaCore::Start{read_roster(store), houses,
                         store.recent_groups(static_cast<int>(settings.core.recent_kept)),
                         store.last_over(static_cast<int>(ArenaCore::last_over_kept)),
                         seed_from_the_kernel()});
}

// Each connection is a descriptor: as many as the system lets this process have.
void raise_descriptor_limit() {
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
}

// Chart.js, as libjs-chart.js installs it ("": not there, and said).
std::string chart_js() {
    std::ifstream chart(BG_CHART_JS);
    if (!chart) {
        log::warning("{} cannot be read (libjs-chart.js): the bots' pages draw no chart",
                     BG_CHART_JS);
        return "";
    }
    std::ostringstream text;
    text << chart.rdbuf();
    return text.str();
}

// The loop's lag past its threshold, or back under it.
void say_lag(bool over, const LagWindow::Figures& f) {
    if (over)
        log::warning(
            "the loop ran {:.0f} ms late (its busiest turn of the last minute: {:.0f} ms, {:.0f} "
            "ms of it {}); said again once it is back under {} ms",
            f.max_ms, f.busiest_ms, f.longest_ms, f.longest, lag_threshold_ms);
    else
        log::info("the loop is back under {} ms late (p99 {:.1f} ms over the last minute)",
                  lag_threshold_ms, f.p99_ms);
}

// The server's limits: its WebSocket connections, a hosted bot's archive.
serve::Server::Limits server_limits(const Settings& settings) {
    serve::Server::Limits limits;
    limits.sockets = settings.max_connections;
    limits.upload_bytes = settings.hosting.archive.archive_bytes;
    return limits;
}

// Where the arena is, once it listens.
void say_listening(serve::Address shown, int port) {
    shown.port = port;
    log::info(
        "listening on http://{}/ (the leaderboard; bots connect to ws://{}/bot with their "
        "tokens, people play at http://{}/play, matches are shown at http://{}/live; the API is "
        "under /api/)",
        shown.authority(), shown.authority(), shown.authority(), shown.authority());
}

// The hosted bots, their versions that play among `houses`; none where it cannot host (said).
std::unique_ptr<Hosting> open_hosting(uv_loop_t* loop, Store& store, Venue& venue,
                                      const Settings& settings, std::vector<House>& houses,
                                      std::function<void(const input::Hosted&)> hosted_now) {
    auto hosting = std::make_unique<Hosting>(
        loop, store, venue,
        Hosting::Plan{settings.hosting, settings.game, settings.check_move_ms,
                      std::move(hosted_now), [loop] { return uv_now(loop); },
                      [](const std::string& line) { log::info("{}", line); }});
    auto started = hosting->start();
    if (auto* error = std::get_if<std::string>(&started)) {
        log::error("{}", *error);
        return nullptr;
    }
    hosting->set_facts(
        hosting_json(settings.hosting, settings.players.limits, settings.core.cores).dump());
    // Its workers fetch each version's archive from the store, which kept none before 1.14.0.
    const auto versions = store.hosted();
    for (const House& house : std::get<std::vector<House>>(started)) {
        const auto v = std::find_if(versions.begin(), versions.end(),
                                    [&](const auto& h) { return h.entry == house.entry; });
        if (settings.core.workers && v != versions.end() && !store.jobs().has_archive(v->sha256)) {
            log::warning(
                "version {} of a hosted bot was submitted before the store kept archives: "
                "the workers cannot play it, and it does not play until its author "
                "submits it again",
                v->label);
            continue;
        }
        houses.push_back(house);
    }
    if (settings.core.cores > 0)
        log::info("at most {} players of house and hosted bots at once, a core each (--cores)",
                  settings.core.cores);
    return hosting;
}

}  // namespace

serve::ForPlayers rules_for_players(const Settings& settings, const Dictionary& dictionary) {
    auto for_players =
        serve::for_players(settings.game, settings.core.matchmaker.max_players, dictionary,
                           word_list_name(settings.game.dictionary, dictionary.stats().fingerprint),
                           settings.lobby.grace_ms);
    for_players.rules.fewest_players = 2;
    for_players.rules.people_game_timeout_ms = settings.people_game_timeout_ms;
    return for_players;
}

// ---- starting ----

std::optional<int> ArenaShell::start_server() {
    lobby_ = std::make_unique<Lobby>(
        store_, desk_, [this] { return now(); }, settings_.lobby);
    lobby_->on_note = [](const std::string& line) { log::info("{}", line); };
    lobby_->on_arrive = [this](const Lobby::Arrival& a) {
        feed(input::Arrived{a.connection, a.bot, a.entry, a.opponent, now()});
    };
    lobby_->on_leave = [this](Connection connection) { feed(input::Left{connection}); };
    lobby_->lag = lag_.get();
    checks_ = std::make_unique<Checks>(loop_, desk_, *lobby_, venue_->dictionary(), settings_.game,
                                       settings_.check_move_ms,
                                       [this](const input::Checked& c) { feed(c); });
    auto for_players = rules_for_players(settings_, venue_->dictionary());
    sockets_ = std::make_unique<remote::SeatSockets>(*lobby_, for_players);
    routes_ = std::make_unique<ApiRoutes>(
        Running{[this]() -> const Roster& { return core_->roster(); },
                [this] { return live_of(*core_, matches_); },
                [this] { return core_->settings().matchmaker; }, &store_, fit_.get(), lobby_.get(),
                lag_.get(), [this] { return server_->counts(); }, started_});
    serve::Server::Content content;
    content.title = "arena";
    content.snapshot = [this] { return routes_->leaderboard(false).dump(); };
    content.page = [] { return viewer::arena_board_page(); };
    content.pages = [this](const std::string& path) {
        const LoopLag::Scope scope(lag_.get(), "GET a page");
        return arena_page(store_, path, chart_js_);
    };
    content.sockets = sockets_.get();
    content.closing = restarting_refusal();
    content.for_players = std::move(for_players);
    content.public_stream = true;  // finished matches only
    serve_people(content, settings_.lobby.people_open, *lobby_, lobby_->door().tickets(),
                 lag_.get());
    content.api = [this](const std::string& path) {
        const LoopLag::Scope scope(lag_.get(), routes_->route_of(path));
        return routes_->answer(path);
    };
    serve_hosting(content, *hosting_, store_, lobby_->door());
    Published* published = settings_.shows_fronts ? &store_.published() : nullptr;
    const StreamStart stream = holder_stream(published);
    server_ =
        node_server(loop_, settings_.listen, std::move(content), server_limits(settings_), stream);
    if (!server_)
        return exit_database;
    shows_ = std::make_unique<Shows>(
        *server_, published, [this] { return live_of(*core_, matches_); }, stream);
    say_listening(settings_.listen, server_->port());
    return std::nullopt;
}

// What runs on an arena's loop goes before it, however ArenaShell::run ends, closed while the
// loop is there.
struct ShellTeardown {
    ArenaShell& arena;
    EventLoop& loop;
    ~ShellTeardown() {
        arena.signals_.clear();
        arena.seasons_.reset();
        arena.hosting_.reset();
        arena.checks_.reset();
        arena.matches_.clear();
        arena.leaving_.clear();
        arena.shows_.reset();
        arena.server_.reset();
        arena.sockets_.reset();
        arena.routes_.reset();
        arena.lobby_.reset();
        arena.handed_.reset();  // its watch of the store's socket
        arena.tick_timer_.reset();
        arena.reaper_.reset();
        arena.lag_.reset();
        loop.run();
    }
};

int ArenaShell::run() {
    chart_js_ = chart_js();
    started_ = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
    void_left_running(store_);
    store_.set_matchmaker(settings_.core.matchmaker);
    std::vector<House> houses;
    auto opened = open_venue(store_, settings_, houses);
    if (const int* status = std::get_if<int>(&opened))
        return *status;
    venue_ = std::move(std::get<std::unique_ptr<Venue>>(opened));
    seats_ = std::make_unique<ArenaSeats>(*venue_, desk_, settings_.lobby.grace_ms);
    raise_descriptor_limit();
    EventLoop loop;
    loop_ = loop.get();
    const ShellTeardown teardown{*this, loop};
    hosting_ = open_hosting(loop_, store_, *venue_, settings_, houses,
                            [this](const input::Hosted& hosted) { feed(hosted); });
    if (!hosting_)
        return exit_database;
    core_ = core_of(store_, settings_, houses);
    fit_ = std::make_unique<FitWork>(loop_);
    lag_ = std::make_unique<LoopLag>(loop_, lag_period_ms, lag_threshold_ms, say_lag);
    handed_ = std::make_unique<HandedOut>(
        loop_, store_, settings_, venue_->dictionary().stats().fingerprint,
        [this](Input input) { feed(std::move(input)); }, [this] { return now(); });
    seasons_ = std::make_unique<SeasonKeeper>(
        store_, *venue_, *hosting_,
        SeasonKeeper::Plan{[this]() -> const std::vector<HouseSeats>& { return core_->houses(); },
                           [this](input::Finals finals) { feed(std::move(finals)); }});
    tick_timer_ = std::make_unique<Timer>(loop_, [this] {
        if (!store_.still_serving() && !signal_)  // another arena took it over: this one stops
            for (const char* name : {"the database taken over", "again"})
                feed(input::Signalled{signal_ = SIGTERM, name, now()});
        lobby_->expire();
        handed_->look();
        seasons_->look(now());
        feed(input::Tick{now()});
        shows_->turn();
        if (!server_done_)
            tick_timer_->start(tick_ms);
    });
    reaper_ = std::make_unique<Timer>(loop_, [this] { matches_over(); });
    if (auto status = start_server())
        return *status;
    for (const int signum : {SIGTERM, SIGINT})
        signals_.emplace_back(loop_, signum, [this](int s) {
            if (!signal_)
                signal_ = s;
            feed(input::Signalled{s, fmt::format("SIG{}", sigabbrev_np(s)), now()});
        });
    // SIGHUP: the accounts again from the database, and the house bots added since started.
    signals_.emplace_back(loop_, SIGHUP,
                          [this](int) { feed(reread(store_, *venue_, core_->houses())); });
    tick_timer_->start(0);
    loop.run();
    log::info("closed{}", signal_ ? fmt::format(" (SIG{})", sigabbrev_np(signal_)) : "");
    return exit_done;
}

int serve(Store& store, const po::variables_map& vm) {
    Settings settings;
    try {
        settings = read_settings(vm);
    } catch (const po::error& e) {
        log::error("{}", e.what());
        return exit_usage;
    }
    // Before anything is written (a serve voids the matches left running, which would be
    // another's playing): one arena serves a database. An arena that has just ended lets it go
    // a moment after (PostgreSQL's session ends after its connection): it is waited for.
    bool held = store.hold_serving();
    for (int waited_ms = 0; !held && waited_ms < hold_wait_ms; waited_ms += 100) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        held = store.hold_serving();
    }
    settings.shows_fronts = sql::is_postgresql(vm["db"].as<std::string>());
    if (!held && vm["standby"].as<bool>()) {
        // At an address of its own, on PostgreSQL: a front node meanwhile.
        if (settings.shows_fronts && can_listen(settings.listen)) {
            FrontNode front(store, settings, {chart_js(), say_lag, server_limits(settings)});
            const auto outcome = front.run();
            if (const int* status = std::get_if<int>(&outcome))
                return *status;
            if (!std::get<bool>(outcome))
                return exit_done;
            settings.listen.port = front.port();
            held = true;
        } else {
            held = stand_by(store, settings.listen);
        }
    }
    if (!held && stopped_standing_by)
        return exit_done;
    if (!held) {
        log::error(
            "another arena serves this database: one arena serves a database at a time "
            "(its matches and their ratings in one order are its own); stop it first");
        return exit_database;
    }
    if (settings.core.workers && !sql::is_postgresql(vm["db"].as<std::string>())) {
        log::error(
            "--workers: workers on other machines reach the arena's store, which is then "
            "a PostgreSQL database (--db postgresql://HOST/NAME), not a file");
        return exit_usage;
    }
    if (settings.core.workers)
        log::info(
            "the matches of house and hosted bots alone are played by workers (arena "
            "worker --db ...), as many at once as their cores hold");
    ArenaShell arena(store, std::move(settings));
    return arena.run();
}

}  // namespace bg::arena