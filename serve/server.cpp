#include "serve/server.hpp"

#include <arpa/inet.h>
#include <libwebsockets.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "remote/remote_seat.hpp"
#include "serve/gzip.hpp"

namespace bg::serve {

namespace {

// What a connection's per-session memory (zeroed by libwebsockets) holds.
struct SessionSlot {
    Server::Session* session;  // an HTTP connection's
    Server::Socket* socket;    // a WebSocket connection's
};

constexpr std::size_t chunk_bytes = 16 * 1024;

// The servers alive: a callback for a connection of a server already destroyed (libwebsockets
// closes them on the loop after) finds none.
std::vector<Server*>& live_servers() {
    static std::vector<Server*> live;
    return live;
}

// The pages are the program's own, drawn by their inline script and style: nothing else may
// load, and the page may connect only to this server.
constexpr const char* page_policy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
    "connect-src 'self'";

void log_line(int level, const char* line) {
    if (level & LLL_ERR)
        std::fprintf(stderr, "serve: libwebsockets: %s", line);
}

bool add_header(lws* wsi, const char* name, const std::string& value, unsigned char** p,
                unsigned char* end) {
    return lws_add_http_header_by_name(wsi, reinterpret_cast<const unsigned char*>(name),
                                       reinterpret_cast<const unsigned char*>(value.data()),
                                       static_cast<int>(value.size()), p, end) == 0;
}

using Headers = std::vector<std::pair<const char*, std::string>>;

// Writes a response's headers: the status, the type and length (none for a stream), and
// headers that keep a browser from sniffing, and from caching unless `more` says otherwise.
bool write_headers(lws* wsi, unsigned status, const char* type, lws_filepos_t length,
                   const Headers& more = {}) {
    unsigned char buffer[LWS_PRE + 2048];
    unsigned char* start = buffer + LWS_PRE;
    unsigned char* p = start;
    unsigned char* end = buffer + sizeof buffer - 1;
    const bool cached = std::any_of(more.begin(), more.end(), [](const auto& header) {
        return std::string_view(header.first) == "cache-control:";
    });
    if (lws_add_http_common_headers(wsi, status, type, length, &p, end) != 0 ||
        (!cached && !add_header(wsi, "cache-control:", "no-store", &p, end)) ||
        !add_header(wsi, "x-content-type-options:", "nosniff", &p, end))
        return false;
    for (const auto& [name, value] : more)
        if (!add_header(wsi, name, value, &p, end))
            return false;
    return lws_finalize_write_http_header(wsi, start, &p, end) == 0;
}

// Why a socket cannot listen on `address`, or nullopt: asked before libwebsockets is, which
// says only that it failed (and cannot be cleanly undone on a foreign loop after it has).
std::optional<std::string> bind_check(const Address& address) {
    sockaddr_storage storage{};
    socklen_t length = 0;
    int family = AF_INET;
    if (address.host.find(':') == std::string::npos) {
        auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
        v4->sin_family = AF_INET;
        v4->sin_port = htons(static_cast<std::uint16_t>(address.port));
        inet_pton(AF_INET, address.host.c_str(), &v4->sin_addr);
        length = sizeof *v4;
    } else {
        family = AF_INET6;
        auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(static_cast<std::uint16_t>(address.port));
        inet_pton(AF_INET6, address.host.c_str(), &v6->sin6_addr);
        length = sizeof *v6;
    }
    const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return std::string(std::strerror(errno));
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    std::optional<std::string> why;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&storage), length) != 0)
        why = errno == EADDRINUSE      ? "the port is in use"
              : errno == EADDRNOTAVAIL ? "not an address of this machine"
                                       : std::strerror(errno);
    ::close(fd);
    return why;
}

int trampoline(lws* wsi, lws_callback_reasons reason, void* user, void* in, std::size_t len) {
    return Server::callback(wsi, static_cast<int>(reason), user, in, len);
}

const lws_protocols protocols[] = {
    {"http", trampoline, sizeof(SessionSlot), 4096, 0, nullptr, 0},
    {nullptr, nullptr, 0, 0, 0, nullptr, 0},
};

