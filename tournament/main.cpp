// tournament: many games between bots, played concurrently into an SQLite database, summed up
// with ratings and intervals. `run` starts one, `resume` finishes one that was stopped,
// `standings` and `games` read one (while it runs, too).
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "core/text.hpp"
#include "host/console.hpp"
#include "host/host_dictionaries.hpp"
#include "host/options.hpp"
#include "record/json_value.hpp"
#include "record/version.hpp"
#include "tournament/database.hpp"
#include "tournament/runner.hpp"
#include "tournament/standings.hpp"
#include "transport/handles.hpp"
#include "viewer/pages.hpp"

namespace po = boost::program_options;
using namespace bg::tournament;
using bg::escape_for_terminal;
using bg::version_line;

namespace {

constexpr int exit_done = 0;
constexpr int exit_database = 1;  // an unusable database, word list or log directory
constexpr int exit_usage = 2;
constexpr int exit_no_sandbox = 5;  // as the host's

bg::Console out(stdout);
bg::Console err(stderr);

template <class... Args>
void say(fmt::format_string<Args...> format, Args&&... args) {
    err.write(fmt::format(format, std::forward<Args>(args)...));
}

// The value made, or nullptr once what went wrong has been said.
template <class T>
T* made_or_said(std::variant<T, std::string>& made) {
    if (auto* error = std::get_if<std::string>(&made)) {
        say("tournament: {}\n", escape_for_terminal(*error));
        return nullptr;
    }
    return &std::get<T>(made);
}

const char* const usage_text =
    R"(Usage: tournament run --db FILE --bot NAME=CMD --bot NAME=CMD... [options]
       tournament resume --db FILE [--concurrency N] [--json]
       tournament standings --db FILE [--json]
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

po::options_description run_options() {
    po::options_description options("run");
    // clang-format off
    options.add_options()
        ("db", po::value<std::string>()->value_name("FILE"),
         "the tournament's database: a new file for run, an existing one otherwise")
        ("bot", po::value<std::vector<std::string>>()->value_name("NAME=CMD")->composing(),
         "a bot: its name (1-40 printable characters, no spaces) and its command, run verbatim "
         "through sh -c (again for each bot)")
        ("players", po::value<std::string>()->value_name("K")->default_value("2"),
         "seats a game (2 to 64)")
        ("format", po::value<std::string>()->value_name("F")->default_value("round-robin"),
         "round-robin: every set of K bots is a table; gauntlet: the first bot against every "
         "table of K-1 others")
        ("deals", po::value<std::string>()->value_name("N")->default_value("1"),
         "deals a table; each is played in all K rotations of the seats")
        ("seed", po::value<std::string>()->value_name("S")->default_value("1"),
         "the seed the whole schedule (every deal) derives from")
        ("shard", po::value<std::string>()->value_name("I/N"),
         "play only shard I of N (from 0): the games g (from 1) of the schedule with (g - 1) mod "
         "N = I, into this database; merge gathers the shards")
        ("logs", po::value<std::string>()->value_name("DIR"),
         "write each game's event log to DIR/game-NNNNNN.jsonl (made if missing)")
        ("sprt", po::value<std::vector<std::string>>()->multitoken()->value_name("elo0=E0 elo1=E1 alpha=A beta=B"),
         "two bots only: stop as soon as the sequential probability ratio test on game pairs "
         "decides between H0 (Elo difference of the first bot over the second = E0) and H1 (= "
         "E1); alpha and beta default to 0.05");
    // clang-format on
    bg::options::add_game(options);
    return options;
}

po::options_description play_options() {
    po::options_description options("run and resume");
    // clang-format off
    options.add_options()
        ("concurrency", po::value<std::string>()->value_name("N")
             ->default_value(std::to_string(std::max(1U, std::thread::hardware_concurrency()))),
         "games at once (default: the number of CPUs)")
        ("rating-interval", po::value<std::string>()->value_name("N")->default_value("50"),
         "the standings every N games on a terminal; a status line every N games otherwise")
        ("json", po::bool_switch(), "print the standings at the end as JSON");
    // clang-format on
    return options;
}

// The player sandbox, or the launches without one; with its record for the game logs.
struct Players {
    std::vector<bg::Launch> launches;
    nlohmann::json record = nullptr;
};

std::variant<Players, std::string> players_for(const Spec& spec, const std::string& db) {
    Players players;
    std::vector<std::string> commands;
    for (const auto& bot : spec.bots)
        commands.push_back(bot.command);
    if (!spec.sandboxed) {
        players.launches = bg::unsandboxed_launches(commands);
        return players;
    }
    bg::SandboxConfig config = spec.sandbox;
    // No player may read the tournament (its seeds are every deal) or another game's log.
    for (const std::string suffix : {"", "-wal", "-shm"})
        if (std::filesystem::exists(db + suffix))
            config.secret_paths.push_back(db + suffix);
    if (!spec.logs.empty())
        config.secret_paths.push_back(spec.logs);
    if (!spec.game.dictionary.empty())
        config.private_paths.push_back(spec.game.dictionary);
    auto made = bg::Sandbox::create(config, commands);
    if (auto* error = std::get_if<std::string>(&made))
        return *error;
    const auto& sandbox = std::get<bg::Sandbox>(made);
    for (std::size_t i = 0; i < commands.size(); ++i)
        players.launches.push_back(sandbox.launch(i));
    players.record = bg::options::sandbox_json(sandbox.config());
    return players;
}

// The status of a run: one line, redrawn on a terminal, printed every N games elsewhere.
class Status {
  public:
    Status(const Database& database, int total, int done, int interval)
        : database_(database),
          total_(total),
          done_at_start_(done),
          done_(done),
          interval_(interval),
          terminal_(::isatty(STDERR_FILENO) == 1),
          wins_(database.spec().bots.size()),
          started_(std::chrono::steady_clock::now()) {}

