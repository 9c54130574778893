// One game, in a few steps: its log, its venue (word list, sandbox, cgroups), its cgroup, its
// live server, the match on the loop to its end, and what is left to write (the log's end,
// the page, the exit status).
#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "core/text.hpp"
#include "host/host.hpp"
#include "host/live.hpp"
#include "match/match.hpp"
#include "record/event_log.hpp"
#include "record/output_file.hpp"
#include "transport/handles.hpp"
#include "viewer/pages.hpp"

namespace bg::host {

VenuePlan venue_plan(const Invocation& invocation, std::vector<std::string> secrets) {
    VenuePlan plan;
    plan.dictionary = invocation.setup.dictionary;
    plan.commands = invocation.setup.commands;
    if (invocation.sandboxed)
        plan.sandbox = invocation.sandbox;
    plan.secret_paths = std::move(secrets);
    plan.shares = invocation.shares;
    plan.limits = player_limits(invocation.sandbox.limits);
    plan.note = [](const std::string& line) { say("host: {}\n", line); };
    return plan;
}

namespace {

// What a game is played with and leaves behind, in the order they go: its live server and its
// venue outlive the loop's last turn, the log's file and page records the match.
struct Game {
    std::optional<OutputFile> log_file;
    EventLog log;
    std::vector<nlohmann::json> page_records;  // --html without --log: the log kept here
    std::unique_ptr<Venue> venue;
    std::unique_ptr<cgroups::GameCgroup> cgroup;
    std::unique_ptr<live::Observer> live;
};

// The log's file (--log), made before the sandbox so that the sandbox can hide it; or why not.
std::optional<std::string> open_log(const Invocation& invocation, Game& game) {
    if (!invocation.log.empty()) {
        auto made = OutputFile::create(invocation.log);
        if (auto* error = std::get_if<std::string>(&made))
            return fmt::format("cannot write log {}: {}", escape_for_terminal(invocation.log),
                               *error);
        game.log_file.emplace(std::move(std::get<OutputFile>(made)));
        game.log = EventLog(game.log_file->get());
    }
    return std::nullopt;
}

// The venue: its word list, which the game cannot do without; or the exit status, said why.
std::optional<int> open_venue(const Invocation& invocation, Game& game) {
    std::vector<std::string> secrets;
    if (!invocation.log.empty())
        secrets.push_back(invocation.log);
    auto opened = Venue::open(venue_plan(invocation, std::move(secrets)));
    if (auto* error = std::get_if<std::string>(&opened)) {
        say("host: {}\n", escape_for_terminal(*error));
        return exit_failed;
    }
    game.venue = std::move(std::get<std::unique_ptr<Venue>>(opened));
    return std::nullopt;
}

// Its players' sandbox and cgroups, the log being there for the sandbox to hide, and the
// game's cgroup; false (said why, and a log this host made gone) when they cannot be had.
bool prepare_players(Game& game) {
    std::string error;
    if (auto failed = game.venue->prepare_players()) {
        error = *failed;
    } else {
        auto made = game.venue->game_cgroup();
        if (auto* why = std::get_if<cgroups::Machine::GameError>(&made))
            error = why->message;
        else
            game.cgroup = std::move(std::get<std::unique_ptr<cgroups::GameCgroup>>(made));
    }
    if (error.empty())
        return true;
    say("host: {}\n", escape_for_terminal(error));
    if (game.log_file)
        game.log_file->abandon();
    return false;
}

// --serve: the server, observing the log as it is written; false (said why) when it cannot
// listen.
bool start_live(const Invocation& invocation, uv_loop_t* loop, Game& game) {
    if (!invocation.serve)
        return true;
    auto started = live::serve(loop, *invocation.serve);
    if (auto* error = std::get_if<std::string>(&started)) {
        say("host: --serve: {}; no game was played\n", escape_for_terminal(*error));
        return false;
    }
    game.live = std::move(std::get<std::unique_ptr<live::Observer>>(started));
    serve::Address shown = *invocation.serve;
    shown.port = game.live->port();
    say("host: watch it live at http://{}/{}\n", shown.authority(),
        shown.loopback() ? ""
                         : " (not a loopback address: anyone who can reach this machine can "
                           "watch)");
    return true;
}

// Every record as it is written: to the live server, and kept for the page when no file is.
void observe_log(const Invocation& invocation, Game& game) {
    const bool keep = !invocation.html.empty() && !game.log_file;
    if (!game.live && !keep)
        return;
    game.log.observe([&game, keep](const nlohmann::json& record) {
        if (game.live)
            game.live->record(record);
        if (keep)
            game.page_records.push_back(record);
    });
}

// The match on the loop, to its end; the result printed. The exit status so far.
int run_match(const Invocation& invocation, EventLoop& loop, Game& game) {
    GameSetup setup = invocation.setup;
    game.venue->describe(setup, game.cgroup.get());
    Match::Options options;
    options.player_lines = [](PlayerId player, const std::string& line) {
        say("[player {}] {}\n", player + 1, line);
    };
    if (!invocation.quiet)
        options.reporter = print_live_line;
    std::vector<SignalWatch> signals;
    options.on_done = [&] {
        // The game is over: a signal from now on changes nothing, and must not kill the host
        // before it has printed the result.
        hold_signals(Match::abort_signals);
        signals.clear();
        // Its clients get the end, then the server closes and the loop can run out.
        if (game.live)
            game.live->finished([] {});
    };
    std::vector<int> commands(setup.commands.size());
    std::iota(commands.begin(), commands.end(), 0);
    Match match(loop.get(), std::move(setup), game.venue->dictionary(), game.log,
                game.venue->seats(loop.get(), commands, game.cgroup.get()), std::move(options));
    // A closed terminal (SIGHUP) or ssh session, ^C, ^\ and kill all end the game the same way:
    // aborted, recorded, and every player ended.
    for (int signal : Match::abort_signals)
        signals.emplace_back(loop.get(), signal, [&match](int signum) { match.abort(signum); });
    match.start();
    loop.run();
    const Referee& referee = match.referee();
    print_result(referee.result(), invocation.json);
    if (referee.abort_signal() != 0)
        return 128 + referee.abort_signal();
    return referee.any_failed_to_start() ? exit_player_failed : exit_played;
}

// The log's end and the page, once the loop is done; the exit status, worse when either could
// not be written.
int write_records(const Invocation& invocation, Game& game, int status) {
    const bool played = status == exit_played || status == exit_player_failed;
    if (game.log_file) {
        const std::string closed = game.log_file->close();
        if (game.log.failed() || !closed.empty()) {
            say("host: the event log {} could not be written ({}){}\n",
                escape_for_terminal(invocation.log), game.log.failed() ? game.log.error() : closed,
                game.log.failed() ? ": the game was aborted" : "");
            if (played)
                status = exit_failed;
        }
    }
    if (invocation.html.empty())
        return status;
    bool written = false;
    if (game.log_file) {
        std::ifstream records(invocation.log, std::ios::binary);
        written = write_game_page(records, invocation.log, invocation.html);
    } else if (!game.log.failed()) {
        written = write_game_page(game.page_records, invocation.html);
    }
    if (written && !invocation.quiet)
        say("the game's page: {}\n", escape_for_terminal(invocation.html));
    if (!written && played)
        status = exit_failed;
    return status;
}

}  // namespace

int play_game(const Invocation& invocation) {
    // The loop before the game: should anything throw, the game's handles (its live server)
    // are closed while their loop is there to close them.
    EventLoop loop;
    Game game;
    if (auto status = open_venue(invocation, game))
        return *status;
    if (auto error = open_log(invocation, game)) {
        say("host: {}\n", *error);
        return exit_failed;
    }
    if (!prepare_players(game))
        return exit_no_sandbox;
    if (!invocation.quiet)
        say("seed {}\n", invocation.setup.game.seed);
    if (!start_live(invocation, loop.get(), game)) {
        if (game.log_file)
            game.log_file->abandon();
        return exit_failed;
    }
    observe_log(invocation, game);
    int status = run_match(invocation, loop, game);
    // The server is done (the loop ran out once it had closed): gone before the loop is.
    game.live.reset();
    if (!loop.close())
        say("host: internal: libuv handles left open\n");
    // The game's cgroup goes with its players, and the machine's base with the last host using
    // it.
    game.cgroup.reset();
    game.venue.reset();
    status = write_records(invocation, game, status);
    if (out.failed() && status == exit_played)
        return exit_output_failed;
    if (err.failed() && status == exit_played)
        return exit_stderr_failed;
    return status;
}

}  // namespace bg::host