// A header's value ("" when absent or too long to be one the server takes).
std::string header(lws* wsi, lws_token_indexes token) {
    const int length = lws_hdr_total_length(wsi, token);
    if (length <= 0 || length > 1024)
        return "";
    std::string value(static_cast<std::size_t>(length) + 1, '\0');
    if (lws_hdr_copy(wsi, value.data(), length + 1, token) != length)
        return "";
    value.resize(static_cast<std::size_t>(length));
    return value;
}

std::string peer_of(lws* wsi) {
    char peer[128] = {};
    lws_get_peer_simple(wsi, peer, sizeof peer);
    return peer;
}

// The bytes a reconnecting client says it had received (?received=N), or 0.
std::uint64_t received_arg(lws* wsi) {
    char arg[48] = {};
    const char* value = lws_get_urlarg_by_name(wsi, "received=", arg, sizeof arg);
    if (value == nullptr || *value < '0' || *value > '9')
        return 0;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(value, &end, 10);
    return end && *end == '\0' ? n : 0;
}

}  // namespace

// A WebSocket connection that has taken a remote seat: the seat's link. Its bytes go out as
// text frames (the protocol's bytes are printable ASCII); pings carry their send time.
struct Server::Socket final : remote::RemoteSeat::Link {
    Socket(lws* wsi, remote::RemoteSeat* seat, std::size_t limit)
        : wsi(wsi), seat(seat), out(limit) {}
    void send(std::string_view bytes) override {
        if (!out.push(bytes))
            overflowed = true;
        lws_callback_on_writable(wsi);
    }
    std::size_t unsent_bytes() const override { return out.size(); }
    void ping() override {
        ping_due = true;
        lws_callback_on_writable(wsi);
    }
    void close(int code, std::string_view reason) override {
        seat = nullptr;
        closing = true;
        close_code = code;
        close_reason = std::string(reason.substr(0, 120));
        lws_callback_on_writable(wsi);
    }

    lws* wsi;
    remote::RemoteSeat* seat;  // null once it has let the connection go
    SendQueue out;
    std::string peer;
    std::uint64_t had = 0;          // bytes it says it had received, coming back (?received=N)
    std::size_t message_bytes = 0;  // of the message being received
    bool ping_due = false;
    bool overflowed = false;
    bool closing = false;
    bool close_sent = false;
    int close_code = 1000;
    std::string close_reason;
};