    void recorded(const GameRow& row, const PairTally& pairs) {
        ++done_;
        if (row.result->winner_seat)
            ++wins_[static_cast<std::size_t>(
                row.game.seats[static_cast<std::size_t>(*row.result->winner_seat)])];
        const bool every = (done_ - done_at_start_) % interval_ == 0;
        if (terminal_) {
            if (every) {
                clear();
                const auto rows = database_.games();
                say("{}", standings_table(standings(database_.spec(), rows, std::nullopt)));
            }
            const auto now = std::chrono::steady_clock::now();
            if (every || now - last_drawn_ > std::chrono::milliseconds(100) || done_ == total_) {
                say("\r\x1b[K{}", line(pairs));
                drawn_ = true;
                last_drawn_ = now;
            }
        } else if (every) {
            say("{}\n", line(pairs));
        }
    }
    void clear() {
        if (terminal_ && drawn_)
            say("\r\x1b[K");
        drawn_ = false;
    }

  private:
    std::string line(const PairTally& pairs) const {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        const int played = done_ - done_at_start_;
        const double rate = seconds > 0 ? played / seconds : 0;
        std::string text = fmt::format("games {}/{} ({:.0f}%), {:.2f} games/s", done_, total_,
                                       100.0 * done_ / std::max(1, total_), rate);
        if (rate > 0 && done_ < total_)
            text += fmt::format(", {:.0f} s left", (total_ - done_) / rate);
        const auto best = std::max_element(wins_.begin(), wins_.end());
        if (*best > 0) {
            const auto bot = static_cast<std::size_t>(best - wins_.begin());
            text += fmt::format(", leader {} ({} wins)",
                                escape_for_terminal(database_.spec().bots[bot].name), *best);
        }
        if (const auto& sprt = database_.spec().sprt)
            text += fmt::format(", LLR {:.2f} [{:.2f}, {:.2f}]", sprt->llr(pairs.results()),
                                sprt->lower_bound(), sprt->upper_bound());
        return text;
    }

