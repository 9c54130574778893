#include "arena/serve.hpp"

#include <sys/random.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "arena/admin.hpp"
#include "arena/api.hpp"
#include "arena/ladder.hpp"
#include "arena/lobby.hpp"
#include "arena/match_play.hpp"
#include "arena/web.hpp"
#include "checker/checker.hpp"
#include "cli/options.hpp"
#include "core/text.hpp"
#include "match/venue.hpp"
#include "match/word_list.hpp"
#include "record/json_value.hpp"
#include "remote/desk.hpp"
#include "remote/remote_seat.hpp"
#include "remote/seat_sockets.hpp"
#include "remote/token.hpp"
#include "serve/server.hpp"
#include "transport/handles.hpp"
#include "viewer/pages.hpp"

namespace bg::arena {

namespace po = boost::program_options;

namespace {

constexpr std::uint64_t tick_ms = 200;
constexpr std::uint64_t logs_held_ms = 5'000;
constexpr int faults_to_pause = 3;  // matches in a row a bot is out of for its own fault
constexpr int check_scenarios = 3;  // the checker's games, at most
// A checked bot is connected already: its seat is given at once, and it has this long to start
// its process for each scenario (besides the game's --ready-timeout for each message).
constexpr std::uint64_t check_connect_ms = 10'000;
constexpr std::size_t recent_kept = 200;
// At the arena's end, how long its connections have to close once told there are no more games
// (a loaded machine's bots take a while to answer; a connection that never does is cut).
constexpr std::uint64_t close_grace_ms = 10'000;

struct Settings {
    serve::Address listen;
    std::string logs;
    MatchmakerConfig matchmaker;
    int concurrency = 2;  // matches at once
    int house_seats = 1;  // matches at once of each house bot
    Lobby::Options lobby;
    std::uint64_t stop_grace_ms = 20'000;
    int max_connections = 64;  // WebSocket connections at once, of everyone
    GameSetup game;
    std::optional<SandboxConfig> sandbox;
    cgroups::Shares shares;
    SandboxLimits limits;
};

// A match's entrants' names, in the order of their first seats.
std::vector<std::string> entrant_names(const std::vector<Entrant>& entrants) {
    std::vector<std::string> names;
    for (const Entrant& e : entrants)
        names.push_back(e.bot.name);
    return names;
}

std::uint64_t random_seed() {
    std::uint64_t seed = 0;
    if (::getrandom(&seed, sizeof seed, 0) != static_cast<ssize_t>(sizeof seed))
        throw std::runtime_error("the kernel's random source cannot be read");
    return seed;
}

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
    s.matchmaker.max_players = static_cast<int>(options::count(vm, "max-players", 2, 8));
    s.matchmaker.max_wait_ms = options::milliseconds(vm, "max-wait", false);
    s.concurrency = static_cast<int>(options::count(vm, "concurrency", 1, 1000));
    s.house_seats = static_cast<int>(options::count(vm, "house-seats", 1, 100));
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
    s.stop_grace_ms = options::milliseconds(vm, "stop-grace", true);
    options::read_game(vm, s.game);
    SandboxConfig sandbox;
    const bool sandboxed = options::read_sandbox(vm, sandbox);
    s.shares = options::read_shares(vm, sandbox);
    s.limits = sandbox.limits;
    if (sandboxed)
        s.sandbox = sandbox;
    return s;
}

// The seats of the arena's matches: a house bot's process from the venue (its command is the
// venue's), a remote bot's at the desk, under the token of its connection's match (numbered
// from `remote_commands` up, above every house bot's, however many are added).
class ArenaSeats final : public SeatSource {
  public:
    static constexpr int remote_commands = 1 << 24;
    ArenaSeats(const Venue& venue, remote::Desk& desk)
        : venue_(venue), desk_(desk), next_(remote_commands) {}
    int add_remote(const std::string& seat_token) {
        remote_[next_] = seat_token;
        return next_++;
    }
    void remove(int command) { remote_.erase(command); }
    std::unique_ptr<Seat> seat(const Request& request) const override {
        const auto remote = remote_.find(request.command);
        if (remote == remote_.end())
            return venue_.seat(request);
        remote::RemoteSeat::Options options;
        options.grace_ms = 0;  // a bot comes back to /bot, not to a seat: its player has left
        return std::make_unique<remote::RemoteSeat>(request.loop, desk_, remote->second, options);
    }
    bool one_game_at_a_time(int command) const override { return remote_.count(command) > 0; }