namespace {

// Writes `bytes` whole, as one write of kind `how` (libwebsockets wants LWS_PRE bytes of room
// before them); false when the socket did not take them all.
bool write_whole(lws* wsi, std::string_view bytes, lws_write_protocol how) {
    std::vector<unsigned char> buffer(LWS_PRE + bytes.size());
    std::memcpy(buffer.data() + LWS_PRE, bytes.data(), bytes.size());
    return lws_write(wsi, buffer.data() + LWS_PRE, bytes.size(), how) >=
           static_cast<int>(bytes.size());
}

// A socket's turn to write: a ping that is due, then its bytes, then, once they are all
// written and it is closing, its close frame.
int write_socket(lws* wsi, Server::Socket& socket) {
    if (socket.overflowed)
        return -1;
    if (socket.ping_due) {
        socket.ping_due = false;
        const std::uint64_t now = uv_hrtime();
        if (!write_whole(wsi, {reinterpret_cast<const char*>(&now), sizeof now}, LWS_WRITE_PING))
            return -1;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (!socket.out.empty()) {
        const std::string_view chunk = socket.out.front(chunk_bytes);
        if (!write_whole(wsi, chunk, LWS_WRITE_TEXT))
            return -1;
        socket.out.sent(chunk.size());
        if (!socket.out.empty() || socket.closing)
            lws_callback_on_writable(wsi);
        return 0;
    }
    if (socket.closing && !socket.close_sent) {
        // Its close frame, sent by libwebsockets' polite close, started here rather than by
        // returning -1: Debian's libwebsockets (a debug build) closes a connection closed that
        // way twice, and the second time drops it before its close frame is written.
        socket.close_sent = true;
        lws_close_reason(wsi, static_cast<lws_close_status>(socket.close_code),
                         reinterpret_cast<unsigned char*>(socket.close_reason.data()),
                         socket.close_reason.size());
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
    }
    return 0;
}

}  // namespace

struct Server::Session {
    enum Kind { idle, body, stream };
    explicit Session(std::size_t limit) : out(limit) {}
    Kind kind = idle;
    SendQueue out;
    lws* wsi = nullptr;
};

Server::Server(uv_loop_t* loop, Content content, Limits limits)
    : loop_(loop),
      content_(std::move(content)),
      limits_(limits),
      stream_(first_id_now(), limits.history_bytes),
      context_(new lws_context*(nullptr)) {
    live_servers().push_back(this);
}

std::variant<std::unique_ptr<Server>, std::string> Server::start(uv_loop_t* loop,
                                                                 const Address& address,
                                                                 Content content, Limits limits) {
    if (auto why = bind_check(address))
        return fmt::format("cannot serve on {}: {}", address.authority(), *why);
    std::unique_ptr<Server> server(new Server(loop, std::move(content), limits));
    lws_set_log_level(LLL_ERR, log_line);
    lws_context_creation_info info;
    std::memset(&info, 0, sizeof info);
    void* loops[1] = {loop};
    info.options = LWS_SERVER_OPTION_LIBUV;
    if (address.host.find(':') == std::string::npos)
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.foreign_loops = loops;
    info.port = address.port;
    info.iface = address.host.c_str();
    info.protocols = protocols;
    info.user = server.get();
    info.pcontext = server->context_;
    info.max_http_header_data = static_cast<unsigned short>(limits.header_bytes);
    info.timeout_secs = limits.header_seconds;
    info.vhost_name = "bananagrams";
    *server->context_ = lws_create_context(&info);
    const std::string refused = fmt::format(
        "cannot serve on {}: it is in use, or not an address of this machine", address.authority());
    if (!*server->context_)
        return refused;
    // Bound a moment ago by the check above, the address was taken since: libwebsockets made a
    // context without its vhost. Its destruction on a foreign loop unloads the libuv plugin
    // while the loop still holds the plugin's callbacks, so it is left as it is, unused, until
    // the program (which stops here) ends.
    lws_vhost* vhost = lws_get_vhost_by_name(*server->context_, "bananagrams");
    server->port_ = vhost ? lws_get_vhost_listen_port(vhost) : 0;
    if (server->port_ <= 0) {
        server->abandoned_ = true;
        return refused;
    }
    if (server->content_.for_players)
        server->word_list_gzip_ = gzip(server->content_.for_players->word_list.text);
    return server;
}

Server::~Server() {
    auto& live = live_servers();
    live.erase(std::remove(live.begin(), live.end(), this), live.end());
    // With a foreign loop, libwebsockets destroys a context in two calls: the first closes its
    // connections and handles on the loop (finish()); the second, once the loop has closed
    // them, frees the context. Destroyed before finish(), the server makes the first here, and
    // the cell is left for libwebsockets to clear should the loop run again.
    if (*context_ && !abandoned_)
        lws_context_destroy(*context_);
    if (*context_ && !destroying_)
        context_ = nullptr;
    else if (!*context_)
        delete context_;
    if (finish_timer_)
        uv_close(reinterpret_cast<uv_handle_t*>(finish_timer_),
                 [](uv_handle_t* handle) { delete reinterpret_cast<uv_timer_t*>(handle); });
}

int Server::callback(lws* wsi, int reason, void* user, void* in, std::size_t len) {
    lws_context* context = lws_get_context(wsi);
    auto* server = context ? static_cast<Server*>(lws_context_user(context)) : nullptr;
    const auto& live = live_servers();
    if (std::find(live.begin(), live.end(), server) == live.end())
        server = nullptr;
    auto* slot = static_cast<SessionSlot*>(user);
    switch (static_cast<lws_callback_reasons>(reason)) {
        case LWS_CALLBACK_HTTP: {
            if (!server || !slot)
                return -1;
            if (!slot->session)
                slot->session = new Session(server->limits_.queue_bytes);
            slot->session->wsi = wsi;
            return server->on_request(wsi, *slot->session, static_cast<const char*>(in));
        }
        case LWS_CALLBACK_HTTP_WRITEABLE:
            if (!server || !slot || !slot->session)
                return 0;
            return server->on_writable(wsi, *slot->session);
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            if (!server)
                return -1;
            return server->on_upgrade(wsi);
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        case LWS_CALLBACK_ADD_HEADERS:
        case LWS_CALLBACK_ESTABLISHED:
        case LWS_CALLBACK_RECEIVE:
        case LWS_CALLBACK_RECEIVE_PONG:
        case LWS_CALLBACK_SERVER_WRITEABLE:
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        case LWS_CALLBACK_CLOSED:
            if (!slot)
                return -1;
            if (!server) {
                // Its server is gone: so is the seat's game.
                if (reason == LWS_CALLBACK_CLOSED && slot->socket) {
                    delete slot->socket;
                    slot->socket = nullptr;
                }
                return reason == LWS_CALLBACK_CLOSED ? 0 : -1;
            }
            return server->on_socket(wsi, reason, slot->socket, in, len);
        case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        case LWS_CALLBACK_CLOSED_HTTP:
            // A connection closed before a request of it came whole (none had a place for it):
            // where seats are taken, a handshake that never ended is noted as a refusal.
            if (!slot && server && server->content_.desk && !server->destroying_ &&
                static_cast<lws_callback_reasons>(reason) == LWS_CALLBACK_CLOSED_HTTP)
                server->refuse(wsi, {408, "its request never came whole"});
            if (slot && slot->session) {
                if (server) {
                    auto& streams = server->streams_;
                    streams.erase(std::remove(streams.begin(), streams.end(), slot->session),
                                  streams.end());
                    server->counts_.streams = static_cast<int>(streams.size());
                }
                delete slot->session;
                slot->session = nullptr;
                if (server)
                    server->check_finished();
            }
            return 0;
        default:
            break;
    }
    return lws_callback_http_dummy(wsi, static_cast<lws_callback_reasons>(reason), user, in, len);
}

int Server::on_request(lws* wsi, Session& session, const char* path) {
    Method method = Method::other;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0)
        method = Method::get;
    else if (lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0)
        method = Method::head;
    const Route found = route(method, path ? path : "");
    const auto plain = [&](unsigned status, const std::string& text, const Headers& more = {}) {
        if (!write_headers(wsi, status, "text/plain; charset=utf-8", text.size(), more))
            return -1;
        if (method == Method::head || text.empty())
            return lws_http_transaction_completed(wsi) ? -1 : 0;
        session.kind = Session::body;
        session.out.push(text);
        lws_callback_on_writable(wsi);
        return 0;
    };
    if (finishing_)
        return plain(503, "the games are over: this server is closing\n");
    // The live page and stream show every player's tiles as they are dealt, and a finished
    // game's page the deal that its other seatings play again: where remote players play, who
    // can reach this server, they could read what their opponents hold or will be dealt.
    if (content_.desk && (found.kind == Route::page || found.kind == Route::events ||
                          found.kind == Route::game_page))
        return plain(403,
                     "not served while remote players play: the live pages and the games' pages "
                     "show players' tiles\n");
    std::optional<std::string> body;
    switch (found.kind) {
        case Route::not_allowed:
            // No body: libwebsockets gives a request that has one (POST) no turn to write
            // until it is read, and it is never read. The connection goes on, or closes.
            return plain(405, "", {{"allow:", "GET, HEAD"}});
        case Route::not_found:
            return plain(404, "not found\n");
        case Route::page:
            body = content_.page();
            break;
        case Route::play:
            if (!content_.desk || !content_.play)
                return plain(404, "no seat here is taken from a page\n");
            body = content_.play();
            break;
        case Route::rules:
        case Route::word_list_text:
            return serve_word_list(wsi, session, found, method == Method::head);
        case Route::game_page:
            if (content_.game)
                body = content_.game(found.game);
            if (!body)
                return plain(404, "no such game here, or not over yet\n");
            break;
        case Route::events: {
            if (static_cast<int>(streams_.size()) >= limits_.streams)
                return plain(503, "too many streams\n", {{"retry-after:", "10"}});
            if (!write_headers(wsi, 200, "text/event-stream", LWS_ILLEGAL_HTTP_CONTENT_LEN))
                return -1;
            if (method == Method::head)
                return lws_http_transaction_completed(wsi) ? -1 : 0;
            lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);  // a stream lasts as long as the games
            session.kind = Session::stream;
            streams_.push_back(&session);
            counts_.streams = static_cast<int>(streams_.size());
            ++counts_.served;
            // Where the client was, if it still can be caught up; else the present state.
            std::optional<std::uint64_t> last_seen;
            char value[64] = {};
            const int length = lws_hdr_custom_length(wsi, "last-event-id:", 14);
            if (length > 0 && length < static_cast<int>(sizeof value) &&
                lws_hdr_custom_copy(wsi, value, sizeof value, "last-event-id:", 14) > 0)
                last_seen = parse_last_event_id(value);
            std::string first = "retry: 1000\n\n";
            const auto missed = last_seen ? stream_.since(*last_seen) : std::nullopt;
            if (missed) {
                for (const Event* event : *missed)
                    first += wire(*event);
            } else {
                first += wire(Event{stream_.last_id(), "snapshot", content_.snapshot()});
            }
            if (!session.out.push(first)) {
                drop(session);
                return 0;
            }
            lws_callback_on_writable(wsi);
            return 0;
        }
    }
    if (!write_headers(wsi, 200, "text/html; charset=utf-8", body->size(),
                       {{"content-security-policy:", page_policy}}))
        return -1;
    if (method == Method::head)
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    session.kind = Session::body;
    SendQueue whole(body->size());
    session.out = std::move(whole);
    session.out.push(*body);
    lws_callback_on_writable(wsi);
    return 0;
}