    const Database& database_;
    int total_;
    int done_at_start_;
    int done_;
    int interval_;
    bool terminal_;
    bool drawn_ = false;
    std::vector<int> wins_;
    std::chrono::steady_clock::time_point started_;
    std::chrono::steady_clock::time_point last_drawn_{};
};

std::string sprt_verdict(const Spec& spec, const SprtState& sprt) {
    const auto& t = sprt.test;
    const std::string a = escape_for_terminal(spec.bots[0].name);
    const std::string b = escape_for_terminal(spec.bots[1].name);
    if (sprt.decision == bg::stats::Sprt::Decision::h1)
        return fmt::format(
            "SPRT accepted H1 (LLR {:.2f} >= {:.2f}): {} is stronger than {} (Elo "
            "difference nearer {} than {})",
            sprt.llr, t.upper_bound(), a, b, t.elo1, t.elo0);
    return fmt::format(
        "SPRT accepted H0 (LLR {:.2f} <= {:.2f}): {} is not stronger than {} by "
        "{} Elo (nearer {})",
        sprt.llr, t.lower_bound(), a, b, t.elo1, t.elo0);
}

// Plays the pending games of an opened, locked database; prints the standings at the end.
// How a run or a resume plays: --concurrency, --rating-interval and --json; po::error for a bad
// value.
struct PlaySettings {
    int concurrency = 1;
    int interval = 50;
    bool json = false;
};

PlaySettings play_settings(const po::variables_map& vm) {
    return {static_cast<int>(bg::options::count(vm, "concurrency", 1, 4096)),
            static_cast<int>(bg::options::count(vm, "rating-interval", 1, 1'000'000)),
            vm["json"].as<bool>()};
}

// Takes the database for this runner alone, then plays its pending games.
int play(Database& database, const PlaySettings& settings) {
    if (auto error = database.lock_for_running()) {
        say("tournament: {}\n", *error);
        return exit_database;
    }
    const Spec& spec = database.spec();
    if (const auto stopped = database.stopped()) {
        say("tournament: already stopped: {}\n", *stopped);
    } else {
        std::optional<bg::Dictionary> loaded;
        auto found = bg::host_word_list(spec.game.dictionary, loaded);
        if (!made_or_said(found))
            return exit_database;
        const bg::Dictionary& dictionary = *std::get<const bg::Dictionary*>(found);
        if (dictionary.stats().fingerprint != spec.game.dictionary_fingerprint) {
            say("tournament: the word list {} has changed since the tournament began\n",
                escape_for_terminal(spec.game.dictionary));
            return exit_database;
        }
        if (!spec.logs.empty()) {
            std::error_code error;
            std::filesystem::create_directories(spec.logs, error);
            if (error) {
                say("tournament: cannot make the log directory {}: {}\n",
                    escape_for_terminal(spec.logs), error.message());
                return exit_database;
            }
        }
        auto players = players_for(spec, database.path());
        if (!made_or_said(players))
            return exit_no_sandbox;
        // The players' cgroups, and as many games at once as there are cores for.
        std::unique_ptr<bg::cgroups::Machine> machine;
        int concurrency = settings.concurrency;
        if (spec.shares.cgroups) {
            auto opened = bg::options::open_machine(
                spec.shares, [](const std::string& line) { say("tournament: {}\n", line); });
            if (!made_or_said(opened))
                return exit_no_sandbox;
            machine = std::move(std::get<std::unique_ptr<bg::cgroups::Machine>>(opened));
            if (const int per_game = spec.shares.cpus_per_game; per_game > 0) {
                const int cores = static_cast<int>(machine->cpus().size());
                const int free = cores - machine->cpus_pinned_elsewhere();
                if (free < per_game) {
                    say("tournament: --cpus-per-game {}: {} of the {} cores here are free (other "
                        "games hold the rest): none of its games can have cores of its own now\n",
                        per_game, std::max(free, 0), cores);
                    return exit_no_sandbox;
                }
                if (free / per_game < concurrency) {
                    concurrency = free / per_game;
                    say("tournament: --cpus-per-game {}: {} game{} at once ({} free core{} of "
                        "{})\n",
                        per_game, concurrency, concurrency == 1 ? "" : "s", free,
                        free == 1 ? "" : "s", cores);
                }
            }
        }
        // Every game's players hold pipes: room for as many descriptors as allowed.
        rlimit files{};
        if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
            files.rlim_cur = files.rlim_max;
            ::setrlimit(RLIMIT_NOFILE, &files);
        }

        const int requeued = database.requeue_running();
        if (requeued > 0)
            say("tournament: {} game{} left running by a stopped run will be played again\n",
                requeued, requeued == 1 ? "" : "s");
        std::vector<GameRow> rows = database.games();
        std::vector<GameRow> pending;
        PairTally pairs;
        int done = 0;
        for (auto& row : rows) {
            if (row.state == State::done) {
                pairs.add(row);
                ++done;
            } else {
                pending.push_back(std::move(row));
            }
        }
        Status status(database, static_cast<int>(rows.size()), done, settings.interval);

        bg::EventLoop loop;
        int signal = 0;
        std::string stop_reason;
        {
            std::vector<bg::SignalWatch> signals;
            Runner::Options options;
            options.concurrency = concurrency;
            options.launches = std::move(std::get<Players>(players).launches);
            options.sandbox = std::get<Players>(players).record;
            options.cgroups = machine.get();
            options.cpus_per_game = spec.shares.cpus_per_game;
            options.limits = bg::options::player_limits(spec.sandbox.limits);
            bool said_waiting = false;
            options.on_waiting = [&](const std::string& why) {
                if (!std::exchange(said_waiting, true)) {
                    status.clear();
                    say("tournament: a game waits for cores of its own: {}\n", why);
                }
            };
            options.on_finished = [&signals] { signals.clear(); };
            Runner* runner_ptr = nullptr;
            options.on_recorded = [&](const GameRow& row) {
                pairs.add(row);
                status.recorded(row, pairs);
                if (!spec.sprt || !stop_reason.empty())
                    return;
                const SprtState sprt{*spec.sprt, spec.sprt->llr(pairs.results()),
                                     spec.sprt->decide(pairs.results())};
                if (sprt.decision == bg::stats::Sprt::Decision::undecided)
                    return;
                stop_reason = sprt_verdict(spec, sprt);
                try {
                    database.set_stopped(stop_reason);
                } catch (const std::exception& e) {
                    say("tournament: the database could not be written: {}\n", e.what());
                }
                runner_ptr->stop();
            };
            Runner runner(loop.get(), database, dictionary, std::move(pending), std::move(options));
            runner_ptr = &runner;
            for (int s : bg::Match::abort_signals)
                signals.emplace_back(loop.get(), s, [&](int signum) {
                    if (signal == 0)
                        signal = signum;
                    runner.stop();
                });
            runner.start();
            loop.run();
            status.clear();
            if (!runner.error().empty()) {
                say("tournament: {}; the games not recorded are pending: 'tournament resume --db "
                    "{}' plays them\n",
                    runner.error(), escape_for_terminal(database.path()));
                return exit_database;
            }
        }
        if (!loop.close())
            say("tournament: internal: libuv handles left open\n");
        if (!stop_reason.empty())
            say("tournament: {}\n", stop_reason);
        if (signal != 0) {
            const auto rows_now = database.games();
            say("{}", standings_table(standings(spec, rows_now, database.stopped())));
            say("tournament: stopped by SIG{}; 'tournament resume --db {}' plays the games left\n",
                sigabbrev_np(signal), escape_for_terminal(database.path()));
            return 128 + signal;
        }
    }
    const auto result = standings(spec, database.games(), database.stopped());
    out.write(settings.json ? standings_json(result).dump() + "\n" : standings_table(result));
    return exit_done;
}