  private:
    const Venue& venue_;
    remote::Desk& desk_;
    int next_;
    std::map<int, std::string> remote_;
};

class Arena {
  public:
    Arena(Store& store, std::string db_path, Settings settings)
        : store_(store), db_path_(std::move(db_path)), settings_(std::move(settings)) {}
    int run();

  private:
    struct House {
        Bot bot;
        int command = 0;
        int in_use = 0;
    };
    std::optional<int> open_venue();
    std::optional<int> start_server(uv_loop_t* loop);
    void tick();
    void make_matches();
    // The database could not be written (`what`: why): said once until it can be again.
    void store_failed(const std::string& what);
    // Matches that could not be recorded as they ended (their state left running): voided as
    // soon as the database can be written again.
    void void_unrecorded();
    void store_written();
    void start_match(const std::vector<int>& table,
                     const std::vector<std::pair<const Lobby::Queued*, House*>>& sources);
    void start_check(const Lobby::Queued& queued);
    void check_over(const std::string& seat_token, const checker::Outcome& outcome);
    void match_over();
    void record(MatchPlay& match);
    void rate(MatchPlay& match);
    void note_faults(MatchPlay& match);
    void release(MatchPlay& match);
    // A rated match's group, for the matchmaker to avoid (the last `recent_kept`).
    void remember(RecentMatch group) {
        recent_.push_back(std::move(group));
        if (recent_.size() > recent_kept)
            recent_.pop_front();
    }
    void stop(int signal);
    void reload();
    void finish_if_done();
    std::optional<std::string> api(const std::string& path);
    nlohmann::json queue_json() const;
    nlohmann::json live_json() const;
    nlohmann::json server_json() const;
    void each_doing(const std::function<void(const Bot&, const char*)>& f) const;
    // What each account with a connection or a house seat in use is doing (api.hpp).
    Statuses statuses() const;
    // A "status" event on the stream when what the accounts are doing has changed.
    void publish_statuses();
    template <class... Args>
    void note(fmt::format_string<Args...> format, Args&&... args) {
        log::info("{}", fmt::format(format, std::forward<Args>(args)...));
    }

