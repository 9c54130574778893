// The --serve server: HTTP on the program's own libuv loop, through libwebsockets (Debian's,
// with its libuv event-lib plugin, in a foreign loop): no second thread, and nothing of it can
// make a game wait. It serves a live page (GET /), the event stream (GET /events, Server-Sent
// Events: a snapshot first, or on reconnection with Last-Event-ID the events missed where they
// are still kept, then every event published) and, where the program has them, the replay
// pages of finished games (GET /games/N). GET and HEAD, and POST where the program takes one (405
// otherwise); a path not served gets 404; the streams are capped (503 beyond); a request's headers
// are capped (libwebsockets refuses more) and must come in time; a client that reads slower than
// the events come is dropped once its queue is full.
//
// Where the program gives it a WebSocket service (websocket.hpp: the remote seats'), it also
// takes WebSocket connections, each let in or refused by the service (503 beyond its cap on
// connections, 410 once it is finishing), their messages' size capped; serves a person's page
// for one (GET /play), the games' rules (GET /rules: the players, the tiles, the bunch at the
// deal, the clocks, which word list) and the word list that judges them
// (/wordlist/FINGERPRINT.txt, gzipped for a client that takes it, cached for good by its name);
// and then not the live page, the stream nor the games' pages (403), which show players' tiles
// (a finished game's, the deal its other seatings play again), for a player connecting could
// read them.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "serve/request.hpp"
#include "serve/stream.hpp"
#include "serve/websocket.hpp"
#include "transport/handles.hpp"

struct lws;
struct lws_context;
struct lws_process_html_args;

namespace bg::serve {

// How long a game's or a tournament's server waits at its end (Server::finish) for its
// connections to be sent what they are owed and closed: a remote session's last `end` is
// answered by its client's pong (the fence, which may wait for a ping already out), a round
// trip or two that a loaded client takes seconds over.
inline constexpr std::uint64_t finish_grace_ms = 5'000;

class Server {
  public:
    // A POST as the program is asked it: its path (and query), its body, who sent it, and its
    // Authorization header ("" none).
    struct Post {
        std::string path, body, peer, origin, host, authorization;
    };
    // Its answer: a status and a JSON document.
    struct Posted {
        unsigned status = 200;
        std::string json;
        int retry_after_s = 0;  // said in Retry-After where more than 0
    };
    struct Content {
        std::string title;                                    // for the log lines
        std::function<std::string()> page;                    // GET /
        std::function<std::string()> snapshot;                // the data of a snapshot event
        std::function<std::optional<std::string>(int)> game;  // GET /games/N, or 404
        // What takes the WebSocket connections (none: `no_sockets`); it outlives the server.
        WebSocketService* sockets = nullptr;
        // What an upgrade is told where nothing takes them (none: 404, no seat is taken here).
        std::optional<WebSocketService::Refusal> no_sockets;
        // What a WebSocket connection is told once the server is closing (finish()); none: 410,
        // its games are over (an arena that restarts says 503, come back).
        std::optional<WebSocketService::Refusal> closing;
        std::function<std::string()> play;  // GET /play, where there are remote seats
        // GET /rules and the word list, where there are remote seats
        std::optional<ForPlayers> for_players;
        // The page and the stream show nothing a player could use (the arena's finished
        // matches): served beside the WebSocket connections, not refused.
        bool public_stream = false;
        // GET /api/...: a JSON document by its path (and query), or none (404).
        std::function<std::optional<std::string>(const std::string& path)> api;
        // GET /api/... of what only its owner may read (a hosted bot's check, its games' logs
        // and its own stderr: the bot's token as Authorization: Bearer), asked first: the
        // answer, whatever its type, never kept by a cache; none: not such a path (then `api`).
        struct Owned {
            unsigned status = 200;
            std::string type = "application/json";
            std::string body;
        };
        std::function<std::optional<Owned>(
            const std::string& path, const std::string& authorization, const std::string& peer)>
            owned;
        // GET of a path served by none of the above: a page of the program's own (HTML, under
        // the pages' Content-Security-Policy), or none (404). The program decides what it may
        // show: a path here is never refused for the WebSocket connections beside it.
        std::function<std::optional<std::string>(const std::string& path)> pages;
        // POST of a JSON document (Content-Type: application/json, up to Limits::post_bytes) to
        // one of `post_paths`: the answer. A page of another site cannot send one without the CORS
        // preflight this server never answers, nor read what it is answered.
        std::function<Posted(const Post& post)> post;
        std::vector<std::string> post_paths;  // the paths POSTed to (any other: 405)
        // POST of a file (a hosted bot's archive: Content-Type application/gzip,
        // application/x-tar or application/octet-stream, up to Limits::upload_bytes) to a path
        // this accepts (its query aside): answered by `post`, as a JSON document is. None: none.
        std::function<bool(std::string_view path)> uploads;
        // Asked of a file's POST before its body is read (Post::body empty): its refusal (a
        // wrong token, a limit reached), answered at once without reading the body; none: read.
        std::function<std::optional<Posted>(const Post& head)> upload_refused;
    };
    struct Limits {
        int streams = 32;                       // event streams at once
        std::size_t queue_bytes = 32u << 20;    // a client's unsent bytes before it is dropped
        std::size_t history_bytes = 32u << 20;  // events kept for reconnecting clients
        unsigned header_bytes = 4096;           // a request's headers
        unsigned header_seconds = 10;           // time to send them
        int sockets = 64;                       // WebSocket connections at once
        std::size_t frame_bytes = 64u << 10;    // a WebSocket message's size
        std::size_t post_bytes = 16u << 10;     // a POST's body
        std::size_t upload_bytes = 16u << 20;   // a file POSTed (Content::uploads)
        std::uint64_t first_id = 0;             // the stream's first event's (0: first_id_now())
    };
    struct Counts {
        int streams = 0;  // open now
        int served = 0;   // streams begun
        int dropped = 0;  // streams dropped for falling behind
        int sockets = 0;  // WebSocket connections open now
        int refused = 0;  // WebSocket connections refused
        int cut = 0;      // WebSocket connections still open when finish()'s grace ran out
        std::size_t history_bytes = 0;  // the stream's events kept for reconnecting clients
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
    // An event to every stream (and kept for those that reconnect); its id.
    std::uint64_t publish(std::string name, std::string data);
    // An event numbered elsewhere (serve::Stream::publish_as), to every stream where its id is
    // above the last one's; false where it is not (nothing sent). After a gap (events this
    // server never had came before it), every stream is dropped first: its client comes back
    // with its last id, and is sent a snapshot.
    bool relay(Event event, bool after_gap = false);
    // Its own events numbered from `id` on (serve::Stream::number_from).
    void number_from(std::uint64_t id) { stream_.number_from(id); }
    // Takes no more requests (503); once every stream has been sent what it was queued, or
    // after `grace_ms`, closes them and stops listening (`done` then): the loop then runs out
    // once it has closed them, and the server is destroyed after it has.
    void finish(std::uint64_t grace_ms, std::function<void()> done);
    Counts counts() const {
        Counts counts = counts_;
        counts.history_bytes = stream_.kept_bytes();
        return counts;
    }