std::variant<std::unique_ptr<Database>, std::string> open_database(const po::variables_map& vm,
                                                                   Database::Access access) {
    return Database::open(vm["db"].as<std::string>(), access);
}

int run(const po::variables_map& vm) {
    Spec spec;
    PlaySettings settings;
    try {
        if (!vm.count("db"))
            throw po::error("--db FILE is needed: the database the tournament is kept in");
        if (vm.count("bot"))
            for (const auto& text : vm["bot"].as<std::vector<std::string>>()) {
                auto bot = parse_bot(text);
                if (auto* error = std::get_if<std::string>(&bot))
                    throw po::error(*error);
                spec.bots.push_back(std::get<Bot>(bot));
            }
        spec.players = static_cast<int>(bg::options::count(vm, "players", 2, 64));
        const auto format = format_from_string(vm["format"].as<std::string>());
        if (!format)
            throw po::error("--format must be round-robin or gauntlet");
        spec.format = *format;
        spec.deals = static_cast<int>(bg::options::count(vm, "deals", 1, max_scheduled_games));
        spec.seed = bg::options::count(vm, "seed", 0, UINT64_MAX);
        bg::options::read_game(vm, spec.game);
        std::string error;
        if (!bg::tile_rules_for(spec.players, spec.game.game.sets, &error))
            throw po::error(error);
        spec.sandboxed = bg::options::read_sandbox(vm, spec.sandbox);
        spec.shares = bg::options::read_shares(vm, spec.sandbox);
        if (vm.count("logs"))
            spec.logs = std::filesystem::absolute(vm["logs"].as<std::string>()).string();
        if (!spec.game.dictionary.empty())
            spec.game.dictionary = std::filesystem::absolute(spec.game.dictionary).string();
        if (vm.count("shard")) {
            auto shard = parse_shard(vm["shard"].as<std::string>());
            if (auto* why = std::get_if<std::string>(&shard))
                throw po::error(*why);
            spec.shard = std::get<Spec::Shard>(shard);
        }
        if (vm.count("sprt")) {
            auto sprt = parse_sprt(vm["sprt"].as<std::vector<std::string>>());
            if (auto* why = std::get_if<std::string>(&sprt))
                throw po::error(*why);
            spec.sprt = std::get<bg::stats::Sprt>(sprt);
        }
        settings = play_settings(vm);
        if (auto why = check(spec))
            throw po::error(*why);
    } catch (const po::error& e) {
        say("tournament: {}\nTry 'tournament --help'.\n", escape_for_terminal(e.what()));
        return exit_usage;
    }
    std::optional<bg::Dictionary> loaded;
    auto found = bg::host_word_list(spec.game.dictionary, loaded);
    if (!made_or_said(found))
        return exit_database;
    spec.game.dictionary_fingerprint = std::get<const bg::Dictionary*>(found)->stats().fingerprint;
    const std::string path = vm["db"].as<std::string>();
    auto created = Database::create(path, spec);
    if (!made_or_said(created))
        return exit_database;
    const int status = play(*std::get<std::unique_ptr<Database>>(created), settings);
    if (status == exit_no_sandbox) {
        // Nothing was played: the database this run made goes with it.
        created = std::string();
        for (const std::string suffix : {"", "-wal", "-shm"})
            std::remove((path + suffix).c_str());
    }
    return status;
}