    Store& store_;
    std::string db_path_;
    Settings settings_;
    uv_loop_t* loop_ = nullptr;
    remote::Desk desk_;
    std::unique_ptr<Lobby> lobby_;
    std::unique_ptr<Venue> venue_;
    std::unique_ptr<ArenaSeats> seats_;
    std::unique_ptr<remote::SeatSockets> sockets_;
    std::unique_ptr<serve::Server> server_;
    std::vector<House> houses_;
    std::vector<std::unique_ptr<MatchPlay>> playing_;
    std::vector<std::unique_ptr<MatchPlay>> leaving_;  // over, their players going
    // Conformance checks under way, by their seats' token.
    struct Checking {
        Lobby::Queued queued;
        std::ostringstream report;
        std::unique_ptr<checker::Run> run;
    };
    std::map<std::string, std::unique_ptr<Checking>> checking_;
    std::deque<RecentMatch> recent_;
    std::map<int, int> faults_;  // by bot: matches in a row it was out of for its own fault
    std::unique_ptr<Timer> tick_timer_, reaper_, stop_timer_;
    std::vector<SignalWatch> signals_;
    std::uint64_t seed_ = random_seed();
    int signal_ = 0;
    bool server_done_ = false;
    Statuses published_;    // as the last status event said
    std::string chart_js_;  // Chart.js, for the bots' pages ("": not installed)
    std::vector<int> unrecorded_;
    // A game's log could not be written (a full disk): no match begins before this (ms, the
    // loop's clock), rather than one after another voided at once.
    std::uint64_t logs_held_until_ = 0;
    bool store_failing_ = false;  // said so, and not yet written since
    std::string started_;         // when this arena began serving (UTC)
};

// The house bots' commands, the word list, the logs' folder, the players' sandbox and cgroups.
std::optional<int> Arena::open_venue() {
    VenuePlan plan;
    plan.dictionary = settings_.game.dictionary;
    for (const Bot& bot : store_.bots())
        if (bot.command) {
            houses_.push_back({bot, static_cast<int>(plan.commands.size()), 0});
            plan.commands.push_back(*bot.command);
        }
    plan.sandbox = settings_.sandbox;
    // No player may read the arena's database (its tokens' hashes, every deal) or a log.
    for (const std::string suffix : {"", "-wal", "-shm"})
        if (std::filesystem::exists(db_path_ + suffix))
            plan.secret_paths.push_back(db_path_ + suffix);
    plan.log_folder = settings_.logs;
    plan.shares = settings_.shares;
    plan.limits = player_limits(settings_.limits);
    plan.note = [this](const std::string& line) { note("{}", line); };
    auto opened = Venue::open(std::move(plan));
    if (auto* error = std::get_if<std::string>(&opened)) {
        note("{}", escape_for_terminal(*error));
        return exit_database;
    }
    venue_ = std::move(std::get<std::unique_ptr<Venue>>(opened));
    if (std::string missing; !checker::has_scenario_words(venue_->dictionary(), &missing)) {
        note(
            "the word list lacks {}, which the conformance check deals: the arena's bots "
            "cannot be checked on it",
            missing);
        return exit_database;
    }
    if (auto error = venue_->prepare_players()) {
        note("{}", escape_for_terminal(*error));
        return 5;
    }
    seats_ = std::make_unique<ArenaSeats>(*venue_, desk_);
    settings_.game.dictionary_fingerprint = venue_->dictionary().stats().fingerprint;
    return std::nullopt;
}

std::optional<int> Arena::start_server(uv_loop_t* loop) {
    lobby_ = std::make_unique<Lobby>(
        store_, desk_, [loop] { return uv_now(loop); }, settings_.lobby);
    lobby_->on_note = [this](const std::string& line) { note("{}", line); };
    lobby_->on_queue = [this] { tick_timer_->start(0); };
    lobby_->on_check = [this](const Lobby::Queued& queued) { start_check(queued); };
    const Dictionary& dictionary = venue_->dictionary();
    auto for_players = serve::for_players(
        settings_.game, settings_.matchmaker.max_players, dictionary,
        word_list_name(settings_.game.dictionary, dictionary.stats().fingerprint), 0);
    sockets_ = std::make_unique<remote::SeatSockets>(*lobby_, for_players);
    serve::Server::Content content;
    content.title = "arena";
    content.snapshot = [this] { return leaderboard_json(store_, false, statuses()).dump(); };
    content.page = [] { return viewer::arena_board_page(); };
    content.pages = [this](const std::string& path) { return arena_page(store_, path, chart_js_); };
    content.sockets = sockets_.get();
    content.for_players = std::move(for_players);
    content.public_stream = true;  // finished matches only
    content.play = [open = settings_.lobby.people_open] {
        return viewer::play_page({{"people_open", open}});
    };
    content.api = [this](const std::string& path) { return api(path); };
    serve::Server::Limits limits;
    limits.sockets = settings_.max_connections;
    auto started = serve::Server::start(loop, settings_.listen, std::move(content), limits);
    if (auto* error = std::get_if<std::string>(&started)) {
        note("cannot listen on {}: {}", settings_.listen.authority(), *error);
        return exit_database;
    }
    server_ = std::move(std::get<std::unique_ptr<serve::Server>>(started));
    serve::Address shown = settings_.listen;
    shown.port = server_->port();
    note(
        "listening on http://{}/ (the leaderboard; bots connect to ws://{}/bot with their "
        "tokens, people play at http://{}/play, matches are shown at http://{}/live; the API is "
        "under /api/)",
        shown.authority(), shown.authority(), shown.authority(), shown.authority());
    return std::nullopt;
}

int Arena::run() {
    if (std::ifstream chart(BG_CHART_JS); chart) {
        std::ostringstream text;
        text << chart.rdbuf();
        chart_js_ = text.str();
    } else {
        note("{} cannot be read (libjs-chart.js): the bots' pages draw no chart", BG_CHART_JS);
    }
    started_ = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
    const int voided = store_.void_running("the arena stopped before the match ended");
    if (voided > 0)
        note("{} match{} left running by an arena that stopped voided", voided,
             voided == 1 ? "" : "es");
    store_.set_matchmaker(settings_.matchmaker);
    for (RecentMatch& group : store_.recent_groups(static_cast<int>(recent_kept)))
        remember(std::move(group));
    if (auto status = open_venue())
        return *status;
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    EventLoop loop;
    loop_ = loop.get();
    // What runs on the loop goes before the loop does, however this ends: its handles are closed
    // while their loop is there to close them.
    struct Release {
        Arena& arena;
        EventLoop& loop;
        ~Release() {
            arena.signals_.clear();
            arena.checking_.clear();
            arena.playing_.clear();
            arena.leaving_.clear();
            arena.server_.reset();
            arena.sockets_.reset();
            arena.lobby_.reset();
            arena.tick_timer_.reset();
            arena.reaper_.reset();
            arena.stop_timer_.reset();
            loop.run();
        }
    } release{*this, loop};
    tick_timer_ = std::make_unique<Timer>(loop_, [this] { tick(); });
    reaper_ = std::make_unique<Timer>(loop_, [this] { match_over(); });
    stop_timer_ = std::make_unique<Timer>(loop_, [this] {
        for (auto& match : playing_)
            match->abort(SIGTERM);
    });
    if (auto status = start_server(loop_))
        return *status;
    for (const int signum : {SIGTERM, SIGINT})
        signals_.emplace_back(loop_, signum, [this](int s) { stop(s); });
    signals_.emplace_back(loop_, SIGHUP, [this](int) { reload(); });
    tick_timer_->start(0);
    loop.run();
    note("closed{}", signal_ ? fmt::format(" (SIG{})", sigabbrev_np(signal_)) : "");
    return exit_done;
}

// The matchmaker's turn: whoever waits (the lobby's connections, the house bots' free seats),
// made into tables, each a match, as long as there is room for one more. A database that cannot
// be written (a full disk) begins no match: the queue waits, and the next turn tries again.
void Arena::tick() {
    publish_statuses();
    try {
        void_unrecorded();
        make_matches();
    } catch (const std::exception& e) {
        store_failed(e.what());
    }
    if (!signal_)
        tick_timer_->start(tick_ms);
}

void Arena::store_failed(const std::string& what) {
    if (!store_failing_)
        note("the database cannot be written: {} (no match begins until it can)",
             escape_for_terminal(what));
    store_failing_ = true;
}

void Arena::void_unrecorded() {
    while (!unrecorded_.empty()) {
        const int id = unrecorded_.back();
        store_.void_match(id, "its result could not be stored as it ended");
        unrecorded_.pop_back();
        store_written();
        note("match {} void: its result could not be stored as it ended", id);
        if (auto json = match_json(store_, id); json && server_)
            server_->publish("match", json->dump());
    }
}

void Arena::store_written() {
    if (store_failing_)
        note("the database can be written again");
    store_failing_ = false;
}

void Arena::make_matches() {
    if (signal_ || static_cast<int>(playing_.size()) >= settings_.concurrency ||
        uv_now(loop_) < logs_held_until_)
        return;
    std::map<int, Entry> entries;
    for (const Entry& e : store_.entries())
        entries[e.id] = e;
    std::vector<Waiting> queue;
    std::vector<std::pair<const Lobby::Queued*, House*>> sources;
    const auto add = [&](const Bot& bot, const Entry& entry, std::uint64_t since, bool filler,
                         int wants) {
        const Entry& now = entries.count(entry.id) ? entries[entry.id] : entry;
        queue.push_back({now.id, bot.owner, now.belief.mu, now.belief.sigma, now.matches, since,
                         filler, wants});
    };
    std::map<std::string, Entry> house_entries;  // by name: the house bots that play now
    for (House& house : houses_)
        if (house.bot.state == "active" && house.bot.paused.empty())
            house_entries[house.bot.name] = store_.entry(house.bot, *house.bot.command);
    // A copy: each match begun takes its connections out of the lobby's queue, which would move
    // what the later tables' sources point at.
    const std::vector<Lobby::Queued> waiting = lobby_->queue();
    for (const Lobby::Queued& q : waiting) {
        // A person who chose a house bot plays it alone (one that no longer plays: never).
        const auto chosen = house_entries.find(q.opponent);
        const int wants = q.opponent.empty()              ? 0
                          : chosen == house_entries.end() ? -1
                                                          : chosen->second.id;
        add(q.bot, q.entry, q.since_ms, false, wants);
        sources.emplace_back(&q, nullptr);
    }
    for (House& house : houses_) {
        const auto entry = house_entries.find(house.bot.name);
        if (entry == house_entries.end())
            continue;
        for (int free = settings_.house_seats - house.in_use; free > 0; --free) {
            add(house.bot, entry->second, 0, true, 0);
            sources.emplace_back(nullptr, &house);
        }
    }
    const std::vector<RecentMatch> recent(recent_.begin(), recent_.end());
    const auto tables = make_tables(queue, recent, settings_.matchmaker, uv_now(loop_), seed_++);
    for (const auto& table : tables) {
        if (static_cast<int>(playing_.size()) >= settings_.concurrency)
            break;
        start_match(table, sources);
    }
}

void Arena::start_match(const std::vector<int>& table,
                        const std::vector<std::pair<const Lobby::Queued*, House*>>& sources) {
    MatchPlay::Plan plan;
    plan.seed = random_seed();
    plan.id = store_.begin_match(plan.seed);
    store_written();
    plan.base = settings_.game;
    plan.logs = settings_.logs;
    std::vector<Lobby::Sitter*> taken;
    for (const int index : table) {
        const auto& [queued, house] = sources[static_cast<std::size_t>(index)];
        Entrant e;
        if (house) {
            e.bot = house->bot;
            e.entry = store_.entry(house->bot, *house->bot.command);
            e.command = house->command;
            ++house->in_use;
        } else {
            e.bot = queued->bot;
            e.entry = queued->entry;
            e.seat_token = remote::draw_token();
            e.command = seats_->add_remote(e.seat_token);
            taken.push_back(queued->sitter);
        }
        plan.entrants.push_back(std::move(e));
    }
    // Taken from the queue last: the sources point into it.
    const int games = static_cast<int>(plan.entrants.size());
    for (std::size_t i = 0, t = 0; i < plan.entrants.size(); ++i)
        if (!plan.entrants[i].seat_token.empty())
            lobby_->take(taken[t++], plan.entrants[i].seat_token, games);
    const std::vector<std::string> bots = entrant_names(plan.entrants);
    note("match {} begins: {}", plan.id, fmt::join(bots, ", "));
    server_->publish(
        "begin",
        nlohmann::json{{"version", api_version}, {"match", plan.id}, {"bots", bots}}.dump());
    auto match = std::make_unique<MatchPlay>(loop_, *venue_, *seats_, std::move(plan),
                                             [this] { reaper_->start(0); });
    MatchPlay& started = *match;
    playing_.push_back(std::move(match));
    if (const std::string error = started.start(); !error.empty()) {
        note("match {} could not begin: {}", started.plan().id, escape_for_terminal(error));
        reaper_->start(0);
    }
}

// A connection of a version not yet checked, or of a paused bot: the checker's scenarios
// (host --check's), each a seat of the connection's own, on this loop beside the matches.
void Arena::start_check(const Lobby::Queued& queued) {
    const std::string token = remote::draw_token();
    auto checking = std::make_unique<Checking>();
    checking->queued = queued;
    lobby_->take_to_check(queued, token, check_scenarios);
    checker::Options options;
    options.command = fmt::format("{}{}", queued.bot.name,
                                  queued.entry.label.empty() ? "" : " " + queued.entry.label);
    options.seat = [this, token](uv_loop_t* loop) -> std::unique_ptr<Seat> {
        remote::RemoteSeat::Options seat;
        seat.grace_ms = 0;  // as a match's: a bot that drops its connection has left
        return std::make_unique<remote::RemoteSeat>(loop, desk_, token, seat);
    };
    options.connect_ms = check_connect_ms;
    options.dictionary = &venue_->dictionary();
    options.legacy_dialect = settings_.game.dialect;
    options.wait_ms = settings_.game.ready_timeout_ms;
    options.grace_ms = settings_.game.kill_grace_ms;
    Checking& made = *checking;
    checking_[token] = std::move(checking);
    made.run = std::make_unique<checker::Run>(
        loop_, std::move(options), made.report,
        [this, token](const checker::Outcome& outcome) { check_over(token, outcome); });
}

void Arena::check_over(const std::string& seat_token, const checker::Outcome& outcome) {
    const auto found = checking_.find(seat_token);
    if (found == checking_.end())
        return;
    const std::unique_ptr<Checking> checking = std::move(found->second);
    checking_.erase(found);
    const Lobby::Queued& queued = checking->queued;
    const bool passed = outcome.failed == 0 && outcome.passed > 0;
    std::string why;
    if (!passed && outcome.first_failed) {
        const checker::Check& failed = *outcome.first_failed;
        why = failed.name + (failed.hint.empty() ? "" : " (" + failed.hint + ")");
    } else if (!passed) {
        why = "no check was made";
    }
    try {
        store_.record_check(queued.entry, passed, why);
    } catch (const std::exception& e) {
        note("bot {}: its check could not be recorded: {}", queued.bot.name, e.what());
    }
    const std::string version =
        queued.entry.label.empty() ? "" : " " + escape_for_terminal(queued.entry.label);
    if (passed) {
        note("bot {}{} passed its check ({} checks){}", queued.bot.name, version, outcome.passed,
             queued.bot.paused.empty() ? "" : ": no longer paused");
    } else {
        note("bot {}{} failed its check, not queued: {}", queued.bot.name, version,
             escape_for_terminal(why));
    }
    // The connection is told the check that failed (a close frame's reason, which the server
    // cuts to fit); the whole reason, with its hint, is in the API.
    const std::string told = outcome.first_failed ? fmt::format("failed the arena's check: {}",
                                                                outcome.first_failed->name)
                                                  : std::string("failed the arena's check");
    lobby_->check_over(seat_token, passed, told);
}

// Matches over: each rated or voided, its players let go; and those let go swept once gone.
void Arena::match_over() {
    for (auto it = playing_.begin(); it != playing_.end();) {
        if (!(*it)->over()) {
            ++it;
            continue;
        }
        record(**it);
        release(**it);
        (*it)->dismiss();
        leaving_.push_back(std::move(*it));
        it = playing_.erase(it);
    }
    std::erase_if(leaving_, [](const auto& match) { return match->finished(); });
    if (!leaving_.empty())
        reaper_->start(100);
    if (!signal_)
        tick_timer_->start(0);
    finish_if_done();
}

void Arena::record(MatchPlay& match) {
    const int id = match.plan().id;
    bool recorded = false;
    try {
        if (match.complete()) {
            rate(match);
            recorded = true;
            note_faults(match);
        } else {
            store_.void_match(id, match.why());
            recorded = true;
            note("match {} void: {}", id, escape_for_terminal(match.why()));
            if (match.logs_failed()) {
                if (uv_now(loop_) >= logs_held_until_)
                    note("no match begins for {} s: the games' logs cannot be written",
                         logs_held_ms / 1000);
                logs_held_until_ = uv_now(loop_) + logs_held_ms;
            }
        }
        store_written();
    } catch (const std::exception& e) {
        // The database could not be written: a match not rated is voided as soon as it can be
        // (or by the next start, if this arena stops first).
        note("match {} could not be recorded: {}", id, escape_for_terminal(e.what()));
        store_failed(e.what());
        if (!recorded)
            unrecorded_.push_back(id);
    }
    if (auto json = match_json(store_, id); json && server_)
        server_->publish("match", json->dump());
}

// Each account doing something now, with what: queued (a connection waiting), being checked, or
// playing (a house bot's seats too, whose matches are among those playing).
void Arena::each_doing(const std::function<void(const Bot&, const char*)>& f) const {
    if (lobby_)
        for (const Lobby::Queued& q : lobby_->queue())
            f(q.bot, "queued");
    for (const auto& [token, checking] : checking_)
        f(checking->queued.bot, "checking");
    for (const auto& match : playing_)
        for (const Entrant& e : match->plan().entrants)
            f(e.bot, "playing");
}

Statuses Arena::statuses() const {
    Statuses now;
    each_doing([&](const Bot& bot, const char* status) { now[bot.id] = status; });
    return now;
}

void Arena::publish_statuses() {
    Statuses now = statuses();
    if (now == published_ || !server_)
        return;
    published_ = std::move(now);
    nlohmann::json said = nlohmann::json::object();
    each_doing([&](const Bot& bot, const char* status) { said[bot.name] = status; });
    server_->publish("status", nlohmann::json{{"version", api_version}, {"statuses", said}}.dump());
}

// One result for the match (match_ranks: each entrant's places summed over the rotations), its
// entrants' ratings updated from their ratings now, stored with its games in one transaction.
void Arena::rate(MatchPlay& match) {
    const auto& entrants = match.plan().entrants;
    const std::vector<int> ranks = match_ranks(match.places());
    std::map<int, Entry> now;
    for (const Entry& e : store_.entries())
        now[e.id] = e;
    std::vector<stats::Entrant> rating;
    for (std::size_t i = 0; i < entrants.size(); ++i)
        rating.push_back(
            {now.at(entrants[i].entry.id).belief, ranks[i], entrants[i].bot.anchor.has_value()});
    const auto after = stats::rate(rating, store_.model());
    std::vector<Rated> rated;
    std::string said;
    for (std::size_t i = 0; i < entrants.size(); ++i) {
        rated.push_back(
            {entrants[i].entry.id, static_cast<int>(i), ranks[i], rating[i].belief, after[i]});
        said += fmt::format("{}{} {} ({:.2f} -> {:.2f})", said.empty() ? "" : ", ",
                            entrants[i].bot.name, ranks[i], rating[i].belief.mu, after[i].mu);
    }
    store_.rate_match(match.plan().id, rated, match.games());
    RecentMatch group;
    for (const Entrant& e : entrants)
        group.push_back(e.entry.id);
    remember(std::move(group));
    note("match {} rated: {}", match.plan().id, said);
}

// A bot out of a match's game for its own fault, `faults_to_pause` matches in a row, is paused
// with the reason: not matched again until the organiser enables it.
void Arena::note_faults(MatchPlay& match) {
    const auto faults = match.faults();
    const auto& entrants = match.plan().entrants;
    for (std::size_t i = 0; i < entrants.size(); ++i) {
        const Bot& bot = entrants[i].bot;
        // A person is not paused: one who leaves, or is too slow, loses the game, no more.
        if (bot.person || !faults[i] || *faults[i] == OutCode::other) {
            faults_[bot.id] = 0;
            continue;
        }
        if (++faults_[bot.id] < faults_to_pause)
            continue;
        const std::string why =
            fmt::format("out of {} matches in a row for its own fault, the last: {}",
                        faults_to_pause, label(*faults[i]));
        store_.set_paused(bot.id, why);
        for (House& house : houses_)
            if (house.bot.id == bot.id)
                house.bot.paused = why;
        faults_[bot.id] = 0;
        lobby_->turn_away([&](const Bot& waiting) { return waiting.id == bot.id; });
        note("bot {} paused: {} ('arena bot enable {}' lets it play again)", bot.name, why,
             bot.name);
    }
}

void Arena::release(MatchPlay& match) {
    std::vector<std::string> tokens;
    for (const Entrant& e : match.plan().entrants) {
        if (!e.seat_token.empty()) {
            tokens.push_back(e.seat_token);
            seats_->remove(e.command);
        }
        for (House& house : houses_)
            if (e.bot.command && house.bot.id == e.bot.id && house.in_use > 0)
                --house.in_use;
    }
    if (lobby_)
        lobby_->match_over(tokens);
}

// SIGTERM, SIGINT: no new match; those playing get --stop-grace to finish, then are voided. A
// second signal voids them at once.
void Arena::stop(int signal) {
    if (signal_) {
        for (auto& match : playing_)
            match->abort(signal);
        return;
    }
    signal_ = signal;
    tick_timer_->stop();
    // A check under way is cut short (its bot is checked again as it next connects).
    for (auto& [token, checking] : std::exchange(checking_, {})) {
        checking->run.reset();
        lobby_->match_over({token});
    }
    lobby_->close();
    if (!playing_.empty())
        note("SIG{}: {} match{} playing may finish within {} s (again: void them now)",
             sigabbrev_np(signal), playing_.size(), playing_.size() == 1 ? "" : "es",
             settings_.stop_grace_ms / 1000.0);
    stop_timer_->start(settings_.stop_grace_ms);
    finish_if_done();
}

// SIGHUP: the bots again from the database. A house bot disabled, removed or paused plays no
// new match, nor does a remote bot's waiting connection; a house bot added since is started, and
// is on the leaderboard at once.
void Arena::reload() {
    std::map<int, Bot> now;
    for (const Bot& bot : store_.bots(true))
        now[bot.id] = bot;
    for (House& house : houses_)
        if (now.count(house.bot.id))
            house.bot = now[house.bot.id];
    // House bots added since: their commands launched as the others' are.
    for (const auto& [id, bot] : now) {
        if (!bot.command || bot.state == "removed" ||
            std::any_of(houses_.begin(), houses_.end(),
                        [id = id](const House& house) { return house.bot.id == id; }))
            continue;
        auto added = venue_->add_command(*bot.command);
        if (auto* error = std::get_if<std::string>(&added)) {
            note("house bot {} cannot be started: {}", bot.name, escape_for_terminal(*error));
            continue;
        }
        houses_.push_back({bot, std::get<int>(added), 0});
        store_.entry(bot, *bot.command);  // on the leaderboard, to be chosen, from now
        note("house bot {} added", bot.name);
    }
    lobby_->turn_away([&](const Bot& bot) {
        return !now.count(bot.id) || now[bot.id].state != "active" || !now[bot.id].paused.empty();
    });
    note("the bots read again (SIGHUP)");
}

void Arena::finish_if_done() {
    if (!signal_ || !playing_.empty() || !leaving_.empty() || server_done_)
        return;
    server_done_ = true;
    tick_timer_->stop();
    stop_timer_->stop();
    signals_.clear();
    // Every connection is told there are no more games: each closes as its bot answers. One
    // that does not is cut.
    lobby_->finish();
    server_->finish(close_grace_ms, [this] {
        if (const int cut = server_->counts().cut; cut > 0)
            note("{} connection{} not closed within {} s cut", cut, cut == 1 ? "" : "s",
                 close_grace_ms / 1000);
    });
}

nlohmann::json Arena::queue_json() const {
    // In the order they came: each one's place in the queue is how many came before it.
    std::vector<const Lobby::Queued*> queued;
    for (const Lobby::Queued& q : lobby_->queue())
        queued.push_back(&q);
    std::stable_sort(queued.begin(), queued.end(),
                     [](const auto* a, const auto* b) { return a->since_ms < b->since_ms; });
    nlohmann::json waiting = nlohmann::json::array();
    for (const Lobby::Queued* q : queued)
        waiting.push_back({{"bot", q->bot.name},
                           {"bot_version", q->entry.label},
                           {"kind", kind(q->bot)},
                           {"place", waiting.size() + 1},
                           {"opponent", json_or_null(q->opponent)},
                           {"waiting_ms", uv_now(loop_) - q->since_ms}});
    nlohmann::json playing = nlohmann::json::array();
    for (const auto& match : playing_)
        playing.push_back(
            {{"match", match->plan().id}, {"bots", entrant_names(match->plan().entrants)}});
    return {{"version", api_version}, {"waiting", waiting}, {"playing", playing}};
}

// What this arena's process has counted since it started, for its operator: the connections
// it refused by kind, what it holds now, and its memory and descriptors (Linux's /proc).
nlohmann::json Arena::server_json() const {
    long rss_pages = 0;
    if (std::ifstream statm("/proc/self/statm"); statm)
        statm >> rss_pages >> rss_pages;  // its second field: resident pages
    int descriptors = 0;
    std::error_code error;
    for (std::filesystem::directory_iterator fd("/proc/self/fd", error), end; !error && fd != end;
         fd.increment(error))
        ++descriptors;
    nlohmann::json refusals = nlohmann::json::object();
    for (const auto& [kind, count] : lobby_->refusals())
        refusals[kind] = count;
    return {{"version", api_version},
            {"started", started_},
            {"playing", playing_.size()},
            {"checking", checking_.size()},
            {"queued", lobby_->queue().size()},
            {"connections", server_->counts().sockets},
            {"refusals", std::move(refusals)},
            {"unrecorded", unrecorded_.size()},
            {"database_writable", !store_failing_},
            {"rss_bytes", rss_pages * ::sysconf(_SC_PAGESIZE)},
            {"stream_history_bytes", server_->counts().history_bytes},
            {"descriptors", descriptors}};
}

nlohmann::json Arena::live_json() const {
    nlohmann::json playing = nlohmann::json::array();
    for (const auto& match : playing_)
        playing.push_back({{"match", match->plan().id},
                           {"bots", entrant_names(match->plan().entrants)},
                           {"games_over", match->games().size()},
                           {"games", match->plan().entrants.size()}});
    nlohmann::json recent = nlohmann::json::array();
    for (const Match& m : store_.last_over(10))
        recent.push_back({{"match", m.id}, {"state", m.state}, {"finished", m.finished}});
    return {{"version", api_version},
            {"rule", spectator_rule},
            {"playing", playing},
            {"recent", recent}};
}

std::optional<std::string> Arena::api(const std::string& path) {
    if (path == "/api/leaderboard")
        return leaderboard_json(store_, false, statuses()).dump();
    if (path == "/api/people")
        return leaderboard_json(store_, true, statuses()).dump();
    if (path == "/api/queue")
        return queue_json().dump();
    if (path == "/api/live")
        return live_json().dump();
    if (path == "/api/config")
        return config_json(store_).dump();
    if (path == "/api/server")
        return server_json().dump();
    for (const bool person : {false, true}) {
        const std::string prefix = person ? "/api/people/" : "/api/bots/";
        if (path.starts_with(prefix)) {
            const auto json = bot_json(store_, path.substr(prefix.size()), person, statuses());
            return json ? std::optional(json->dump()) : std::nullopt;
        }
    }
    if (path.starts_with("/api/matches/")) {
        // The twins of the match's page and of its games' pages.
        const auto found = page_path(path.substr(4));
        if (!found || (found->kind != PagePath::match_page && found->kind != PagePath::game_page))
            return std::nullopt;
        const auto json = found->kind == PagePath::match_page
                              ? match_json(store_, found->match)
                              : game_records_json(store_, found->match, found->rotation);
        return json ? std::optional(json->dump()) : std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

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
        ("stop-grace", po::value<double>()->value_name("SEC")->default_value(20),
         "after SIGTERM or SIGINT, how long the matches playing may take to finish before "
         "they are voided");
    // clang-format on
    options::add_game(o);
    o.add(options::sandbox()).add(options::shares());
    return o;
}

int serve(Store& store, const std::string& db_path, const po::variables_map& vm) {
    Settings settings;
    try {
        settings = read_settings(vm);
    } catch (const po::error& e) {
        log::error("{}", e.what());
        return exit_usage;
    }
    Arena arena(store, db_path, std::move(settings));
    return arena.run();
}

}  // namespace bg::arena