// GET /rules: the games' rules and which word list judges them, and where it is (JSON); GET
// /wordlist/FINGERPRINT.txt: the list, which never changes under its name, so a browser keeps
// it for good.
int Server::serve_word_list(lws* wsi, Session& session, const Route& found, bool head) {
    const auto& served = content_.for_players;
    const std::string fingerprint =
        served ? fmt::format("{:016x}", served->word_list.fingerprint) : std::string();
    std::string body;
    const char* type = "application/json";
    Headers more;
    if (!served || (found.kind == Route::word_list_text && found.fingerprint != fingerprint)) {
        body = served ? "not this server's word list: GET /rules says which it is\n"
                      : "no games' rules are served here: only where remote players play\n";
        if (!write_headers(wsi, 404, "text/plain; charset=utf-8", body.size()))
            return -1;
    } else {
        if (found.kind == Route::rules) {
            body = rules_json(*served).dump() + "\n";
        } else {
            type = "text/plain; charset=utf-8";
            more = {{"cache-control:", "public, max-age=31536000, immutable"},
                    {"etag:", "\"" + fingerprint + "\""},
                    {"vary:", "Accept-Encoding"}};
            const bool zipped = !word_list_gzip_.empty() &&
                                accepts_gzip(header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING));
            if (zipped)
                more.emplace_back("content-encoding:", "gzip");
            body = zipped ? word_list_gzip_ : served->word_list.text;
        }
        if (!write_headers(wsi, 200, type, body.size(), more))
            return -1;
    }
    if (head)
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    session.kind = Session::body;
    session.out = SendQueue(body.size());
    session.out.push(body);
    lws_callback_on_writable(wsi);
    return 0;
}

