#include "arena/checks.hpp"

#include <fmt/format.h>

#include "remote/remote_seat.hpp"
#include "remote/token.hpp"

namespace bg::arena {

Checks::Checks(uv_loop_t* loop, remote::Desk& desk, Lobby& lobby, const Dictionary& dictionary,
               const GameSetup& game, std::uint64_t move_ms,
               std::function<void(const input::Checked&)> over)
    : loop_(loop),
      desk_(desk),
      lobby_(lobby),
      dictionary_(dictionary),
      game_(game),
      move_ms_(move_ms),
      over_(std::move(over)) {}

bool Checks::start(const effect::Check& check) {
    auto running = std::make_unique<Running>();
    running->token = remote::draw_token();
    if (!lobby_.take(check.connection, running->token, scenarios, nullptr))
        return false;  // gone: nothing to check
    checker::Options options;
    options.command = fmt::format("{}{}", check.bot.name,
                                  check.entry.label.empty() ? "" : " " + check.entry.label);
    options.seat = [this, token = running->token](uv_loop_t* loop) -> std::unique_ptr<Seat> {
        remote::RemoteSeat::Options seat;
        seat.grace_ms = 0;  // as a match's: a bot that drops its connection has left
        return std::make_unique<remote::RemoteSeat>(loop, desk_, token, seat);
    };
    options.connect_ms = connect_ms;
    options.dictionary = &dictionary_;
    options.legacy_dialect = game_.dialect;
    options.wait_ms = game_.ready_timeout_ms;
    options.move_ms = move_ms_;
    options.grace_ms = game_.kill_grace_ms;
    Running& made = *running;
    running_[check.connection] = std::move(running);
    const Connection connection = check.connection;
    made.run = std::make_unique<checker::Run>(
        loop_, std::move(options), made.report,
        [this, connection](const checker::Outcome& outcome) { finished(connection, outcome); });
    return true;
}

void Checks::finished(Connection connection, const checker::Outcome& outcome) {
    const bool passed = outcome.failed == 0 && outcome.passed > 0;
    input::Checked checked{connection, passed, outcome.passed, "", ""};
    if (!passed && outcome.first_failed) {
        const checker::Check& failed = *outcome.first_failed;
        checked.why = failed.name + (failed.hint.empty() ? "" : " (" + failed.hint + ")");
    } else if (!passed) {
        checked.why = "no check was made";
    }
    // The connection is told the check that failed (a close frame's reason, which the server
    // cuts to fit); the whole reason, with its hint, is in the API.
    checked.told = outcome.first_failed
                       ? fmt::format("failed the arena's check: {}", outcome.first_failed->name)
                       : std::string("failed the arena's check");
    over_(checked);
}

void Checks::done(const effect::CheckDone& done) {
    const auto found = running_.find(done.connection);
    if (found == running_.end())
        return;
    const std::string token = found->second->token;
    // The run may be where this came from: it tells its end from a timer of its own, and may
    // be destroyed in it (checker/checker.hpp).
    running_.erase(found);
    lobby_.check_over(token, done.passed, done.told);
}

void Checks::cancel() {
    for (auto& [connection, running] : std::exchange(running_, {})) {
        running->run.reset();
        lobby_.match_over({running->token});
    }
}

}  // namespace bg::arena
