// The --serve server: HTTP on the program's own libuv loop, through libwebsockets (Debian's,
// with its libuv event-lib plugin, in a foreign loop): no second thread, and nothing of it can
// make a game wait. It serves a live page (GET /), the event stream (GET /events, Server-Sent
// Events: a snapshot first, or on reconnection with Last-Event-ID the events missed where they
// are still kept, then every event published) and, where the program has them, the replay
// pages of finished games (GET /games/N). GET and HEAD only (405 otherwise); a path not served
// gets 404; the streams are capped (503 beyond); a request's headers are capped (libwebsockets
// refuses more) and must come in time; a client that reads slower than the events come is
// dropped once its queue is full.
//
// Where the program has remote seats (remote/desk.hpp), it also takes WebSocket connections to
// /seat/TOKEN, each the connection of one seat (docs/remote.md), serves a person's page for
// one (GET /play), the games' rules (GET /rules: the players, the tiles, the bunch at the deal,
// the clocks, which word list) and the word list that judges them (/wordlist/FINGERPRINT.txt,
// gzipped for a client that takes it, cached for good by its name); and then not the live page,
// the stream nor the games' pages (403), which show
// players' tiles (a finished game's, the deal its other seatings play again), for a remote
// player could read them. The desk says who may take a seat; the server refuses everyone else with
// the status the desk says (or 503 beyond its cap on connections), and caps a frame's size.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "remote/desk.hpp"
#include "serve/request.hpp"
#include "serve/stream.hpp"

struct lws;
struct lws_context;
struct lws_process_html_args;

namespace bg::serve {

class Server {
  public:
    struct Content {
        std::string title;                                    // for the log lines
        std::function<std::string()> page;                    // GET /
        std::function<std::string()> snapshot;                // the data of a snapshot event
        std::function<std::optional<std::string>(int)> game;  // GET /games/N, or 404
        remote::Desk* desk = nullptr;       // the remote seats taken here (none: 404)
        std::function<std::string()> play;  // GET /play, where there are remote seats
        // GET /rules and the word list, where there are remote seats
        std::optional<ForPlayers> for_players;
    };
    struct Limits {
        int streams = 32;                       // event streams at once
        std::size_t queue_bytes = 32u << 20;    // a client's unsent bytes before it is dropped
        std::size_t history_bytes = 32u << 20;  // events kept for reconnecting clients
        unsigned header_bytes = 4096;           // a request's headers
        unsigned header_seconds = 10;           // time to send them
        int sockets = 64;                       // WebSocket connections at once
        std::size_t frame_bytes = 64u << 10;    // a WebSocket message's size
    };
    struct Counts {
        int streams = 0;  // open now
        int served = 0;   // streams begun
        int dropped = 0;  // streams dropped for falling behind
        int sockets = 0;  // WebSocket connections open now
        int refused = 0;  // WebSocket connections refused
    };

    // Listens on `address`; why not, if it cannot.
    static std::variant<std::unique_ptr<Server>, std::string> start(uv_loop_t* loop,
                                                                    const Address& address,
                                                                    Content content, Limits limits);
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;
    ~Server();

    // The port listened on (the one chosen, for port 0).
    int port() const { return port_; }
    // An event to every stream (and kept for those that reconnect).
    void publish(std::string name, std::string data);
    // Takes no more requests (503); once every stream has been sent what it was queued, or
    // after `grace_ms`, closes them and stops listening (`done` then): the loop then runs out
    // once it has closed them, and the server is destroyed after it has.
    void finish(std::uint64_t grace_ms, std::function<void()> done);
    Counts counts() const { return counts_; }

    struct Session;  // one connection's
    struct Socket;   // one WebSocket connection's, the link of a remote seat
    // libwebsockets' callback for every connection (reason: an lws_callback_reasons).
    static int callback(struct lws* wsi, int reason, void* user, void* in, std::size_t len);

  private:
    Server(uv_loop_t* loop, Content content, Limits limits);
    int on_request(struct lws* wsi, Session& session, const char* path);
    int on_writable(struct lws* wsi, Session& session);
    int on_upgrade(struct lws* wsi);
    int on_socket(struct lws* wsi, int reason, Socket*& socket, void* in, std::size_t len);
    int add_seat_headers(struct lws* wsi, Socket& socket, struct lws_process_html_args& args);
    void closed_by_player(Socket& socket, const unsigned char* frame, std::size_t len);
    void refuse(struct lws* wsi, const remote::Desk::Refusal& refusal);
    void drop(Session& session);
    void check_finished();

    int serve_word_list(struct lws* wsi, Session& session, const Route& route, bool head);

    uv_loop_t* loop_;
    Content content_;
    std::string word_list_gzip_;  // the word list's text, gzipped once
    Limits limits_;
    Stream stream_;
    // libwebsockets clears it (info.pcontext) once its context is gone; a cell of its own, so
    // that a server destroyed before then leaves it a place to write.
    struct lws_context** context_;
    bool destroying_ = false;
    bool abandoned_ = false;  // made without its listening socket: never destroyed
    int port_ = 0;
    Counts counts_;
    std::vector<Session*> streams_;
    std::vector<Socket*> sockets_;
    bool finishing_ = false;
    std::uint64_t finish_by_ = 0;
    uv_timer_t* finish_timer_ = nullptr;
    std::function<void()> done_;
};

}  // namespace bg::serve