int Server::on_writable(lws* wsi, Session& session) {
    if (session.out.empty())
        return 0;
    const std::string_view chunk = session.out.front(chunk_bytes);
    const bool last = session.kind == Session::body && chunk.size() == session.out.size();
    if (!write_whole(wsi, chunk, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP))
        return -1;
    session.out.sent(chunk.size());
    if (!session.out.empty()) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (session.kind == Session::body) {
        session.kind = Session::idle;
        session.out = SendQueue(limits_.queue_bytes);
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    check_finished();
    return 0;
}

void Server::refuse(lws* wsi, const remote::Desk::Refusal& refusal) {
    ++counts_.refused;
    if (content_.desk)
        content_.desk->refused(refusal, peer_of(wsi));
}

// A WebSocket upgrade: let in (0) only for a seat the desk opens to it; else refused with the
// desk's status, or 503 past the cap on connections (1: the response is written).
int Server::on_upgrade(lws* wsi) {
    std::optional<remote::Desk::Refusal> refusal;
    if (!content_.desk)
        refusal = remote::Desk::Refusal{404, "no seat is taken here"};
    else if (finishing_)
        refusal = remote::Desk::Refusal{410, "the games are over: this server is closing"};
    else if (static_cast<int>(sockets_.size()) >= limits_.sockets)
        refusal = remote::Desk::Refusal{503, "too many connections"};
    else {
        auto admitted =
            content_.desk->admit(header(wsi, WSI_TOKEN_GET_URI), header(wsi, WSI_TOKEN_ORIGIN),
                                 header(wsi, WSI_TOKEN_HOST));
        if (auto* why = std::get_if<remote::Desk::Refusal>(&admitted))
            refusal = *why;
    }
    if (!refusal)
        return 0;
    refuse(wsi, *refusal);
    const std::string body = refusal->why + "\n";
    if (!write_headers(wsi, static_cast<unsigned>(refusal->status), "text/plain; charset=utf-8",
                       body.size()))
        return -1;
    return write_whole(wsi, body, LWS_WRITE_HTTP_FINAL) ? 1 : -1;
}

int Server::on_socket(lws* wsi, int reason, Socket*& socket, void* in, std::size_t len) {
    switch (static_cast<lws_callback_reasons>(reason)) {
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
            // Let in a moment ago (on_upgrade), in this same call: the seat is the desk's again.
            auto admitted = content_.desk ? content_.desk->admit(header(wsi, WSI_TOKEN_GET_URI),
                                                                 header(wsi, WSI_TOKEN_ORIGIN),
                                                                 header(wsi, WSI_TOKEN_HOST))
                                          : remote::Desk::Refusal{};
            auto** seat = std::get_if<remote::RemoteSeat*>(&admitted);
            if (!seat)
                return 1;
            socket = new Socket(wsi, *seat, limits_.queue_bytes);
            socket->peer = peer_of(wsi);
            socket->had = received_arg(wsi);
            sockets_.push_back(socket);
            counts_.sockets = static_cast<int>(sockets_.size());
            return 0;
        }
        case LWS_CALLBACK_ADD_HEADERS:
            return socket && socket->seat
                       ? add_seat_headers(wsi, *socket, *static_cast<lws_process_html_args*>(in))
                       : 0;
        case LWS_CALLBACK_ESTABLISHED:
            if (!socket || !socket->seat)
                return -1;
            socket->seat->join(*socket, socket->had);
            return 0;
        case LWS_CALLBACK_RECEIVE: {
            if (!socket)
                return -1;
            socket->message_bytes += len;
            if (socket->message_bytes + lws_remaining_packet_payload(wsi) > limits_.frame_bytes) {
                refuse(wsi, {1009, fmt::format("a message over {} bytes", limits_.frame_bytes)});
                if (auto* seat = std::exchange(socket->seat, nullptr))
                    seat->drop(fmt::format("it sent a message over {} bytes", limits_.frame_bytes));
                lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, nullptr, 0);
                return -1;
            }
            if (lws_is_final_fragment(wsi))
                socket->message_bytes = 0;
            if (socket->seat && len > 0)
                socket->seat->receive(std::string_view(static_cast<const char*>(in), len));
            return 0;
        }
        case LWS_CALLBACK_RECEIVE_PONG: {
            std::uint64_t sent = 0;
            if (socket && socket->seat && len == sizeof sent) {
                std::memcpy(&sent, in, sizeof sent);
                const std::uint64_t now = uv_hrtime();
                if (sent <= now)
                    socket->seat->pong(static_cast<double>(now - sent) / 1e6);
            }
            return 0;
        }
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return socket ? write_socket(wsi, *socket) : -1;
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if (socket && socket->seat)
                closed_by_player(*socket, static_cast<const unsigned char*>(in), len);
            return 0;
        case LWS_CALLBACK_CLOSED:
            if (socket) {
                sockets_.erase(std::remove(sockets_.begin(), sockets_.end(), socket),
                               sockets_.end());
                counts_.sockets = static_cast<int>(sockets_.size());
                if (auto* seat = std::exchange(socket->seat, nullptr))
                    seat->drop("the connection closed");
                delete socket;
                socket = nullptr;
                check_finished();
            }
            return 0;
        default:
            return 0;
    }
}

