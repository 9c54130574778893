#include "remote/seat_sockets.hpp"

#include <cstdlib>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/log.hpp"
#include "core/text.hpp"
#include "remote/desk.hpp"
#include "remote/remote_seat.hpp"
#include "remote/token.hpp"

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

// A connection let in at /seat/TOKEN: its seat's link while it holds one; a session's, between
// its player's games, waiting at the gate for the next.
class SeatLink final : public serve::WebSocketService::Connection,
                       public RemoteSeat::Link,
                       public Gate::Sitter {
  public:
    SeatLink(Gate& gate, serve::WebSocket& socket, std::string token, RemoteSeat* seat,
             bool session, std::uint64_t had, serve::Headers headers)
        : gate_(gate),
          socket_(socket),
          token_(std::move(token)),
          seat_(seat),
          session_(session),
          had_(had),
          headers_(std::move(headers)) {}
    ~SeatLink() override {
        if (std::exchange(waiting_, false))
            gate_.stop_waiting(*this);
        if (auto* seat = std::exchange(seat_, nullptr))
            seat->drop("the connection closed");
        gate_.forget(*this, !left_ && !ended_);
    }

    // The seat's side.
    void send(std::string_view bytes) override { socket_.send_text(bytes); }
    std::size_t unsent_bytes() const override { return socket_.unsent_bytes(); }
    void ping() override { socket_.ping(); }
    void close(int code, std::string_view reason) override {
        RemoteSeat* seat = std::exchange(seat_, nullptr);
        // A session stays for the next game unless the seat goes for another reason than its
        // game's end (the host going: 1001).
        if (!session_ || code != 1000) {
            ended_ = true;
            return socket_.close(code, reason);
        }
        // A session's bot is let go (ended, as at a game's end); the connection stays for the
        // next seat, if any is to come.
        const int after = gate_.games_after(token_, seat);
        control({{"type", "end"}, {"games_after", after}});
        // What the bot wrote before the client took its end may still be on its way: nothing
        // of the connection is read until the answer to a fence sent after the end, which
        // comes after all of it; then the session waits for its next seat.
        draining_ = true;
        socket_.fence();
    }
    bool session() const override { return session_; }
    void begins(Begins how) override {
        static constexpr const char* names[] = {"fresh", "kept", "resumed"};
        if (!session_)
            return;
        nlohmann::json start = {{"type", "start"},
                                {"bot", names[static_cast<int>(how)]},
                                {"games_after", gate_.games_after(token_, seat_)}};
        if (seat_)
            gate_.context(*seat_, start);
        control(start);
    }
    void tell(const std::string& message) override {
        if (session_)
            socket_.send_binary(message);
    }

    // The gate's side.
    void sit(RemoteSeat& seat) override {
        waiting_ = false;
        seat_ = &seat;
        seat.join(*this, 0);
    }
    void no_more_games() override {
        waiting_ = false;
        ended_ = true;
        socket_.close(1000, "the games are over");
    }
    void sent_away(std::string_view why) override {
        waiting_ = false;
        ended_ = true;
        socket_.close(1008, why);
    }
    void restarting(int come_back_s) override {
        waiting_ = false;
        ended_ = true;
        socket_.close(1012, fmt::format("{}: come back in {} s", restarting_reason, come_back_s));
    }

    // The server's side.
    serve::Headers response_headers() override {
        serve::Headers headers = std::move(headers_);
        headers.insert(headers.begin(),
                       {"x-bananagrams-received:", std::to_string(seat_ ? seat_->received() : 0)});
        if (session_)
            headers.emplace_back("x-bananagrams-session:", SeatSockets::session_version);
        return headers;
    }
    void opened() override {
        if (seat_) {
            gate_.joined(token_, *this, *seat_);
            seat_->join(*this, had_);
        } else if (session_)
            wait();
        else {
            ended_ = true;
            socket_.close(1001, "the seat is gone");
        }
    }
    void received(std::string_view bytes) override {
        if (seat_)
            seat_->receive(bytes);
    }
    // A session's message from its client: {"type": "drain"} (leave after this match); any
    // other is ignored (the protocol's bytes are text).
    void received_binary(std::string_view message) override {
        const auto asked = nlohmann::json::parse(message, nullptr, false);
        if (session_ && asked.is_object() && asked.contains("type") && asked["type"] == "drain")
            gate_.drain(*this);
    }
    void pong(double rtt_ms) override {
        if (seat_)
            seat_->pong(rtt_ms);
    }
    void fenced() override {
        if (std::exchange(draining_, false))
            wait();
    }
    // The player closed its connection, as a process closes its output: it has left; but a
    // client going away (1001: a page reloaded or closed, a laptop going to sleep) has dropped
    // it, and may come back within the grace.
    void closed_by_peer(int code, std::string_view reason) override {
        left_ = code != 1001;
        if (std::exchange(waiting_, false))
            gate_.stop_waiting(*this);
        if (auto* seat = std::exchange(seat_, nullptr))
            seat->drop(fmt::format("it {} its connection ({}{}{})",
                                   code == 1001 ? "went away from" : "closed", code,
                                   reason.empty() ? "" : ": ", reason),
                       code != 1001);
    }
    void gone(std::string why) override {
        if (std::exchange(waiting_, false))
            gate_.stop_waiting(*this);
        if (auto* seat = std::exchange(seat_, nullptr))
            seat->drop(std::move(why));
    }

  private:
    void control(const nlohmann::json& message) { socket_.send_binary(message.dump()); }
    // Waits at the gate for the next seat (which may be given at once, or be none). Where the
    // gate cannot say now (what it reads, an arena's database, is gone for a while), told to
    // come back, as at a restart: its client does so by itself, and nothing of it is lost.
    void wait() {
        waiting_ = true;
        try {
            gate_.wait(token_, *this);
        } catch (const std::exception& e) {
            log::warning("a connection was told to come back: its seat could not be found ({})",
                         escape_for_terminal(e.what()));
            if (std::exchange(waiting_, false))
                gate_.stop_waiting(*this);
            restarting(come_back_s);
        }
    }
    static constexpr int come_back_s = 5;

    Gate& gate_;
    serve::WebSocket& socket_;
    std::string token_;  // as the connection offered it
    RemoteSeat* seat_;   // null while it holds none
    bool session_;
    bool waiting_ = false;
    bool draining_ = false;  // a session's game over: until the fence's answer
    bool left_ = false;      // its player closed it (not going away): it will not come back
    bool ended_ = false;     // the server closed it
    std::uint64_t had_;
    serve::Headers headers_;
};

}  // namespace

