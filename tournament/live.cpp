#include "tournament/live.hpp"

#include <algorithm>

#include "record/json_value.hpp"
#include "serve/records.hpp"
#include "tournament/runner.hpp"
#include "viewer/pages.hpp"

namespace bg::tournament {

namespace {

// The games just finished that a snapshot lists.
constexpr std::size_t finished_shown = 20;
// Standings are fitted again at most this often while games end (a fit reads every game).
constexpr std::uint64_t standings_every_ms = 1000;

using serve::dump_json;

}  // namespace

std::variant<std::unique_ptr<LiveTournament>, std::string> LiveTournament::start(
    uv_loop_t* loop, const serve::Address& address, const Database& database,
    serve::Server::Limits limits, remote::Desk* desk,
    std::optional<serve::ForPlayers> for_players) {
    std::unique_ptr<LiveTournament> live(new LiveTournament(loop, database));
    LiveTournament* self = live.get();
    serve::Server::Content content;
    content.title = "tournament";
    content.page = [] { return viewer::live_tournament_page(); };
    content.snapshot = [self] { return dump_json(self->snapshot()); };
    content.game = [self](int game) { return self->game_page(game); };
    if (desk) {
        live->seat_sockets_ = std::make_unique<remote::SeatSockets>(*desk, for_players);
        content.sockets = live->seat_sockets_.get();
        content.play = [] { return viewer::play_page(); };
    }
    content.for_players = std::move(for_players);
    auto started = serve::Server::start(loop, address, std::move(content), limits);
    if (auto* error = std::get_if<std::string>(&started))
        return *error;
    live->server_ = std::move(std::get<std::unique_ptr<serve::Server>>(started));
    return live;
}

nlohmann::json LiveTournament::seat_names(const FixtureRecord& row) const {
    nlohmann::json names = nlohmann::json::array();
    for (int bot : row.game.seats)
        names.push_back(database_.spec().bots[static_cast<std::size_t>(bot)].name);
    return names;
}

nlohmann::json LiveTournament::standings_now() const {
    return standings_json(standings(database_.spec(), database_.games(), database_.stopped()));
}

nlohmann::json LiveTournament::snapshot() {
    nlohmann::json running = nlohmann::json::array();
    for (const auto& [game, state] : running_)
        running.push_back({{"game", game},
                           {"deal", state.deal},
                           {"rotation", state.rotation},
                           {"seats", state.seats},
                           {"records", state.records}});
    nlohmann::json bots = nlohmann::json::array();
    for (const auto& bot : database_.spec().bots)
        bots.push_back(bot.name);
    return {{"kind", "tournament"},
            {"bots", bots},
            {"standings", standings_now()},
            {"running", running},
            {"finished", nlohmann::json(finished_)},
            {"over", over_ ? nlohmann::json(*over_) : nlohmann::json(nullptr)}};
}

void LiveTournament::started(const FixtureRecord& row) {
    Running& game = running_[row.id];
    game.seats = seat_names(row);
    game.deal = row.game.deal;
    game.rotation = row.game.rotation;
    server_->publish("game_started", dump_json({{"game", row.id},
                                                {"deal", game.deal},
                                                {"rotation", game.rotation},
                                                {"seats", game.seats}}));
}

void LiveTournament::record(int game, const nlohmann::json& record) {
    const auto found = running_.find(game);
    if (found == running_.end())
        return;
    nlohmann::json shown = serve::without_seed(record);
    server_->publish(serve::record_event_name(shown),
                     dump_json({{"game", game}, {"record", shown}}));
    if (shown.contains("result"))
        running_.erase(found);  // over (a stopped game goes back to pending)
    else
        found->second.records.push_back(std::move(shown));
}

void LiveTournament::recorded(const FixtureRecord& row) {
    running_.erase(row.id);
    const GameResult& result = row.played->result;
    const nlohmann::json seats = seat_names(row);
    nlohmann::json done = {
        {"game", row.id},
        {"seats", seats},
        {"end", result.end ? to_string(*result.end) : ""},
        {"winner",
         result.winner ? seats[static_cast<std::size_t>(*result.winner)] : nlohmann::json(nullptr)},
        {"page", row.played->log.empty() ? nlohmann::json(nullptr)
                                         : nlohmann::json("/games/" + std::to_string(row.id))},
        {"contended", bg::json_or_null(result.contended)},
        {"replay_of", bg::json_or_null(row.replay_of)}};
    server_->publish("game_done", dump_json(done));
    finished_.push_back(std::move(done));
    if (finished_.size() > finished_shown)
        finished_.pop_front();
    const std::uint64_t now = uv_now(loop_);
    if (now - standings_sent_ms_ >= standings_every_ms) {
        standings_sent_ms_ = now;
        server_->publish("standings", dump_json(standings_now()));
    }
}

void LiveTournament::finished(const std::string& why, std::function<void()> done) {
    over_ = why;
    running_.clear();
    server_->publish("standings", dump_json(standings_now()));
    server_->publish("finished", dump_json({{"why", why}}));
    server_->finish(serve::finish_grace_ms, std::move(done));
}

std::optional<std::string> LiveTournament::game_page(int game) const {
    for (const auto& row : database_.games())
        if (row.id == game)
            return row.state == State::done ? replay_page(row) : std::nullopt;
    return std::nullopt;
}

}  // namespace bg::tournament