// The upgrade's response to a seat's connection: how many of its bytes the host has (a client
// that comes back sends on from there), how many games its player has after this one, and the
// word list that judges it.
int Server::add_seat_headers(lws* wsi, Socket& socket, lws_process_html_args& args) {
    Headers headers = {
        {"x-bananagrams-received:", std::to_string(socket.seat->received())},
        {"x-bananagrams-games-after:", std::to_string(content_.desk->games_after(*socket.seat))}};
    if (const auto& served = content_.for_players) {
        const WordList& words = served->word_list;
        headers.emplace_back("x-bananagrams-wordlist:", words.name);
        headers.emplace_back("x-bananagrams-wordlist-fingerprint:",
                             fmt::format("{:016x}", words.fingerprint));
        headers.emplace_back("x-bananagrams-wordlist-url:", word_list_path(words.fingerprint));
    }
    auto* p = reinterpret_cast<unsigned char*>(args.p);
    for (const auto& [name, value] : headers)
        if (!add_header(wsi, name, value, &p, p + args.max_len))
            return 1;
    args.max_len -= static_cast<int>(p - reinterpret_cast<unsigned char*>(args.p));
    args.p = reinterpret_cast<char*>(p);
    return 0;
}

// The player closed its connection, as a process closes its output: it has left; but a client
// going away (1001: a page reloaded or closed, a laptop going to sleep) has dropped it, and may
// come back within the grace.
void Server::closed_by_player(Socket& socket, const unsigned char* frame, std::size_t len) {
    const int code = len >= 2 ? (frame[0] << 8 | frame[1]) : 1005;
    const std::string why = len > 2 ? std::string(reinterpret_cast<const char*>(frame) + 2,
                                                  std::min<std::size_t>(len - 2, 123))
                                    : "";
    std::exchange(socket.seat, nullptr)
        ->drop(
            fmt::format("it {} its connection ({}{}{})", code == 1001 ? "went away from" : "closed",
                        code, why.empty() ? "" : ": ", why),
            code != 1001);
}