int resume(const po::variables_map& vm) {
    PlaySettings settings;
    try {
        if (!vm.count("db"))
            throw po::error("--db FILE is needed: the database of the tournament to resume");
        settings = play_settings(vm);
    } catch (const po::error& e) {
        say("tournament: {}\nTry 'tournament --help'.\n", escape_for_terminal(e.what()));
        return exit_usage;
    }
    auto opened = open_database(vm, Database::Access::write);
    if (!made_or_said(opened))
        return exit_database;
    return play(*std::get<std::unique_ptr<Database>>(opened), settings);
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

int list_games(const Database& database, bool json, bool csv) {
    const Spec& spec = database.spec();
    const auto rows = database.games();
    const auto name = [&](int bot) { return spec.bots[static_cast<std::size_t>(bot)].name; };
    if (json) {
        nlohmann::json games = nlohmann::json::array();
        for (const auto& row : rows) {
            nlohmann::json seats = nlohmann::json::array();
            for (std::size_t s = 0; s < row.game.seats.size(); ++s) {
                nlohmann::json seat = {{"bot", name(row.game.seats[s])}};
                if (row.result) {
                    const SeatResult& r = row.result->seats[s];
                    seat.update(nlohmann::json::object(
                        {{"outcome", r.outcome},
                         {"standing", r.standing},
                         {"tiles", r.tiles},
                         {"peels", r.peels},
                         {"dumps", r.dumps},
                         {"stale_peels", r.stale_peels},
                         {"timed_peels", r.timed_peels},
                         {"think_ms", r.think_ms},
                         {"reason",
                          r.reason.empty() ? nlohmann::json(nullptr) : bg::bytes_to_json(r.reason)},
                         {"protocol", r.protocol},
                         {"cpu_ms", r.cpu_ms ? nlohmann::json(*r.cpu_ms) : nlohmann::json(nullptr)},
                         {"memory_peak_bytes", r.memory_peak_bytes
                                                   ? nlohmann::json(*r.memory_peak_bytes)
                                                   : nlohmann::json(nullptr)}}));
                }
                seats.push_back(std::move(seat));
            }
            nlohmann::json game = {{"id", row.id},
                                   {"deal", row.game.deal},
                                   {"seed", row.game.seed},
                                   {"table", row.game.table},
                                   {"rotation", row.game.rotation},
                                   {"state", to_string(row.state)},
                                   {"attempts", row.attempts},
                                   {"seats", seats}};
            if (row.result) {
                const auto& r = *row.result;
                game.update(nlohmann::json::object(
                    {{"end", r.end},
                     {"winner_seat",
                      r.winner_seat ? nlohmann::json(*r.winner_seat) : nlohmann::json(nullptr)},
                     {"peels", r.peels},
                     {"bunch", r.bunch},
                     {"duration_ms", r.duration_ms},
                     {"log", r.log.empty() ? nlohmann::json(nullptr) : bg::bytes_to_json(r.log)},
                     {"host_version", r.host_version.empty() ? nlohmann::json(nullptr)
                                                             : nlohmann::json(r.host_version)}}));
            }
            games.push_back(std::move(game));
        }
        out.write(games.dump() + "\n");
    } else if (csv) {
        out.write(
            "game,deal,seed,table,rotation,state,end,duration_ms,seat,bot,outcome,standing,"
            "tiles,peels,dumps,stale_peels,think_ms,reason,log,cpu_ms,memory_peak_bytes,"
            "host_version\n");
        for (const auto& row : rows)
            for (std::size_t s = 0; s < row.game.seats.size(); ++s) {
                std::string line =
                    fmt::format("{},{},{},{},{},{},", row.id, row.game.deal, row.game.seed,
                                row.game.table, row.game.rotation, to_string(row.state));
                if (row.result) {
                    const auto& r = *row.result;
                    const SeatResult& seat = r.seats[s];
                    line += fmt::format(
                        "{},{},{},{},{},{},{},{},{},{},{:.1f},{},{},{},{},{}\n", r.end,
                        r.duration_ms, s + 1, csv_field(name(row.game.seats[s])), seat.outcome,
                        seat.standing, seat.tiles, seat.peels, seat.dumps, seat.stale_peels,
                        seat.think_ms, csv_field(seat.reason), csv_field(r.log),
                        seat.cpu_ms ? fmt::format("{:.1f}", *seat.cpu_ms) : "",
                        seat.memory_peak_bytes ? std::to_string(*seat.memory_peak_bytes) : "",
                        csv_field(r.host_version));
                } else {
                    line += fmt::format(",,{},{},,,,,,,,,,,,\n", s + 1,
                                        csv_field(name(row.game.seats[s])));
                }
                out.write(line);
            }
    } else {
        out.write(fmt::format("{:>6} {:>5} {:>20} {:>4} {:<8} {:<21} {}\n", "game", "deal", "seed",
                              "rot", "state", "end", "seats (bot: outcome, standing)"));
        for (const auto& row : rows) {
            std::string seats;
            for (std::size_t s = 0; s < row.game.seats.size(); ++s) {
                seats += (s ? "  " : "") + escape_for_terminal(name(row.game.seats[s]));
                if (row.result)
                    seats += fmt::format(": {} {}", row.result->seats[s].outcome,
                                         row.result->seats[s].standing);
            }
            out.write(fmt::format("{:>6} {:>5} {:>20} {:>4} {:<8} {:<21} {}\n", row.id,
                                  row.game.deal, row.game.seed, row.game.rotation,
                                  to_string(row.state), row.result ? row.result->end : "", seats));
        }
    }
    return exit_done;
}

int report(const po::variables_map& vm) {
    if (!vm.count("db") || !vm.count("html")) {
        say("tournament: report needs --db FILE and --html FILE\nTry 'tournament --help'.\n");
        return exit_usage;
    }
    auto opened = open_database(vm, Database::Access::read);
    if (!made_or_said(opened))
        return exit_database;
    const Database& database = *std::get<std::unique_ptr<Database>>(opened);
    const Spec& spec = database.spec();
    const auto rows = database.games();
    const std::filesystem::path html = vm["html"].as<std::string>();
    const std::filesystem::path folder = html.parent_path().empty() ? "." : html.parent_path();
    nlohmann::json seats = nlohmann::json::array();
    nlohmann::json games = nlohmann::json::array();
    int pages = 0, unreadable = 0;
    bool pages_folder_made = false;
    for (const auto& row : rows) {
        nlohmann::json names = nlohmann::json::array();
        for (int bot : row.game.seats)
            names.push_back(spec.bots[static_cast<std::size_t>(bot)].name);
        nlohmann::json game = {{"id", row.id},
                               {"deal", row.game.deal},
                               {"rotation", row.game.rotation},
                               {"state", to_string(row.state)},
                               {"end", nullptr},
                               {"winner", nullptr},
                               {"seats", names},
                               {"page", nullptr}};
        if (row.result) {
            const GameResult& r = *row.result;
            game["end"] = r.end;
            if (r.winner_seat)
                game["winner"] = names[static_cast<std::size_t>(*r.winner_seat)];
            for (std::size_t s = 0; s < row.game.seats.size(); ++s) {
                if (seats.size() <= s)
                    seats.push_back({{"games", 0}, {"wins", 0}});
                seats[s]["games"] = seats[s]["games"].get<int>() + 1;
                if (r.winner_seat == static_cast<int>(s))
                    seats[s]["wins"] = seats[s]["wins"].get<int>() + 1;
            }
            if (!r.log.empty()) {
                std::ifstream log(r.log, std::ios::binary);
                auto records = bg::viewer::read_records(log);
                const auto name = fmt::format("games/game-{:06}.html", row.id);
                if (!pages_folder_made) {
                    std::error_code error;
                    std::filesystem::create_directories(folder / "games", error);
                    pages_folder_made = true;
                }
                std::ofstream page(folder / name, std::ios::binary);
                if (auto* ok = std::get_if<std::vector<nlohmann::json>>(&records); ok && page) {
                    page << bg::viewer::game_page(*ok);
                    if (page.flush()) {
                        game["page"] = name;
                        ++pages;
                    }
                } else {
                    ++unreadable;
                }
            }
        }
        games.push_back(std::move(game));
    }
    const nlohmann::json data = {
        {"standings", standings_json(standings(spec, rows, database.stopped()))},
        {"seats", seats},
        {"games", games}};
    std::ofstream out_file(html, std::ios::binary);
    out_file << bg::viewer::report_page(data);
    if (!out_file.flush()) {
        say("tournament: cannot write the report {}: {}\n", escape_for_terminal(html.string()),
            std::strerror(errno));
        return exit_database;
    }
    say("tournament: the report: {} ({} game page{}{})\n", escape_for_terminal(html.string()),
        pages, pages == 1 ? "" : "s",
        unreadable ? fmt::format("; {} game logs could not be read", unreadable) : "");
    return exit_done;
}

constexpr int exit_incomplete = 3;

int merge(const po::variables_map& vm) {
    std::vector<std::string> inputs;
    try {
        if (!vm.count("db"))
            throw po::error("--db OUT is needed: the database the shards are merged into");
        if (vm.count("shards"))
            inputs = vm["shards"].as<std::vector<std::string>>();
        if (inputs.empty())
            throw po::error("no shards given: tournament merge --db OUT SHARD.db...");
    } catch (const po::error& e) {
        say("tournament: {}\nTry 'tournament --help'.\n", escape_for_terminal(e.what()));
        return exit_usage;
    }
    std::vector<std::unique_ptr<Database>> shards;
    for (const auto& path : inputs) {
        auto opened = Database::open(path, Database::Access::read);
        if (!made_or_said(opened))
            return exit_database;
        shards.push_back(std::move(std::get<std::unique_ptr<Database>>(opened)));
        if (auto why = difference(shards.front()->spec(), shards.back()->spec())) {
            say("tournament: {} and {} are not shards of one tournament: {}\n",
                escape_for_terminal(inputs.front()), escape_for_terminal(path), *why);
            return exit_database;
        }
    }
    const std::string out_path = vm["db"].as<std::string>();
    std::unique_ptr<Database> merged;
    if (std::filesystem::exists(out_path)) {
        auto opened = Database::open(out_path, Database::Access::write);
        if (!made_or_said(opened))
            return exit_database;
        merged = std::move(std::get<std::unique_ptr<Database>>(opened));
        if (merged->spec().shard) {
            say("tournament: {} is a shard itself; merge into a new file or an earlier merge\n",
                escape_for_terminal(out_path));
            return exit_database;
        }
        if (auto why = difference(merged->spec(), shards.front()->spec())) {
            say("tournament: {} holds another tournament than {}: {}\n",
                escape_for_terminal(out_path), escape_for_terminal(inputs.front()), *why);
            return exit_database;
        }
    } else {
        Spec spec = shards.front()->spec();
        spec.shard.reset();
        spec.logs.clear();
        auto created = Database::create(out_path, spec);
        if (!made_or_said(created))
            return exit_database;
        merged = std::move(std::get<std::unique_ptr<Database>>(created));
    }
    if (auto error = merged->lock_for_running()) {
        say("tournament: {}\n", *error);
        return exit_database;
    }
    std::vector<GameRow> rows;
    for (const auto& shard : shards) {
        auto games = shard->games();
        std::move(games.begin(), games.end(), std::back_inserter(rows));
    }
    const Database::Merged result = merged->merge(rows);
    if (!result.conflicts.empty()) {
        std::string ids;
        for (std::size_t i = 0; i < result.conflicts.size() && i < 20; ++i)
            ids += fmt::format("{}{}", i ? ", " : "", result.conflicts[i]);
        say("tournament: {} game{} done twice with different results (game{} {}{}): nothing was "
            "merged; merge only one database of each shard\n",
            result.conflicts.size(), result.conflicts.size() == 1 ? "" : "s",
            result.conflicts.size() == 1 ? "" : "s", ids,
            result.conflicts.size() > 20 ? ", ..." : "");
        return exit_database;
    }
    const auto all = merged->games();
    std::vector<int> missing;
    for (const auto& row : all)
        if (!row.result)
            missing.push_back(row.id);
    say("tournament: merged {} shard database{}: {} game{} added, {} already there; {} of {} "
        "games done\n",
        shards.size(), shards.size() == 1 ? "" : "s", result.added, result.added == 1 ? "" : "s",
        result.already, all.size() - missing.size(), all.size());
    if (missing.empty())
        return exit_done;
    std::string ids;
    for (std::size_t i = 0; i < missing.size() && i < 20; ++i)
        ids += fmt::format("{}{}", i ? ", " : "", missing[i]);
    const auto& shard = shards.front()->spec().shard;
    say("tournament: {} game{} missing: {}{}{}\n", missing.size(), missing.size() == 1 ? "" : "s",
        ids, missing.size() > 20 ? ", ..." : "",
        shard ? fmt::format(" (game g is in shard (g - 1) mod {}: resume those shards, then merge "
                            "again)",
                            shard->count)
              : "");
    return exit_incomplete;
}
}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);
    // As the host: nothing the runner inherited reaches a player.
    if (::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
        for (int fd = 3; fd < 1024; ++fd)
            if (const int flags = ::fcntl(fd, F_GETFD); flags >= 0)
                ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);

    po::options_description common("Common");
    common.add_options()("help,h", "show this help and exit")(
        "version", "show the version and exit")("db", po::value<std::string>()->value_name("FILE"),
                                                "the tournament's database");
    po::options_description run_only_options = run_options();
    po::options_description play = play_options();
    po::options_description sandbox = bg::options::sandbox();
    sandbox.add(bg::options::shares());
    po::options_description read("standings and games");
    read.add_options()("csv", po::bool_switch(), "games: one CSV row a seat")(
        "html", po::value<std::string>()->value_name("FILE"),
        "report: the page to write (the games' pages go in games/ beside it)");
    po::options_description all;
    all.add(common).add(run_only_options).add(play).add(sandbox).add(read);
    // --db is declared in both; the help shows it once.
    po::options_description shown;
    shown.add(common).add(play).add(read);

    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "--version") {
        out.write(version_line("bananagrams-tournament") + "\n");
        return exit_done;
    }
    if (command.empty() || command == "--help" || command == "-h" || command == "help") {
        po::options_description visible;
        po::options_description run_visible("run");
        for (const auto& option : run_only_options.options())
            if (option->long_name() != "db")
                run_visible.add(option);
        visible.add(common).add(run_visible).add(play).add(read).add(sandbox);
        out.write(help_text(visible));
        if (command.empty()) {
            say("tournament: no command given (run, resume, standings, games, merge or report)\n");
            return exit_usage;
        }
        return exit_done;
    }
    po::variables_map vm;
    try {
        po::options_description accepted;
        po::options_description run_only;
        for (const auto& option : run_only_options.options())
            if (option->long_name() != "db")
                run_only.add(option);
        accepted.add(common);
        if (command == "run")
            accepted.add(run_only).add(play).add(sandbox);
        else if (command == "resume")
            accepted.add(play);
        else if (command == "standings")
            accepted.add_options()("json", po::bool_switch(), "");
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
        po::positional_options_description positional;
        if (command == "merge")
            positional.add("shards", -1);
        po::store(po::command_line_parser(argc - 1, argv + 1)
                      .options(accepted)
                      .positional(positional)
                      .run(),
                  vm);
        po::notify(vm);
        if (vm.count("help")) {
            out.write(help_text(accepted));
            return exit_done;
        }
        if (vm.count("version")) {
            out.write(version_line("bananagrams-tournament") + "\n");
            return exit_done;
        }
        if ((command == "standings" || command == "games") && !vm.count("db"))
            throw po::error("--db FILE is needed: the tournament's database");
        if (command == "games" && vm["json"].as<bool>() && vm["csv"].as<bool>())
            throw po::error("--json or --csv, not both");
    } catch (const po::error& e) {
        say("tournament: {}\nTry 'tournament --help'.\n", escape_for_terminal(e.what()));
        return exit_usage;
    }
    try {
        if (command == "run")
            return run(vm);
        if (command == "resume")
            return resume(vm);
        if (command == "merge")
            return merge(vm);
        if (command == "report")
            return report(vm);
        auto opened = open_database(vm, Database::Access::read);
        if (!made_or_said(opened))
            return exit_database;
        auto& database = *std::get<std::unique_ptr<Database>>(opened);
        if (command == "standings") {
            const auto result = standings(database.spec(), database.games(), database.stopped());
            out.write(vm["json"].as<bool>() ? standings_json(result).dump() + "\n"
                                            : standings_table(result));
            return exit_done;
        }
        return list_games(database, vm["json"].as<bool>(), vm["csv"].as<bool>());
    } catch (const std::system_error& e) {
        // The machine's, not the database's: no event loop to be had, a file system call failed.
        say("tournament: {}\n", escape_for_terminal(e.what()));
        return exit_database;
    } catch (const std::exception& e) {
        say("tournament: the database could not be used: {}\n", e.what());
        return exit_database;
    }
}
