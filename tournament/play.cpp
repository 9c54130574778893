#include "tournament/play.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "host/host_dictionaries.hpp"
#include "host/options.hpp"
#include "host/players_word_list.hpp"
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

// The player sandbox, or the launches without one; with its record for the game logs.
struct Players {
    std::vector<bg::Launch> launches;
    nlohmann::json record = nullptr;
};

std::variant<Players, std::string> players_for(const Spec& spec, const std::string& db,
                                               const bg::PlayersWordList& words) {
    Players players;
    std::vector<std::string> commands;
    for (const auto& bot : spec.bots)
        commands.push_back(bot.command);
    if (!spec.sandboxed) {
        players.launches = bg::unsandboxed_launches(commands, {words.variable()});
        return players;
    }
    bg::SandboxConfig config = spec.sandbox;
    // No player may read the tournament (its seeds are every deal) or another game's log.
    for (const std::string suffix : {"", "-wal", "-shm"})
        if (std::filesystem::exists(db + suffix))
            config.secret_paths.push_back(db + suffix);
    if (!spec.logs.empty())
        config.secret_paths.push_back(spec.logs);
    config.shared_paths.push_back(words.path());
    config.set_env.push_back(words.variable());
    auto made = bg::Sandbox::create(config, commands);
    if (auto* error = std::get_if<std::string>(&made))
        return *error;
    const auto& sandbox = std::get<bg::Sandbox>(made);
    for (std::size_t i = 0; i < commands.size(); ++i)
        players.launches.push_back(sandbox.launch(i));
    players.record = bg::options::sandbox_json(sandbox.config());
    return players;
}

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

    void recorded(const GameRow& row, const PairTally& pairs) {
        ++done_;
        last_pairs_ = pairs;
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
    // The clock's turn: without a terminal, the line again.
    void tick() {
        if (!terminal_)
            say("{}\n", line(last_pairs_));
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
    PairTally last_pairs_;
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

}  // namespace

PlaySettings play_settings(const po::variables_map& vm) {
    PlaySettings settings{static_cast<int>(bg::options::count(vm, "concurrency", 1, 4096)),
                          static_cast<int>(bg::options::count(vm, "rating-interval", 1, 1'000'000)),
                          bg::options::count(vm, "progress", 1, 86'400) * 1000,
                          vm["json"].as<bool>(), std::nullopt};
    if (vm.count("serve")) {
        auto address = serve::parse_address(vm["serve"].as<std::string>());
        if (auto* why = std::get_if<std::string>(&address))
            throw po::error(*why);
        settings.serve = std::get<serve::Address>(address);
    }
    return settings;
}

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
        // The list it began with: its file unchanged, or the built-in list it recorded (an
        // earlier host's default is read from its file).
        auto found =
            bg::recorded_word_list(spec.game.dictionary, spec.game.dictionary_fingerprint, loaded);
        if (!made_or_said(found))
            return exit_database;
        const bg::Dictionary& dictionary = *std::get<const bg::Dictionary*>(found);
        if (!spec.logs.empty()) {
            std::error_code error;
            std::filesystem::create_directories(spec.logs, error);
            if (error) {
                say("tournament: cannot make the log directory {}: {}\n",
                    escape_for_terminal(spec.logs), error.message());
                return exit_database;
            }
        }
        auto words = bg::PlayersWordList::make(spec.game.dictionary, dictionary,
                                               spec.sandboxed && ::geteuid() == 0);
        if (!made_or_said(words))
            return exit_database;
        auto players = players_for(spec, database.path(), std::get<bg::PlayersWordList>(words));
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
            std::unique_ptr<Live> live;
            if (settings.serve) {
                auto started = Live::start(loop.get(), *settings.serve, database);
                if (!made_or_said(started)) {
                    say("tournament: no game was played: 'tournament resume --db {} --serve "
                        "ADDR:PORT' plays them\n",
                        escape_for_terminal(database.path()));
                    return exit_database;
                }
                live = std::move(std::get<std::unique_ptr<Live>>(started));
                serve::Address shown = *settings.serve;
                shown.port = live->port();
                status.clear();
                say("tournament: watch it live at http://{}/{}\n", shown.authority(),
                    shown.loopback() ? ""
                                     : " (not a loopback address: anyone who can reach this "
                                       "machine can watch)");
            }
            std::vector<bg::SignalWatch> signals;
            // Without a terminal, a line every --progress seconds however long the games take.
            bg::Timer progress(loop.get(), [&status, &progress, every = settings.progress_ms] {
                status.tick();
                progress.start(every);
            });
            progress.start(settings.progress_ms);
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
            options.on_finished = [&] {
                // Every game is over: a signal from now on changes nothing, and must not kill
                // the run before it has printed its standings.
                bg::hold_signals(bg::Match::abort_signals);
                signals.clear();
                progress.close();
                if (live)
                    live->finished(!stop_reason.empty() ? stop_reason
                                   : signal != 0
                                       ? fmt::format("stopped by SIG{}", sigabbrev_np(signal))
                                       : "every game is done",
                                   [] {});
            };
            if (live) {
                options.on_started = [&](const GameRow& row) { live->started(row); };
                options.on_record = [&](int game, const nlohmann::json& record) {
                    live->record(game, record);
                };
            }
            Runner* runner_ptr = nullptr;
            options.on_recorded = [&](const GameRow& row) {
                pairs.add(row);
                status.recorded(row, pairs);
                if (live)
                    live->recorded(row);
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
            if (live) {
                const auto counts = live->counts();
                say("tournament: the live server sent {} stream{}; {} fell behind and {} dropped\n",
                    counts.served, counts.served == 1 ? "" : "s", counts.dropped,
                    counts.dropped == 1 ? "was" : "were");
            }
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
        // A signal that came once every game was recorded stopped nothing: the run is done.
        const auto rows_now = database.games();
        const bool all_done = std::all_of(rows_now.begin(), rows_now.end(),
                                          [](const GameRow& row) { return row.state == State::done; });
        if (signal != 0 && !all_done) {
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

}  // namespace bg::tournament
