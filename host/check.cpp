// host --check CMD: the conformance checker (checker/), against the bot started as a game would
// start it: from the same venue, in its sandbox and a cgroup of a game's.
#include <iostream>
#include <stdexcept>

#include "checker/checker.hpp"
#include "core/text.hpp"
#include "host/host.hpp"
#include "match/venue.hpp"

namespace bg::host {

int check_bot(const Invocation& invocation) {
    auto opened = Venue::open(venue_plan(invocation));
    if (auto* error = std::get_if<std::string>(&opened)) {
        say("host: {}\n", escape_for_terminal(*error));
        return exit_failed;
    }
    Venue& venue = *std::get<std::unique_ptr<Venue>>(opened);
    std::string missing;
    if (!checker::has_scenario_words(venue.dictionary(), &missing)) {
        say("host: the word list lacks {}, which the checks deal: check with a fuller list\n",
            missing);
        return exit_failed;
    }
    if (auto error = venue.prepare_players()) {
        say("host: {}\n", escape_for_terminal(*error));
        return exit_no_sandbox;
    }
    // The scenarios' bots are players of one game: each in a cgroup of its own in it.
    auto game = venue.game_cgroup();
    if (auto* error = std::get_if<cgroups::Machine::GameError>(&game)) {
        say("host: {}\n", escape_for_terminal(error->message));
        return exit_no_sandbox;
    }
    cgroups::GameCgroup* cgroup = std::get<std::unique_ptr<cgroups::GameCgroup>>(game).get();
    const GameSetup& setup = invocation.setup;
    checker::Options options;
    options.command = setup.commands[0];
    options.dictionary = &venue.dictionary();
    options.legacy_dialect = setup.dialect;
    options.wait_ms = setup.ready_timeout_ms;
    options.grace_ms = setup.kill_grace_ms;
    options.seat = [&venue, cgroup, scenario = 0](uv_loop_t* loop) mutable {
        auto seat = venue.seat(loop, scenario++, 0, cgroup);
        // A cgroup that cannot be made is the machine's failure, not the bot's: the check
        // stops, said so.
        if (!seat->cgroup_error().empty())
            throw std::runtime_error("cannot make the bot's cgroup: " + seat->cgroup_error());
        return seat;
    };
    const int failed = checker::run(options, std::cout);
    std::cout.flush();
    return failed == 0 ? exit_played : exit_failed;
}

}  // namespace bg::host
