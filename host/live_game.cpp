#include "host/live_game.hpp"

#include "serve/records.hpp"
#include "viewer/pages.hpp"

namespace bg {

std::variant<std::unique_ptr<LiveGame>, std::string> LiveGame::start(
    uv_loop_t* loop, const serve::Address& address, serve::Server::Limits limits,
    remote::Desk* desk, std::optional<serve::ForPlayers> for_players) {
    std::unique_ptr<LiveGame> live(new LiveGame());
    LiveGame* self = live.get();
    serve::Server::Content content;
    content.title = "game";
    content.page = [] { return viewer::live_game_page(); };
    content.snapshot = [self] { return serve::dump_json(self->snapshot()); };
    content.game = [](int) { return std::nullopt; };
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

nlohmann::json LiveGame::snapshot() const {
    return {{"kind", "game"}, {"records", records_}, {"over", over_}};
}

void LiveGame::record(const nlohmann::json& record) {
    nlohmann::json shown = serve::without_seed(record);
    server_->publish(serve::record_event_name(shown), serve::dump_json({{"record", shown}}));
    records_.push_back(std::move(shown));
}

void LiveGame::finished(std::function<void()> done) {
    over_ = true;
    server_->publish("finished", "{}");
    server_->finish(serve::finish_grace_ms, std::move(done));
}

}  // namespace bg

namespace bg::live {

bool serves() {
    return true;
}

std::string hand_over(char**) {
    return "internal: host-live serves its games itself";
}

std::variant<std::unique_ptr<Observer>, std::string> serve(
    uv_loop_t* loop, const serve::Address& address, remote::Desk* desk,
    std::optional<serve::ForPlayers> for_players) {
    auto started = LiveGame::start(loop, address, {}, desk, std::move(for_players));
    if (auto* error = std::get_if<std::string>(&started))
        return *error;
    return std::unique_ptr<Observer>(std::move(std::get<std::unique_ptr<LiveGame>>(started)));
}

}  // namespace bg::live