    struct Session;  // one HTTP connection's
    struct Socket;   // one WebSocket connection's
    struct Anchor;   // what libwebsockets' context holds of the server
    // libwebsockets' callback for every connection (reason: an lws_callback_reasons).
    static int callback(struct lws* wsi, int reason, void* user, void* in, std::size_t len);
    static int dispatch(struct lws* wsi, int reason, void* user, void* in, std::size_t len);
    // The server of a connection's context, or none (gone, with what it kept of it).
    static Server* of(struct lws* wsi);
    // A callback that threw (what answers it could not read its data): 503, or closed.
    static int failed(struct lws* wsi, int reason, void* user, const char* what);

  private:
    Server(uv_loop_t* loop, Content content, Limits limits);
    int on_http(struct lws* wsi, int reason, Session*& session, const char* in, std::size_t len);
    int begin_post(struct lws* wsi, Session& session, const char* path);
    int answer_post(struct lws* wsi, Session& session);
    int on_request(struct lws* wsi, Session& session, const char* path);
    int open_stream(struct lws* wsi, Session& session, bool head);
    int on_writable(struct lws* wsi, Session& session);
    int on_upgrade(struct lws* wsi);
    int on_socket(struct lws* wsi, int reason, Socket*& socket, void* in, std::size_t len);
    int add_headers(struct lws* wsi, Socket& socket, struct lws_process_html_args& args);
    void receive(struct lws* wsi, Socket& socket, std::string_view bytes);
    void closed(Socket& socket);
    void closed(Session& session);
    void refuse(struct lws* wsi, const WebSocketService::Refusal& refusal);
    void drop(Session& session);
    void send_to_streams(const std::string& text);
    void check_finished();

    int serve_word_list(struct lws* wsi, Session& session, const Route& route, bool head);
    int serve_api(struct lws* wsi, Session& session, const std::string& path, bool head);
    int send_body(struct lws* wsi, Session& session, const std::string& body, bool head);

    uv_loop_t* loop_;
    Content content_;
    std::string word_list_gzip_;  // the word list's text, gzipped once
    Limits limits_;
    Stream stream_;
    // Outlives the server while libwebsockets' context may still call back (see ~Server).
    std::unique_ptr<Anchor> anchor_;
    bool destroying_ = false;
    bool abandoned_ = false;  // made without its listening socket: never destroyed
    int port_ = 0;
    Counts counts_;
    std::vector<std::unique_ptr<Session>> sessions_;  // every HTTP connection's
    std::vector<Session*> streams_;                   // those of event streams
    std::vector<std::unique_ptr<Socket>> sockets_;
    bool finishing_ = false;
    std::uint64_t finish_by_ = 0;
    std::unique_ptr<Timer> finish_timer_;
    std::function<void()> done_;
};

}  // namespace bg::serve