SeatSockets::SeatSockets(Gate& gate, const std::optional<serve::ForPlayers>& served) : gate_(gate) {
    if (!served)
        return;
    const auto& words = served->word_list;
    word_list_ = {
        {"x-bananagrams-wordlist:", words.name},
        {"x-bananagrams-wordlist-fingerprint:", fmt::format("{:016x}", words.fingerprint)},
        {"x-bananagrams-wordlist-url:", serve::word_list_path(words.fingerprint)}};
}

namespace {

// What the gate is asked of an upgrade, kept while it is asked.
struct Asked {
    Asked(const serve::WebSocketService::Upgrade& upgrade, const Gate& gate)
        : path(upgrade.path()),
          origin(upgrade.header("origin")),
          host(upgrade.header("host")),
          session(upgrade.header("x-bananagrams-session") == SeatSockets::session_version ||
                  upgrade.arg("session") == SeatSockets::session_version),
          bearer(bearer_token(upgrade.header("authorization"))),
          version(upgrade.header("x-bananagrams-bot-version")),
          peer(upgrade.peer()),
          name(upgrade.arg("name")),
          code(upgrade.arg("code")),
          opponent(upgrade.arg("opponent")),
          signup(upgrade.arg("signup") == "1"),
          resume(upgrade.arg("resume") == "1"),
          ticket(upgrade.arg("ticket")) {
        // A ticket stands for a name and a code (and no other's are taken beside it).
        if (ticket.empty())
            return;
        auto ticketed = gate.ticket(ticket);
        name = ticketed ? std::move(ticketed->name) : "";
        code = ticketed ? std::move(ticketed->code) : "";
        signup = false;
    }
    Gate::Knock knock() const {
        return {path, origin, host, session,  bearer, version,
                peer, name,   code, opponent, signup, resume};
    }
    // The seat's token: the path's (/seat/TOKEN), or else the Authorization header's, or else
    // a page's code.
    std::string token() const {
        return path.starts_with(seat_path) ? path.substr(seat_path.size())
               : bearer.empty()            ? code
                                           : bearer;
    }
    std::string path, origin, host;
    bool session;
    std::string bearer, version, peer, name, code, opponent;
    bool signup, resume;
    std::string ticket;
};

}  // namespace

std::optional<serve::WebSocketService::Refusal> SeatSockets::check(const Upgrade& upgrade) {
    auto admitted = gate_.admit(Asked(upgrade, gate_).knock());
    if (auto* refusal = std::get_if<Refusal>(&admitted))
        return *refusal;
    return std::nullopt;
}

std::unique_ptr<serve::WebSocketService::Connection> SeatSockets::open(const Upgrade& upgrade,
                                                                       serve::WebSocket& socket) {
    // Let in a moment ago (check), in the same call: the seat is the gate's again.
    const Asked asked(upgrade, gate_);
    auto admitted = gate_.admit(asked.knock());
    if (std::holds_alternative<Refusal>(admitted))
        return nullptr;
    if (!asked.ticket.empty())
        gate_.spend(asked.ticket);
    auto* const* seat = std::get_if<RemoteSeat*>(&admitted);
    const std::string token = asked.token();
    serve::Headers headers = {{"x-bananagrams-games-after:",
                               std::to_string(gate_.games_after(token, seat ? *seat : nullptr))}};
    headers.insert(headers.end(), word_list_.begin(), word_list_.end());
    return std::make_unique<SeatLink>(gate_, socket, token, seat ? *seat : nullptr, asked.session,
                                      received_arg(upgrade.arg("received")), std::move(headers));
}

}  // namespace bg::remote
