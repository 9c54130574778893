#include "arena/match_play.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "remote/token.hpp"

namespace bg::arena {

std::string match_log_path(const std::string& dir, int match, int rotation) {
    return fmt::format("{}/match-{:06d}-{}.jsonl", dir, match, rotation);
}

MatchPlay::MatchPlay(uv_loop_t* loop, const Venue& venue, const SeatSource& seats, Plan plan,
                     std::function<void()> over)
    : loop_(loop),
      venue_(venue),
      seats_(seats),
      plan_(std::move(plan)),
      over_cb_(std::move(over)),
      next_(loop, [this] { play(rotation_); }) {}

MatchPlay::~MatchPlay() = default;

std::string MatchPlay::start() {
    std::vector<int> commands;
    for (const Entrant& e : plan_.entrants)
        commands.push_back(e.command);
    Lineup::Options lineup;
    lineup.kill_grace_ms = plan_.base.kill_grace_ms;
    auto made = Table::open(loop_, venue_, seats_, std::move(commands), std::move(lineup));
    if (auto* error = std::get_if<cgroups::Machine::GameError>(&made)) {
        why_ = error->message;
        over_ = true;
        return why_;
    }
    table_ = std::move(std::get<std::unique_ptr<Table>>(made));
    next_.start(0);
    return "";
}

void MatchPlay::play(int rotation) {
    const int k = static_cast<int>(plan_.entrants.size());
    auto opened = GameFiles::open(
        plan_.logs.empty() ? "" : match_log_path(plan_.logs, plan_.id, rotation), k, true);
    if (auto* error = std::get_if<std::string>(&opened)) {
        why_ = *error;
        logs_failed_ = true;
        over_ = true;
        over_cb_();
        return;
    }
    files_ = std::move(std::get<std::unique_ptr<GameFiles>>(opened));
    Table::Game game;
    game.setup = plan_.base;
    game.setup.game = RulesConfig{plan_.seed, k, plan_.base.game.sets};
    game.setup.commands.clear();
    for (int seat = 0; seat < k; ++seat) {
        const int entrant = entrant_at(seat, rotation);
        game.slots.push_back(entrant);
        const Entrant& e = plan_.entrants[static_cast<std::size_t>(entrant)];
        // A hosted bot's by its version, never its folder's path.
        game.setup.commands.push_back(e.bot.command          ? *e.bot.command
                                      : e.seat_token.empty() ? "hosted:" + e.entry.label
                                                             : std::string(remote::prefix));
    }
    game.log = &files_->log();
    game.options.player_lines = [files = files_.get()](PlayerId player, const std::string& line) {
        files->player_line(player, line);
    };
    game_began_ms_ = uv_now(loop_);
    if (plan_.loop)
        stalled_at_began_ns_ = plan_.loop->stalled_ns();
    table_->play(std::move(game), [this](Table::Ended ended) { this->ended(std::move(ended)); });
}

void MatchPlay::ended(Table::Ended ended) {
    const std::string error = files_->close();
    const bool aborted = ended.result.end == End::aborted;
    if (!error.empty() || aborted) {
        logs_failed_ = !error.empty();
        why_ = !error.empty() ? error
                              : fmt::format("the arena stopped during its game {}", rotation_ + 1);
        over_ = true;
        over_cb_();
        return;
    }
    games_.push_back(
        {rotation_, files_->has_log_file() ? files_->log_path() : "", std::move(ended.result)});
    if (plan_.loop)
        stalled_ms_.push_back((plan_.loop->stalled_ns() - stalled_at_began_ns_) / 1'000'000);
    files_.reset();
    const std::uint64_t now = uv_now(loop_);
    longest_game_ms_ = std::max(longest_game_ms_, now - game_began_ms_);
    if (++rotation_ < static_cast<int>(plan_.entrants.size())) {
        if (deadline_ms_ && now + longest_game_ms_ > deadline_ms_) {
            why_ = fmt::format(
                "the arena stopped: its game {} would not end within the stop's grace (its games "
                "have taken up to {:.1f} s)",
                rotation_ + 1, static_cast<double>(longest_game_ms_) / 1000.0);
            over_ = true;
            over_cb_();
            return;
        }
        next_.start(0);  // the next game, from the loop: never from inside the last one's end
        return;
    }
    over_ = true;
    over_cb_();
}

void MatchPlay::abort(int signal) {
    if (table_)
        table_->abort(signal);
}

bool MatchPlay::complete() const {
    return why_.empty() && games_.size() == plan_.entrants.size();
}

int MatchPlay::entrant_at(int seat, int rotation) const {
    return (seat + rotation) % static_cast<int>(plan_.entrants.size());
}

void MatchPlay::each_player(
    const std::function<void(std::size_t game, int entrant, const PlayerResult&)>& f) const {
    for (std::size_t g = 0; g < games_.size(); ++g) {
        const auto& players = games_[g].result.players;
        for (std::size_t seat = 0; seat < players.size() && seat < plan_.entrants.size(); ++seat)
            f(g, entrant_at(static_cast<int>(seat), games_[g].rotation), players[seat]);
    }
}

std::vector<std::vector<int>> MatchPlay::places() const {
    std::vector<std::vector<int>> places(games_.size(), std::vector<int>(plan_.entrants.size(), 0));
    each_player([&](std::size_t game, int entrant, const PlayerResult& player) {
        places[game][static_cast<std::size_t>(entrant)] = player.rank;
    });
    return places;
}

std::vector<std::optional<OutCode>> MatchPlay::faults() const {
    std::vector<std::optional<OutCode>> faults(plan_.entrants.size());
    each_player([&](std::size_t, int entrant, const PlayerResult& player) {
        auto& fault = faults[static_cast<std::size_t>(entrant)];
        if (!fault)
            fault = player.out_code;
    });
    return faults;
}

void MatchPlay::dismiss() {
    next_.stop();
    if (table_)
        table_->dismiss();
}

bool MatchPlay::finished() {
    return !table_ || table_->finished();
}

}  // namespace bg::arena
