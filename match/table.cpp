#include "match/table.hpp"

#include <utility>

namespace bg {

std::variant<std::unique_ptr<Table>, cgroups::Machine::GameError> Table::open(
    uv_loop_t* loop, const Venue& venue, const SeatSource& seats, std::vector<int> commands,
    Lineup::Options options) {
    auto made = venue.game_cgroup();
    if (auto* error = std::get_if<cgroups::Machine::GameError>(&made))
        return std::move(*error);
    std::unique_ptr<Table> table(
        new Table(loop, venue, std::move(std::get<std::unique_ptr<cgroups::GameCgroup>>(made))));
    table->lineup_ = std::make_unique<Lineup>(loop, seats, table->cgroup_.get(),
                                              std::move(commands), std::move(options));
    return table;
}

Table::~Table() {
    match_.reset();
    lineup_.reset();
}

void Table::play(Game game, std::function<void(Ended)> done) {
    match_.reset();
    over_ = false;
    Lineup::Seating seating = lineup_->seat(game.slots, game.setup.game.seed);
    game.setup.game.continuing = std::move(seating.continuing);
    venue_.describe(game.setup, cgroup_.get());
    // The lineup parks or lets go a player that stays.
    game.options.keep = true;
    game.options.on_done = [this, done = std::move(done), restarted = seating.restarted] {
        over_ = true;
        const Referee& referee = match_->referee();
        lineup_->take_back(match_->release_seats(), referee.game().players());
        Ended ended{referee.result(), referee.abort_signal(), referee.any_failed_to_start()};
        for (std::size_t s = 0; s < ended.result.players.size(); ++s)
            ended.result.players[s].restarted = s < restarted.size() && restarted[s];
        done(std::move(ended));
    };
    match_ = std::make_unique<Match>(loop_, std::move(game.setup), venue_.dictionary(), *game.log,
                                     std::move(seating.seats), std::move(game.options));
    for (std::size_t i = 0; i < seating.readers.size(); ++i)
        if (seating.readers[i])
            match_->continue_reader(static_cast<PlayerId>(i), std::move(*seating.readers[i]));
    match_->start();
}

void Table::abort(int signal) {
    if (playing())
        match_->abort(signal);
}

void Table::note(std::string what) {
    if (playing())
        match_->note(std::move(what));
}

}  // namespace bg
