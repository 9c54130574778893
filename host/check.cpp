// host --check CMD: the conformance checker (checker/), against the bot started as a game would
// start it: from the same venue, in its sandbox and a cgroup of a game's. host --check remote:
// (host-live only) serves a remote seat for each scenario instead, and checks whatever bot
// connects to it, as a tournament's remote bot connects for each of its games.
#include <iostream>
#include <stdexcept>

#include "checker/checker.hpp"
#include "core/text.hpp"
#include "host/host.hpp"
#include "host/live.hpp"
#include "match/venue.hpp"
#include "remote/desk.hpp"
#include "remote/seats.hpp"
#include "remote/token.hpp"
#include "transport/handles.hpp"

namespace bg::host {

namespace {

constexpr std::uint64_t least_connect_ms = 60'000;  // for a remote bot to connect
constexpr int scenarios = 3;

// The checker's processes: each in a cgroup of its own in one game's.
bool prepare_processes(const Invocation& invocation, Venue& venue,
                       std::unique_ptr<cgroups::GameCgroup>& cgroup, checker::Options& options,
                       int& status) {
    if (auto error = venue.prepare_players()) {
        log::error("{}", escape_for_terminal(*error));
        status = exit_no_sandbox;
        return false;
    }
    auto game = venue.game_cgroup();
    if (auto* error = std::get_if<cgroups::Machine::GameError>(&game)) {
        log::error("{}", escape_for_terminal(error->message));
        status = exit_no_sandbox;
        return false;
    }
    cgroup = std::move(std::get<std::unique_ptr<cgroups::GameCgroup>>(game));
    options.command = invocation.setup.commands[0];
    options.group = [](const Seat& seat) { return static_cast<const ProcessSeat&>(seat).group(); };
    return true;
}

// The checker's seats over the network: a remote seat for each scenario, with the one token,
// taken at the server's address.
bool serve_remote_seats(const Invocation& invocation, uv_loop_t* loop, Venue& venue,
                        remote::Desk& desk, std::unique_ptr<live::Observer>& server,
                        checker::Options& options) {
    const std::string token(remote::token_of(invocation.setup.commands[0]));
    // The checks' games are of two players: the bot's seat and the host's part.
    Invocation checked = invocation;
    checked.setup.commands.resize(2);
    auto started = live::serve(loop, *invocation.serve, &desk, for_remote_players(checked, venue));
    if (auto* error = std::get_if<std::string>(&started)) {
        log::error("--serve: {}", escape_for_terminal(*error));
        return false;
    }
    server = std::move(std::get<std::unique_ptr<live::Observer>>(started));
    serve::Address shown = *invocation.serve;
    shown.port = server->port();
    desk.expect(token, scenarios);
    options.command = "the bot at the remote seat";
    options.connect_ms = std::max(least_connect_ms, invocation.setup.ready_timeout_ms);
    log::info(
        "the bot connects to ws://{}{}{} for each of the checks' {} games "
        "(bananagrams-connect --games 0 --retry 10 --words from-seat URL -- CMD); each waits {} "
        "s for it",
        shown.authority(), remote::seat_path, token, scenarios, options.connect_ms / 1000);
    return true;
}

}  // namespace

int check_bot(const Invocation& invocation) {
    auto opened = Venue::open(venue_plan(invocation));
    if (auto* error = std::get_if<std::string>(&opened)) {
        log::error("{}", escape_for_terminal(*error));
        return exit_failed;
    }
    Venue& venue = *std::get<std::unique_ptr<Venue>>(opened);
    std::string missing;
    if (!checker::has_scenario_words(venue.dictionary(), &missing)) {
        log::error("the word list lacks {}, which the checks deal: check with a fuller list",
                   missing);
        return exit_failed;
    }
    const GameSetup& setup = invocation.setup;
    checker::Options options;
    options.dictionary = &venue.dictionary();
    options.legacy_dialect = setup.dialect;
    options.wait_ms = setup.ready_timeout_ms;
    options.grace_ms = setup.kill_grace_ms;
    // Declared in the order they go: the seats' cgroup and the server before the loop.
    EventLoop loop;
    remote::Desk desk;
    std::unique_ptr<live::Observer> server;
    std::unique_ptr<cgroups::GameCgroup> cgroup;
    int status = exit_failed;
    const bool remote = remote::is_remote(setup.commands[0]);
    const bool ready =
        remote ? serve_remote_seats(invocation, loop.get(), venue, desk, server, options)
               : prepare_processes(invocation, venue, cgroup, options, status);
    if (!ready)
        return status;
    // A seat a scenario, from the one source a game's seats come from.
    remote::RemoteSeat::Options remote_options;
    remote_options.grace_ms = invocation.remote_grace_ms;
    const remote::Seats seats(setup.commands, remote ? &desk : nullptr, remote_options, venue);
    options.seat = [&seats, cgroup = cgroup.get(), scenario = 0](uv_loop_t* loop) mutable {
        auto seat = seats.seat({loop, scenario++, 0, cgroup, 1});
        // A cgroup that cannot be made is the machine's failure, not the bot's: the check
        // stops, said so.
        if (const auto* process = dynamic_cast<const ProcessSeat*>(seat.get());
            process && !process->cgroup_error().empty())
            throw std::runtime_error("cannot make the bot's cgroup: " + process->cgroup_error());
        return seat;
    };
    const int failed = checker::run(loop, options, std::cout);
    std::cout.flush();
    if (server) {
        // A bot that comes back is told its games are over, once the server closes.
        desk.expect_no_more();
        server->finished([] {});
        loop.run();
        server.reset();
    }
    cgroup.reset();
    if (!loop.close())
        log::error("internal: libuv handles left open");
    return failed == 0 ? exit_played : exit_failed;
}

}  // namespace bg::host
