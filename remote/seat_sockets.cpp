#include "remote/seat_sockets.hpp"

#include <cstdlib>
#include <utility>

#include <fmt/format.h>

#include "remote/remote_seat.hpp"

namespace bg::remote {

namespace {

// The bytes a reconnecting client says it had received (?received=N), or 0.
std::uint64_t received_arg(const std::string& value) {
    if (value.empty() || value.front() < '0' || value.front() > '9')
        return 0;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
    return end && *end == '\0' ? n : 0;
}

// A connection that has taken a seat: the seat's link, until one of them lets the other go.
class SeatLink final : public serve::WebSocketService::Connection, public RemoteSeat::Link {
  public:
    SeatLink(serve::WebSocket& socket, RemoteSeat& seat, std::uint64_t had, serve::Headers headers)
        : socket_(socket), seat_(&seat), had_(had), headers_(std::move(headers)) {}
    ~SeatLink() override {
        if (auto* seat = std::exchange(seat_, nullptr))
            seat->drop("the connection closed");
    }

    // The seat's side.
    void send(std::string_view bytes) override { socket_.send_text(bytes); }
    std::size_t unsent_bytes() const override { return socket_.unsent_bytes(); }
    void ping() override { socket_.ping(); }
    void close(int code, std::string_view reason) override {
        seat_ = nullptr;
        socket_.close(code, reason);
    }

    // The server's side.
    serve::Headers response_headers() override {
        serve::Headers headers = std::move(headers_);
        if (seat_)
            headers.insert(headers.begin(),
                           {"x-bananagrams-received:", std::to_string(seat_->received())});
        return headers;
    }
    void opened() override {
        if (seat_)
            seat_->join(*this, had_);
        else
            socket_.close(1001, "the seat is gone");
    }
    void received(std::string_view bytes) override {
        if (seat_)
            seat_->receive(bytes);
    }
    void pong(double rtt_ms) override {
        if (seat_)
            seat_->pong(rtt_ms);
    }
    // The player closed its connection, as a process closes its output: it has left; but a
    // client going away (1001: a page reloaded or closed, a laptop going to sleep) has dropped
    // it, and may come back within the grace.
    void closed_by_peer(int code, std::string_view reason) override {
        if (auto* seat = std::exchange(seat_, nullptr))
            seat->drop(fmt::format("it {} its connection ({}{}{})",
                                   code == 1001 ? "went away from" : "closed", code,
                                   reason.empty() ? "" : ": ", reason),
                       code != 1001);
    }
    void gone(std::string why) override {
        if (auto* seat = std::exchange(seat_, nullptr))
            seat->drop(std::move(why));
    }

  private:
    serve::WebSocket& socket_;
    RemoteSeat* seat_;  // null once either has let the other go
    std::uint64_t had_;
    serve::Headers headers_;
};

}  // namespace

SeatSockets::SeatSockets(const Gate& gate, const std::optional<serve::ForPlayers>& served)
    : gate_(gate) {
    if (!served)
        return;
    const auto& words = served->word_list;
    word_list_ = {
        {"x-bananagrams-wordlist:", words.name},
        {"x-bananagrams-wordlist-fingerprint:", fmt::format("{:016x}", words.fingerprint)},
        {"x-bananagrams-wordlist-url:", serve::word_list_path(words.fingerprint)}};
}

std::optional<serve::WebSocketService::Refusal> SeatSockets::check(const Upgrade& upgrade) {
    const std::string path = upgrade.path();
    const std::string origin = upgrade.header("origin");
    const std::string host = upgrade.header("host");
    auto admitted = gate_.admit({path, origin, host});
    if (auto* refusal = std::get_if<Refusal>(&admitted))
        return *refusal;
    return std::nullopt;
}

std::unique_ptr<serve::WebSocketService::Connection> SeatSockets::open(const Upgrade& upgrade,
                                                                       serve::WebSocket& socket) {
    // Let in a moment ago (check), in the same call: the seat is the gate's again.
    const std::string path = upgrade.path();
    const std::string origin = upgrade.header("origin");
    const std::string host = upgrade.header("host");
    auto admitted = gate_.admit({path, origin, host});
    auto** seat = std::get_if<RemoteSeat*>(&admitted);
    if (!seat)
        return nullptr;
    serve::Headers headers = {
        {"x-bananagrams-games-after:", std::to_string(gate_.games_after(**seat))}};
    headers.insert(headers.end(), word_list_.begin(), word_list_.end());
    return std::make_unique<SeatLink>(socket, **seat, received_arg(upgrade.arg("received")),
                                      std::move(headers));
}

}  // namespace bg::remote
