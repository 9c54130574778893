#include "tournament/play.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "cli/options.hpp"
#include "match/venue.hpp"
#include "remote/desk.hpp"
#include "remote/seats.hpp"
#include "remote/token.hpp"
#include "tournament/cli.hpp"
#include "tournament/live.hpp"
#include "tournament/runner.hpp"
#include "tournament/standings.hpp"
#include "transport/handles.hpp"

namespace bg::tournament {

using namespace cli;
using bg::escape_for_terminal;
namespace po = boost::program_options;

namespace {

// The status of a run: one line, redrawn on a terminal; elsewhere (a log file, nohup, Slurm)
// printed every N games and every --progress seconds.
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

    void recorded(const FixtureRecord& row, const PairTally& pairs) {
        ++done_;
        last_pairs_ = pairs;
        if (const auto winner = row.played->result.winner)
            ++wins_[static_cast<std::size_t>(row.game.seats[static_cast<std::size_t>(*winner)])];
        const bool every = (done_ - done_at_start_) % interval_ == 0;
        if (terminal_) {
            if (every) {
                clear();
                const auto rows = database_.games();
                err.write(standings_table(standings(database_.spec(), rows, std::nullopt)));
            }
            const auto now = std::chrono::steady_clock::now();
            if (every || now - last_drawn_ > std::chrono::milliseconds(100) || done_ == total_) {
                err.write(fmt::format("\r\x1b[K{}", line(pairs)));
                drawn_ = true;
                last_drawn_ = now;
            }
        } else if (every) {
            err.write(fmt::format("{}\n", line(pairs)));
        }
    }
    // The clock's turn: without a terminal, the line again.
    void tick() {
        if (!terminal_)
            err.write(fmt::format("{}\n", line(last_pairs_)));
    }
    void clear() {
        if (terminal_ && drawn_)
            err.write("\r\x1b[K");
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
    PairTally last_pairs_;
};

std::string sprt_verdict(const TournamentSpec& spec, const SprtState& sprt) {
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

// The SPRT's stop: after every game recorded, whether its pairs decide the test; the verdict
// (once) when they do.
class SprtStop {
  public:
    explicit SprtStop(const TournamentSpec& spec) : spec_(spec) {}
    std::optional<std::string> decide(const PairTally& pairs) {
        if (!spec_.sprt || decided_)
            return std::nullopt;
        const SprtState sprt{*spec_.sprt, spec_.sprt->llr(pairs.results()),
                             spec_.sprt->decide(pairs.results())};
        if (sprt.decision == bg::stats::Sprt::Decision::undecided)
            return std::nullopt;
        decided_ = true;
        return sprt_verdict(spec_, sprt);
    }

  private:
    const TournamentSpec& spec_;
    bool decided_ = false;
};

// One run of a tournament's pending games: its venue and concurrency, then the loop with its
// runner, signals, status line, live server and SPRT, then what it says at the end.
class Run {
  public:
    Run(Database& database, const PlaySettings& settings)
        : database_(database), settings_(settings), spec_(database.spec()), sprt_(spec_) {}

    int play();

  private:
    // Each step: nullopt to go on, or the exit status.
    std::optional<int> prepare_venue();
    std::optional<int> choose_concurrency();
    void take_pending();
    std::optional<int> run_loop();
    std::optional<int> start_live(uv_loop_t* loop);
    Runner::Options runner_options();
    void recorded(const FixtureRecord& row);
    std::string finish_reason() const;
    int conclude();

    Database& database_;
    const PlaySettings& settings_;
    const TournamentSpec& spec_;
    remote::Desk desk_;  // where remote bots take their seats (docs/remote.md)
    std::unique_ptr<Venue> venue_;
    std::unique_ptr<remote::Seats> seats_;  // each bot's, by its id: a remote one's at the desk
    int concurrency_ = 1;
    std::vector<FixtureRecord> pending_;
    PairTally pairs_;
    std::optional<Status> status_;
    SprtStop sprt_;
    std::unique_ptr<LiveTournament> live_;
    std::optional<Runner> runner_;
    std::vector<bg::SignalWatch> signals_;
    int signal_ = 0;
    std::string stop_reason_;
    bool said_waiting_ = false;
};

// The word list it began with (its file unchanged, or the built-in list it recorded), the log
// folder, and the players' sandbox and cgroups.
std::optional<int> Run::prepare_venue() {
    VenuePlan plan;
    plan.dictionary = spec_.game.dictionary;
    plan.fingerprint = spec_.game.dictionary_fingerprint;
    // A remote bot's token is no business of the venue's: it never starts that bot.
    for (const auto& bot : spec_.bots)
        plan.commands.push_back(remote::shown_command(bot.command));
    if (spec_.sandboxed)
        plan.sandbox = spec_.sandbox;
    // No player may read the tournament (its seeds are every deal) or another game's log.
    for (const std::string suffix : {"", "-wal", "-shm"})
        if (std::filesystem::exists(database_.path() + suffix))
            plan.secret_paths.push_back(database_.path() + suffix);
    plan.log_folder = spec_.logs;
    plan.shares = spec_.shares;
    plan.limits = player_limits(spec_.sandbox.limits);
    plan.note = [](const std::string& line) { log::info("{}", line); };
    auto opened = Venue::open(std::move(plan));
    if (!made_or_said(opened))
        return exit_database;
    venue_ = std::move(std::get<std::unique_ptr<Venue>>(opened));
    std::vector<std::string> commands;
    for (const auto& bot : spec_.bots)
        commands.push_back(bot.command);
    remote::RemoteSeat::Options remote;
    remote.grace_ms = settings_.remote_grace_ms;
    seats_ = std::make_unique<remote::Seats>(std::move(commands), &desk_, remote, *venue_);
    if (auto error = venue_->prepare_players()) {
        log::error("{}", escape_for_terminal(*error));
        return exit_no_sandbox;
    }
    return std::nullopt;
}

// As many games at once as asked, and as there are cores for when games have cores of their
// own; room for every game's pipes.
std::optional<int> Run::choose_concurrency() {
    concurrency_ = settings_.concurrency;
    if (const int per_game = spec_.shares.cpus_per_game; per_game > 0 && venue_->machine()) {
        const int cores = static_cast<int>(venue_->machine()->cpus().size());
        const int free = cores - venue_->machine()->cpus_pinned_elsewhere();
        if (free < per_game) {
            log::error(
                "--cpus-per-game {}: {} of the {} cores here are free (other games "
                "hold the rest): none of its games can have cores of its own now",
                per_game, std::max(free, 0), cores);
            return exit_no_sandbox;
        }
        if (free / per_game < concurrency_) {
            concurrency_ = free / per_game;
            log::info("--cpus-per-game {}: {} game{} at once ({} free core{} of {})", per_game,
                      concurrency_, concurrency_ == 1 ? "" : "s", free, free == 1 ? "" : "s",
                      cores);
        }
    }
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    return std::nullopt;
}

// The games left to play (those a stopped run left running among them), and the pairs of those
// done.
void Run::take_pending() {
    if (settings_.replay_contended) {
        const auto replays = database_.add_replays();
        log::info("{} contended game{} will be played again{}", replays.size(),
                  replays.size() == 1 ? "" : "s",
                  replays.empty() ? ""
                  : replays.size() == 1
                      ? fmt::format(" (game {})", replays.front())
                      : fmt::format(" (games {} to {})", replays.front(), replays.back()));
    }
    const int requeued = database_.requeue_running();
    if (requeued > 0)
        log::info("{} game{} left running by a stopped run will be played again", requeued,
                  requeued == 1 ? "" : "s");
    std::vector<FixtureRecord> rows = database_.games();
    int done = 0;
    for (auto& row : rows) {
        if (row.state == State::done) {
            pairs_.add(row);
            ++done;
        } else {
            pending_.push_back(std::move(row));
        }
    }
    status_.emplace(database_, static_cast<int>(rows.size()), done, settings_.interval);
}

std::optional<int> Run::start_live(uv_loop_t* loop) {
    if (!settings_.serve)
        return std::nullopt;
    // The server takes seats only where the tournament has remote bots.
    const bool remote = std::any_of(spec_.bots.begin(), spec_.bots.end(),
                                    [](const Bot& bot) { return remote::is_remote(bot.command); });
    std::optional<serve::ForPlayers> for_players;
    if (remote) {
        const Dictionary& dictionary = venue_->dictionary();
        for_players = serve::for_players(
            spec_.game, spec_.players, dictionary,
            word_list_name(spec_.game.dictionary, dictionary.stats().fingerprint),
            settings_.remote_grace_ms);
    }
    auto started = LiveTournament::start(loop, *settings_.serve, database_, {},
                                         remote ? &desk_ : nullptr, std::move(for_players));
    if (!made_or_said(started)) {
        log::error(
            "no game was played: 'tournament resume --db {} --serve ADDR:PORT' plays "
            "them",
            escape_for_terminal(database_.path()));
        return exit_database;
    }
    live_ = std::move(std::get<std::unique_ptr<LiveTournament>>(started));
    serve::Address shown = *settings_.serve;
    shown.port = live_->port();
    status_->clear();
    if (remote)
        log::info(
            "serving the remote bots' seats at http://{}/ (not the live page nor "
            "the games' pages: they show the players' tiles and deals, and a remote bot could "
            "read them)",
            shown.authority());
    else
        log::info("watch it live at http://{}/{}", shown.authority(),
                  shown.loopback()
                      ? ""
                      : " (not a loopback address: anyone who can reach this machine can "
                        "watch)");
    // Each remote bot's URL: it takes a seat there for each of its games (a session: over one
    // connection; else one connection each, told to try again between them), and after its
    // last is told that its games are over.
    for (std::size_t id = 0; id < spec_.bots.size(); ++id) {
        const Bot& bot = spec_.bots[id];
        if (remote::is_remote(bot.command)) {
            int games = 0;
            for (const auto& row : pending_)
                games += static_cast<int>(
                    std::count(row.game.seats.begin(), row.game.seats.end(), static_cast<int>(id)));
            desk_.expect(std::string(remote::token_of(bot.command)), games);
            log::info(
                "bot {} is remote: it connects to ws://{}{}{} for each of its games "
                "(bananagrams-connect --games 0 --words from-seat URL -- CMD)",
                bot.name, shown.authority(), remote::seat_path, remote::token_of(bot.command));
        }
    }
    desk_.on_refused = [this](const remote::Desk::Refusal& refusal, const std::string& peer) {
        const std::string what =
            fmt::format("refused a connection from {}: {} ({})", peer, refusal.why, refusal.status);
        if (runner_)
            runner_->note(what);
    };
    return std::nullopt;
}

// A game recorded: the tallies, the status line, the live page, and the SPRT's verdict, which
// stops the run.
void Run::recorded(const FixtureRecord& row) {
    if (row.replay_of) {
        // A replay takes its first play's place in its deal's pair: the pairs again, from all
        // the games that count now.
        pairs_ = PairTally();
        for (const auto& counted : database_.games())
            pairs_.add(counted);
    } else {
        pairs_.add(row);
    }
    status_->recorded(row, pairs_);
    if (live_)
        live_->recorded(row);
    if (!stop_reason_.empty())
        return;
    if (auto verdict = sprt_.decide(pairs_)) {
        stop_reason_ = *verdict;
        try {
            database_.set_stopped(stop_reason_);
        } catch (const std::exception& e) {
            log::error("the database could not be written: {}", e.what());
        }
        runner_->stop();
    }
}

std::string Run::finish_reason() const {
    if (!stop_reason_.empty())
        return stop_reason_;
    if (signal_ != 0)
        return fmt::format("stopped by SIG{}", sigabbrev_np(signal_));
    return "every game is done";
}

Runner::Options Run::runner_options() {
    Runner::Options options;
    options.concurrency = concurrency_;
    options.reuse = settings_.reuse;
    options.venue = venue_.get();
    options.on_waiting = [this](const std::string& why) {
        if (!std::exchange(said_waiting_, true)) {
            status_->clear();
            log::info("a game waits for cores of its own: {}", why);
        }
    };
    options.on_recorded = [this](const FixtureRecord& row) { recorded(row); };
    options.seats = seats_.get();
    options.desk = &desk_;
    if (live_) {
        options.on_started = [this](const FixtureRecord& row) { live_->started(row); };
        options.on_record = [this](int game, const nlohmann::json& record) {
            live_->record(game, record);
        };
    }
    return options;
}

// The games on the loop, to the end of the run; an exit status when it failed.
std::optional<int> Run::run_loop() {
    bg::EventLoop loop;
    // What runs on the loop goes before the loop does, however this ends (an exception from
    // the database included): its handles are closed while their loop is there to close them.
    struct Release {
        Run& run;
        ~Release() {
            run.signals_.clear();
            run.runner_.reset();
            run.live_.reset();
        }
    } release{*this};
    if (auto status = start_live(loop.get()))
        return status;
    // Without a terminal, a line every --progress seconds however long the games take.
    bg::Timer progress(loop.get(), [this, &progress] {
        status_->tick();
        progress.start(settings_.progress_ms);
    });
    progress.start(settings_.progress_ms);
    Runner::Options options = runner_options();
    options.on_finished = [this, &progress] {
        // Every game is over: a signal from now on changes nothing, and must not kill the run
        // before it has printed its standings.
        bg::hold_signals(bg::Match::abort_signals);
        signals_.clear();
        progress.close();
        if (live_)
            live_->finished(finish_reason(), [] {});
    };
    runner_.emplace(loop.get(), database_, std::move(pending_), std::move(options));
    for (int s : bg::Match::abort_signals)
        signals_.emplace_back(loop.get(), s, [this](int signum) {
            if (signal_ == 0)
                signal_ = signum;
            runner_->stop();
        });
    runner_->start();
    loop.run();
    status_->clear();
    const std::string error = runner_->error();
    runner_.reset();
    if (live_) {
        const auto counts = live_->counts();
        log::info("the live server sent {} stream{}; {} fell behind and {} dropped", counts.served,
                  counts.served == 1 ? "" : "s", counts.dropped,
                  counts.dropped == 1 ? "was" : "were");
        live_.reset();
    }
    if (!loop.close())
        log::error("internal: libuv handles left open");
    if (!error.empty()) {
        log::error(
            "{}; the games not recorded are pending: 'tournament resume --db {}' "
            "plays them",
            error, escape_for_terminal(database_.path()));
        return exit_database;
    }
    return std::nullopt;
}

// The standings, and the exit status: stopped by a signal before every game was recorded, on
// stderr with how to resume; else on stdout.
int Run::conclude() {
    if (!stop_reason_.empty())
        log::info("{}", stop_reason_);
    const auto rows = database_.games();
    const bool all_done = std::all_of(rows.begin(), rows.end(), [](const FixtureRecord& row) {
        return row.state == State::done;
    });
    if (signal_ != 0 && !all_done) {
        err.write(standings_table(standings(spec_, rows, database_.stopped())));
        log::info("stopped by SIG{}; 'tournament resume --db {}' plays the games left",
                  sigabbrev_np(signal_), escape_for_terminal(database_.path()));
        return 128 + signal_;
    }
    const auto result = standings(spec_, rows, database_.stopped());
    out.write(settings_.json ? standings_json(result).dump() + "\n" : standings_table(result));
    return exit_done;
}

int Run::play() {
    if (auto error = database_.lock_for_running()) {
        log::error("{}", *error);
        return exit_database;
    }
    if (const auto stopped = database_.stopped()) {
        log::info("already stopped: {}", *stopped);
        return conclude();
    }
    for (auto step : {&Run::prepare_venue, &Run::choose_concurrency})
        if (auto status = (this->*step)())
            return *status;
    take_pending();
    if (auto status = run_loop())
        return *status;
    return conclude();
}

}  // namespace

PlaySettings play_settings(const po::variables_map& vm) {
    PlaySettings settings{static_cast<int>(bg::options::count(vm, "concurrency", 1, 4096)),
                          static_cast<int>(bg::options::count(vm, "rating-interval", 1, 1'000'000)),
                          bg::options::count(vm, "progress", 1, 86'400) * 1000,
                          vm["json"].as<bool>(),
                          std::nullopt,
                          bg::options::read_reuse(vm)};
    settings.replay_contended = vm.count("replay-contended") && vm["replay-contended"].as<bool>();
    settings.remote_grace_ms = bg::options::read_remote_grace(vm);
    if (vm.count("serve")) {
        auto address = serve::parse_address(vm["serve"].as<std::string>());
        if (auto* why = std::get_if<std::string>(&address))
            throw po::error(*why);
        settings.serve = std::get<serve::Address>(address);
    }
    return settings;
}

std::optional<std::string> remote_without_server(const TournamentSpec& spec,
                                                 const PlaySettings& settings) {
    for (const auto& bot : spec.bots)
        if (remote::is_remote(bot.command) && !settings.serve)
            return fmt::format(
                "bot {} is remote: it takes its seats by connecting to the live server: give "
                "--serve ADDR:PORT (127.0.0.1:0 for this machine alone)",
                bot.name);
    return std::nullopt;
}

int play(Database& database, const PlaySettings& settings) {
    if (auto why = remote_without_server(database.spec(), settings)) {
        log::error("{}", *why);
        return exit_usage;
    }
    return Run(database, settings).play();
}

}  // namespace bg::tournament
