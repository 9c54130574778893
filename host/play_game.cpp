// A game, or --games N of them with the same players, in a few steps: the venue (word list,
// sandbox, machine) and the players' table (match/table.hpp: their cgroup, their lineup, in
// which v004 bots stay from game to game, their seats) once; then each game's files and live
// server, the game on the loop to its end, and what is left to write (the log's end, the page);
// the players let go, the totals and the exit status.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "core/random.hpp"
#include "core/text.hpp"
#include "host/host.hpp"
#include "host/live.hpp"
#include "match/table.hpp"
#include "record/game_files.hpp"
#include "remote/desk.hpp"
#include "remote/seats.hpp"
#include "remote/token.hpp"
#include "transport/handles.hpp"
#include "viewer/pages.hpp"

namespace bg::host {

VenuePlan venue_plan(const Invocation& invocation, std::vector<std::string> secrets) {
    VenuePlan plan;
    plan.dictionary = invocation.setup.dictionary;
    // A remote seat's token is no business of the venue's: it never starts that seat.
    for (const auto& command : invocation.setup.commands)
        plan.commands.push_back(remote::shown_command(command));
    if (invocation.sandboxed)
        plan.sandbox = invocation.sandbox;
    plan.secret_paths = std::move(secrets);
    plan.log_folder = invocation.logs;
    plan.shares = invocation.shares;
    plan.limits = player_limits(invocation.sandbox.limits);
    plan.note = [](const std::string& line) { log::info("{}", line); };
    return plan;
}

serve::ForPlayers for_remote_players(const Invocation& invocation, const Venue& venue) {
    const Dictionary& dictionary = venue.dictionary();
    return serve::for_players(
        invocation.setup, static_cast<int>(invocation.setup.commands.size()), dictionary,
        word_list_name(invocation.setup.dictionary, dictionary.stats().fingerprint),
        invocation.remote_grace_ms);
}

namespace {

// What the games share, set up once: the loop, the venue (word list, sandbox, machine), the
// seats' source and the players' table, and the signals that stop them. Declared in the order
// they must go: the venue outlives the loop's last turn, the players (the table) go before the
// seats' source, and the signals' handles before their loop.
struct Series {
    EventLoop loop;
    remote::Desk desk;  // the remote seats' (docs/remote.md)
    std::unique_ptr<Venue> venue;
    std::unique_ptr<remote::Seats> seats;
    std::unique_ptr<Table> table;
    std::vector<SignalWatch> signals;
    int stop_signal = 0;  // a signal that stops the series: no game starts after it
};

// What a game is played with and leaves behind, in the order they go: its live server outlives
// the loop's last turn of the game, its files and page records the match.
struct Game {
    int number = 1;  // in the series, from 1
    std::uint64_t seed = 0;
    std::unique_ptr<GameFiles> files;
    std::vector<nlohmann::json> page_records;  // --html without --log: the log kept here
    std::unique_ptr<live::Observer> live;
    std::optional<Table::Ended> ended;  // once played
};

// The seeds of the games: the first is --seed itself (one game deals as it always has), each
// later one drawn from it, as a tournament draws its deals.
std::vector<std::uint64_t> series_seeds(std::uint64_t seed, int games) {
    std::vector<std::uint64_t> seeds{seed};
    SplitMix64 draw(seed);
    while (static_cast<int>(seeds.size()) < games)
        seeds.push_back(draw.next());
    return seeds;
}

// Game `number`'s files: its log at --log, or its file in --logs, or none; false (said why)
// when the log cannot be written. The first game's are made before the sandbox, so that the
// sandbox can hide the log.
bool open_files(const Invocation& invocation, Game& game) {
    const std::string path =
        invocation.logs.empty() ? invocation.log : game_log_path(invocation.logs, game.number);
    auto made = GameFiles::open(path, static_cast<int>(invocation.setup.commands.size()), false);
    if (auto* error = std::get_if<std::string>(&made)) {
        log::error("{}", *error);
        return false;
    }
    game.files = std::move(std::get<std::unique_ptr<GameFiles>>(made));
    return true;
}

// The venue: its word list, which no game can do without, and --logs' folder, made; or the exit
// status, said why. The players may read neither --log's file nor --logs' folder.
std::optional<int> open_venue(const Invocation& invocation, Series& series) {
    std::vector<std::string> secrets;
    if (!invocation.log.empty())
        secrets.push_back(invocation.log);
    auto opened = Venue::open(venue_plan(invocation, std::move(secrets)));
    if (auto* error = std::get_if<std::string>(&opened)) {
        log::error("{}", escape_for_terminal(*error));
        return exit_failed;
    }
    series.venue = std::move(std::get<std::unique_ptr<Venue>>(opened));
    return std::nullopt;
}

// The players' table: their cgroup (the games', in cgroups' terms: their cores) for the whole
// series, their lineup, their seats (a remote one's at the desk); false (said why, and a log
// this host made for the first game gone) when it cannot be had.
bool seat_players(const Invocation& invocation, Series& series, Game& first) {
    remote::RemoteSeat::Options remote;
    remote.grace_ms = invocation.remote_grace_ms;
    series.seats = std::make_unique<remote::Seats>(invocation.setup.commands, &series.desk, remote,
                                                   *series.venue);
    std::vector<int> commands(invocation.setup.commands.size());
    std::iota(commands.begin(), commands.end(), 0);
    Lineup::Options options;
    options.keep = !invocation.reuse.fresh;
    options.games_per_process = invocation.reuse.games_per_process;
    options.kill_grace_ms = invocation.setup.kill_grace_ms;
    options.player_lines = [](int slot, const std::string& line) {
        err.write(fmt::format("[player {}] {}\n", slot + 1, line));
    };
    auto made = Table::open(series.loop.get(), *series.venue, *series.seats, std::move(commands),
                            std::move(options));
    if (auto* why = std::get_if<cgroups::Machine::GameError>(&made)) {
        log::error("{}", escape_for_terminal(why->message));
        first.files->abandon();
        return false;
    }
    series.table = std::move(std::get<std::unique_ptr<Table>>(made));
    // A refused connection changes nothing in the game; its log says it.
    series.desk.on_refused = [&series](const remote::Desk::Refusal& refusal,
                                       const std::string& peer) {
        series.table->note(fmt::format("refused a connection from {}: {} ({})", peer, refusal.why,
                                       refusal.status));
    };
    return true;
}

// Each remote seat's URL, token included: what its player connects to (docs/remote.md).
void say_seats(const Invocation& invocation, const serve::Address& shown) {
    const auto& commands = invocation.setup.commands;
    for (std::size_t i = 0; i < commands.size(); ++i) {
        if (!remote::is_remote(commands[i]))
            continue;
        const std::string_view token = remote::token_of(commands[i]);
        log::info(
            "player {} is remote: a bot connects to ws://{}{}{} (bananagrams-connect "
            "--words from-seat URL -- CMD), a person opens http://{}/play#{}",
            i + 1, shown.authority(), remote::seat_path, token, shown.authority(), token);
    }
}

// --serve: the server, observing the log as it is written; false (said why) when it cannot
// listen.
bool start_live(const Invocation& invocation, Series& series, Game& game) {
    if (!invocation.serve)
        return true;
    // The server takes seats only where the game has remote ones.
    const auto& commands = invocation.setup.commands;
    const bool remote = std::any_of(commands.begin(), commands.end(),
                                    [](const std::string& c) { return remote::is_remote(c); });
    auto started = live::serve(
        series.loop.get(), *invocation.serve, remote ? &series.desk : nullptr,
        remote ? std::optional(for_remote_players(invocation, *series.venue)) : std::nullopt);
    if (auto* error = std::get_if<std::string>(&started)) {
        log::error("--serve: {}; no game was played", escape_for_terminal(*error));
        return false;
    }
    game.live = std::move(std::get<std::unique_ptr<live::Observer>>(started));
    serve::Address shown = *invocation.serve;
    shown.port = game.live->port();
    if (remote)
        log::info(
            "serving the remote seats at http://{}/ (not the live page: it shows every "
            "player's tiles, and a remote player could read it)",
            shown.authority());
    else
        log::info("watch it live at http://{}/{}", shown.authority(),
                  shown.loopback()
                      ? ""
                      : " (not a loopback address: anyone who can reach this machine can "
                        "watch)");
    say_seats(invocation, shown);
    return true;
}

// Every record as it is written: to the live server, and kept for the page when no file is.
void observe_log(const Invocation& invocation, Game& game) {
    const bool keep = !invocation.html.empty() && !game.files->has_log_file();
    if (!game.live && !keep)
        return;
    game.files->log().observe([&game, keep](const nlohmann::json& record) {
        if (game.live)
            game.live->record(record);
        if (keep)
            game.page_records.push_back(record);
    });
}

// A closed terminal (SIGHUP) or ssh session, ^C, ^\ and kill all end the game being played the
// same way: aborted, recorded, and every player ended; and no game starts after it. The watches
// keep no loop running by themselves: the loop runs as long as a game does.
void watch_signals(Series& series) {
    for (int signal : Match::abort_signals) {
        series.signals.emplace_back(series.loop.get(), signal, [&series](int signum) {
            if (series.stop_signal == 0)
                series.stop_signal = signum;
            series.table->abort(signum);
        });
        series.signals.back().unref();
    }
}

// The game on the loop, to its end; the result printed. The exit status so far. After the
// last game a signal changes nothing: it must not kill the host before it has said the result.
// Its players go back to the table's lineup, the ones that stay parked there; unless no game
// follows, the loop then stops (their processes would keep it running) until the next game.
int run_game(const Invocation& invocation, Series& series, Game& game, bool last) {
    Table::Game played;
    played.setup = invocation.setup;
    played.setup.game.seed = game.seed;
    for (auto& command : played.setup.commands)
        command = remote::shown_command(command);
    played.slots.resize(played.setup.commands.size());
    std::iota(played.slots.begin(), played.slots.end(), 0);
    played.log = &game.files->log();
    played.options.player_lines = [](PlayerId player, const std::string& line) {
        err.write(fmt::format("[player {}] {}\n", player + 1, line));
    };
    if (!invocation.quiet)
        played.options.reporter = print_live_line;
    series.table->play(std::move(played), [&series, &game, last](Table::Ended ended) {
        game.ended = std::move(ended);
        if (last || series.stop_signal != 0) {
            if (last) {
                hold_signals(Match::abort_signals);
                series.signals.clear();
            }
            series.table->dismiss();
        } else {
            series.loop.stop();
        }
        // Its clients get the end, then the server closes and the loop can run out.
        if (game.live)
            game.live->finished([] {});
    });
    // A signal that came between games (while the last one's records were written) stops this
    // one at once.
    if (series.stop_signal != 0)
        series.table->abort(series.stop_signal);
    series.loop.run();
    print_result(game.ended->result, invocation.json);
    if (game.ended->abort_signal != 0)
        return 128 + game.ended->abort_signal;
    return game.ended->any_failed_to_start ? exit_player_failed : exit_played;
}

// The log's end and the page, once the game's loop is done; the exit status, worse when either
// could not be written.
int write_records(const Invocation& invocation, Game& game, int status) {
    const bool played = status == exit_played || status == exit_player_failed;
    const bool log_failed = game.files->log().failed();
    const std::string log_path = game.files->log_path();
    const bool log_file = game.files->has_log_file();
    if (const std::string error = game.files->close(); !error.empty()) {
        log::error("{}", error);
        if (played)
            status = exit_failed;
    }
    if (invocation.html.empty())
        return status;
    bool written = false;
    if (log_file) {
        std::ifstream records(log_path, std::ios::binary);
        written = write_game_page(records, log_path, invocation.html);
    } else if (!log_failed) {
        written = write_game_page(game.page_records, invocation.html);
    }
    if (written && !invocation.quiet)
        err.write(fmt::format("the game's page: {}\n", escape_for_terminal(invocation.html)));
    if (!written && played)
        status = exit_failed;
    return status;
}

// Game `game.number` of the series, from its log to its records; its exit status.
int play_one(const Invocation& invocation, Series& series, Game& game, bool last) {
    if (!invocation.quiet && invocation.games > 1)
        err.write(
            fmt::format("game {} of {}, seed {}\n", game.number, invocation.games, game.seed));
    else if (!invocation.quiet)
        err.write(fmt::format("seed {}\n", game.seed));
    if (!start_live(invocation, series, game)) {
        game.files->abandon();
        return exit_failed;
    }
    observe_log(invocation, game);
    int status = run_game(invocation, series, game, last);
    // The server is done (the loop ran out once it had closed): gone before the loop is.
    game.live.reset();
    return write_records(invocation, game, status);
}

// After more than one game: each player's wins in the games played, and those without a winner.
void print_totals(const std::vector<int>& wins, int games, int no_winner) {
    std::string line = fmt::format("{} games:", games);
    for (std::size_t p = 0; p < wins.size(); ++p)
        line += fmt::format("{} player {} won {}", p == 0 ? "" : ",", p + 1, wins[p]);
    out.write(fmt::format("{}; no winner {}\n", line, no_winner));
}

}  // namespace

int play_game(const Invocation& invocation) {
    Series series;
    if (auto status = open_venue(invocation, series))
        return *status;
    const auto seeds = series_seeds(invocation.setup.game.seed, invocation.games);
    std::vector<Game> games(seeds.size());
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        games[i].number = static_cast<int>(i) + 1;
        games[i].seed = seeds[i];
    }
    // The first game's log before the sandbox, which hides it (--logs' folder is hidden whole).
    if (!open_files(invocation, games.front()))
        return exit_failed;
    if (auto failed = series.venue->prepare_players()) {
        log::error("{}", escape_for_terminal(*failed));
        games.front().files->abandon();
        return exit_no_sandbox;
    }
    if (!seat_players(invocation, series, games.front()))
        return exit_no_sandbox;
    watch_signals(series);
    int status = exit_played;
    std::vector<int> wins(invocation.setup.commands.size(), 0);
    int no_winner = 0, played = 0;
    for (Game& game : games) {
        // A signal that came while the last game's records were written: no game starts.
        for (auto& watch : series.signals)
            watch.ref();
        series.loop.run_nowait();
        for (auto& watch : series.signals)
            watch.unref();
        if (series.stop_signal != 0) {
            status = 128 + series.stop_signal;
            break;
        }
        if (game.number > 1 && !open_files(invocation, game)) {
            status = exit_failed;
            break;
        }
        const int game_status = play_one(invocation, series, game, game.number == invocation.games);
        if (game.ended) {
            ++played;
            if (const auto winner = game.ended->result.winner)
                ++wins[static_cast<std::size_t>(*winner)];
            else
                ++no_winner;
        }
        if (game_status != exit_played && game_status != exit_player_failed) {
            status = game_status;
            break;
        }
        if (game_status == exit_player_failed)
            status = exit_player_failed;
    }
    if (invocation.games > 1 && !invocation.json && played > 0)
        print_totals(wins, played, no_winner);
    // The players that stayed are told there is no next game, and go.
    series.table->dismiss();
    series.loop.run();
    series.table.reset();
    series.signals.clear();
    if (!series.loop.close())
        log::error("internal: libuv handles left open");
    // The machine's base goes with the last host using it.
    series.venue.reset();
    if (out.failed() && status == exit_played)
        return exit_output_failed;
    if (err.failed() && status == exit_played)
        return exit_stderr_failed;
    return status;
}

}  // namespace bg::host