void Server::publish(std::string name, std::string data) {
    const std::string text = wire(stream_.publish(std::move(name), std::move(data)));
    for (Session* session : std::vector<Session*>(streams_)) {
        if (session->out.push(text))
            lws_callback_on_writable(session->wsi);
        else
            drop(*session);
    }
}

void Server::drop(Session& session) {
    streams_.erase(std::remove(streams_.begin(), streams_.end(), &session), streams_.end());
    counts_.streams = static_cast<int>(streams_.size());
    ++counts_.dropped;
    session.kind = Session::idle;
    session.out = SendQueue(0);
    if (session.wsi)
        lws_set_timeout(session.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

void Server::finish(std::uint64_t grace_ms, std::function<void()> done) {
    if (finishing_)
        return;
    finishing_ = true;
    done_ = std::move(done);
    finish_by_ = uv_now(loop_) + grace_ms;
    finish_timer_ = new uv_timer_t;
    uv_timer_init(loop_, finish_timer_);
    finish_timer_->data = this;
    uv_timer_start(
        finish_timer_,
        [](uv_timer_t* timer) { static_cast<Server*>(timer->data)->check_finished(); }, 20, 20);
}

void Server::check_finished() {
    if (!finishing_ || destroying_ || !finish_timer_)
        return;
    // Sent: neither in its queue nor in what libwebsockets holds of a write the socket did not
    // take whole.
    const bool sent = std::all_of(streams_.begin(), streams_.end(), [](const Session* s) {
        return s->out.empty() && (!s->wsi || !lws_partial_buffered(s->wsi));
    });
    // And every seat's connection has had its close frame (each seat closed its own at its
    // game's end).
    if ((!sent || !sockets_.empty()) && uv_now(loop_) < finish_by_)
        return;
    // Closes every connection and the listening socket: libwebsockets closes its handles on
    // the loop, and the destructor (once the loop has run out) frees the rest.
    for (Session* session : streams_)
        session->wsi = nullptr;
    streams_.clear();
    destroying_ = true;  // what libwebsockets calls back while it closes finds it done
    uv_close(reinterpret_cast<uv_handle_t*>(std::exchange(finish_timer_, nullptr)),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_timer_t*>(handle); });
    lws_context_destroy(*context_);
    if (auto done = std::exchange(done_, nullptr))
        done();
}

}  // namespace bg::serve
