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

#include "cli/log.hpp"
#include "core/text.hpp"
#include "serve/gzip.hpp"

namespace bg::serve {

namespace {

// What a connection's per-session memory (zeroed by libwebsockets) holds: where the server
// keeps the connection (the server owns both).
struct SessionSlot {
    Server::Session* session;  // an HTTP connection's
    Server::Socket* socket;    // a WebSocket connection's
};

constexpr std::size_t chunk_bytes = 16 * 1024;

// The pages are the program's own, drawn by their inline script and style: nothing else may
// load, and the page may connect only to this server.
constexpr const char* page_policy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
    "connect-src 'self'";

// libwebsockets' own errors, as the program's warnings (cli/log.hpp).
void log_line(int level, const char* line) {
    std::string_view text(line);
    if (text.ends_with('\n'))
        text.remove_suffix(1);
    if (level & LLL_ERR)
        log::warning("libwebsockets: {}", text);
}

bool add_header(lws* wsi, const char* name, const std::string& value, unsigned char** p,
                unsigned char* end) {
    return lws_add_http_header_by_name(wsi, reinterpret_cast<const unsigned char*>(name),
                                       reinterpret_cast<const unsigned char*>(value.data()),
                                       static_cast<int>(value.size()), p, end) == 0;
}

// Writes a response's headers: the status, the type and length (none for a stream), and
// headers that keep a browser from sniffing, and from caching unless `more` says otherwise.
bool write_headers(lws* wsi, unsigned status, const char* type, lws_filepos_t length,
                   const Headers& more = {}) {
    unsigned char buffer[LWS_PRE + 2048];
    unsigned char* start = buffer + LWS_PRE;
    unsigned char* p = start;
    unsigned char* end = buffer + sizeof buffer - 1;
    const bool cached = std::any_of(more.begin(), more.end(), [](const auto& header) {
        return header.first == "cache-control:";
    });
    if (lws_add_http_common_headers(wsi, status, type, length, &p, end) != 0 ||
        (!cached && !add_header(wsi, "cache-control:", "no-store", &p, end)) ||
        !add_header(wsi, "x-content-type-options:", "nosniff", &p, end))
        return false;
    for (const auto& [name, value] : more)
        if (!add_header(wsi, name.c_str(), value, &p, end))
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

// A request header by its lower-case name without a colon: a known one by its token, any other
// as libwebsockets keeps custom headers.
std::string header_named(lws* wsi, std::string_view name) {
    if (name == "origin")
        return header(wsi, WSI_TOKEN_ORIGIN);
    if (name == "host")
        return header(wsi, WSI_TOKEN_HOST);
    if (name == "authorization")
        return header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION);
    const std::string custom = std::string(name) + ":";
    const int length = lws_hdr_custom_length(wsi, custom.c_str(), static_cast<int>(custom.size()));
    if (length <= 0 || length > 1024)
        return "";
    std::string value(static_cast<std::size_t>(length) + 1, '\0');
    if (lws_hdr_custom_copy(wsi, value.data(), length + 1, custom.c_str(),
                            static_cast<int>(custom.size())) != length)
        return "";
    value.resize(static_cast<std::size_t>(length));
    return value;
}

// An upgrade request, read through libwebsockets while its callback runs.
class LwsUpgrade final : public WebSocketService::Upgrade {
  public:
    explicit LwsUpgrade(lws* wsi) : wsi_(wsi) {}
    std::string path() const override { return header(wsi_, WSI_TOKEN_GET_URI); }
    std::string header(std::string_view name) const override { return header_named(wsi_, name); }
    std::string arg(std::string_view name) const override {
        char value[256] = {};
        const std::string key = std::string(name) + "=";
        const char* found = lws_get_urlarg_by_name(wsi_, key.c_str(), value, sizeof value);
        return found ? std::string(found) : std::string();
    }
    std::string peer() const override { return peer_of(wsi_); }

  private:
    static std::string header(lws* wsi, lws_token_indexes token) {
        return bg::serve::header(wsi, token);
    }
    lws* wsi_;
};

}  // namespace

// Where libwebsockets' context finds the server: its user pointer. It outlives the server while
// the context may still call back (a server's connections are closed on the loop after it is
// destroyed), and then says there is none.
struct Server::Anchor {
    Server* server = nullptr;
    lws_context* context = nullptr;  // cleared by libwebsockets (info.pcontext) once it is gone
};

// A WebSocket connection let in: its messages out, bounded, and what its service made of it.
struct Server::Socket final : WebSocket {
    Socket(lws* wsi, std::size_t limit) : wsi(wsi), out(limit) {}
    void send_text(std::string_view bytes) override { queued(out.push_text(bytes)); }
    void send_binary(std::string_view message) override { queued(out.push_binary(message)); }
    std::size_t unsent_bytes() const override { return out.size(); }
    void ping() override {
        ping_due = true;
        lws_callback_on_writable(wsi);
    }
    void fence() override {
        out.push_fence();
        queued(true);
    }
    void close(int code, std::string_view reason) override {
        closing = true;
        close_code = code;
        close_reason = std::string(reason.substr(0, 120));
        lws_callback_on_writable(wsi);
    }
    void queued(bool taken) {
        if (closing)
            return;
        overflowed = overflowed || !taken;
        lws_callback_on_writable(wsi);
    }

    lws* wsi;
    std::unique_ptr<WebSocketService::Connection> connection;
    MessageQueue out;
    std::string peer;
    std::size_t message_bytes = 0;  // of the message being received
    std::string binary;             // a binary message, until its last part
    bool ping_due = false;
    std::uint64_t ping_out = 0;  // the time in the ping sent and not yet answered (0: none)
    bool fence_out = false;      // that ping is a fence
    bool overflowed = false;
    bool closing = false;
    bool close_sent = false;
    bool gone = false;  // its connection was told
    int close_code = 1000;
    std::string close_reason;
};

struct Server::Session {
    enum Kind { idle, body, stream, posting };
    explicit Session(std::size_t limit) : out(limit) {}
    Kind kind = idle;
    SendQueue out;
    lws* wsi = nullptr;
    Post post;                 // a POST's, while its body comes
    bool too_long = false;     // its body passed its limit
    std::size_t limit = 0;     // its body's: Limits::post_bytes, or upload_bytes for a file
    bool close_after = false;  // closed once its answer is sent
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

// The reason phrase of a status a refusal may carry (RFC 9110's words).
const char* reason_phrase(int status) {
    switch (status) {
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 409:
            return "Conflict";
        case 410:
            return "Gone";
        case 413:
            return "Content Too Large";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
        default:
            return status < 500 ? "Client Error" : "Server Error";
    }
}

// A refused upgrade's answer: always HTTP/1.1 (libwebsockets answers an upgrade in the
// version it has not parsed yet, 1.0, which strict WebSocket clients reject), a JSON body that
// says what the status and headers say ({"error", "message", "retry_after"}), and the
// connection closed after it.
bool write_refusal(lws* wsi, const WebSocketService::Refusal& refusal) {
    nlohmann::json body = {
        {"error", refusal.kind.empty() ? std::to_string(refusal.status) : refusal.kind},
        {"message", refusal.why}};
    if (refusal.retry_after_s > 0)
        body["retry_after"] = refusal.retry_after_s;
    // A sentence may quote what a client sent: bytes that are not UTF-8 are replaced, not thrown.
    const std::string text =
        body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    unsigned char buffer[LWS_PRE + 2048];
    unsigned char* start = buffer + LWS_PRE;
    unsigned char* p = start;
    unsigned char* end = buffer + sizeof buffer - 1;
    const std::string status_line =
        fmt::format("HTTP/1.1 {} {}\r\n", refusal.status, reason_phrase(refusal.status));
    std::memcpy(p, status_line.data(), status_line.size());
    p += status_line.size();
    if (!add_header(wsi, "content-type:", "application/json", &p, end) ||
        lws_add_http_header_content_length(wsi, text.size(), &p, end) != 0 ||
        !add_header(wsi, "connection:", "close", &p, end) ||
        !add_header(wsi, "cache-control:", "no-store", &p, end) ||
        !add_header(wsi, "x-content-type-options:", "nosniff", &p, end) ||
        (refusal.retry_after_s > 0 &&
         !add_header(wsi, "retry-after:", std::to_string(refusal.retry_after_s), &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end) != 0)
        return false;
    return write_whole(wsi, text, LWS_WRITE_HTTP_FINAL);
}

// The last byte of a fence's ping (WebSocket::fence), which a ping's payload never has.
constexpr char fence_mark = 'F';
// A ping unanswered this long is taken for lost, and the next may go: a client's pong is on
// its way within a round trip, but a client may have dropped the ping, where libwebsockets'
// own ping of an idle connection (its pong still pending) came just before it.
constexpr std::uint64_t ping_lost_ns = 5'000'000'000;

// A ping whose payload is the time it is sent (and, a fence's, the mark after it): the ping
// out until its answer (Server::Socket::ping_out).
bool write_ping(lws* wsi, Server::Socket& socket, bool fence) {
    char payload[sizeof(std::uint64_t) + 1];
    const std::uint64_t now = uv_hrtime();
    std::memcpy(payload, &now, sizeof now);
    payload[sizeof now] = fence_mark;
    if (!write_whole(wsi, {payload, sizeof now + (fence ? 1 : 0)}, LWS_WRITE_PING))
        return false;
    socket.ping_out = now;
    socket.fence_out = fence;
    lws_callback_on_writable(wsi);
    return true;
}

// A socket's turn to write: a ping that is due, then its messages, then, once they are all
// written and it is closing, its close frame. One ping is out at a time: a client need answer
// only one of two unanswered pings (RFC 6455, 5.5.3), and libwebsockets drops the second, so a
// fence sent beside another ping would never be answered. A ping due while one is out is not
// sent (nor one due when a fence, a ping too, is next); a fence (and what follows it) waits for
// the answer, whose coming asks to write again, or until the ping out is taken for lost.
int write_socket(lws* wsi, Server::Socket& socket) {
    if (socket.overflowed)
        return -1;
    const std::uint64_t now = uv_hrtime();
    if (socket.ping_out != 0 && now - socket.ping_out >= ping_lost_ns)
        socket.ping_out = 0;
    const auto next = socket.out.front(chunk_bytes);  // none where the queue is empty
    if (std::exchange(socket.ping_due, false) && socket.ping_out == 0 && !next.fence)
        return write_ping(wsi, socket, false) ? 0 : -1;
    if (!socket.out.empty()) {
        if (next.fence) {
            if (socket.closing) {  // no answer is waited for once it closes
                socket.out.sent(0);
                lws_callback_on_writable(wsi);
                return 0;
            }
            if (socket.ping_out != 0) {  // asked to write again when it is taken for lost
                const std::uint64_t left_ns = socket.ping_out + ping_lost_ns - now;
                lws_set_timer_usecs(wsi, static_cast<lws_usec_t>(left_ns / 1000 + 1));
                return 0;
            }
            socket.out.sent(0);
            return write_ping(wsi, socket, true) ? 0 : -1;
        }
        if (!write_whole(wsi, next.bytes, next.binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT))
            return -1;
        socket.out.sent(next.bytes.size());
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

Server::Server(uv_loop_t* loop, Content content, Limits limits)
    : loop_(loop),
      content_(std::move(content)),
      limits_(limits),
      stream_(limits.first_id ? limits.first_id : first_id_now(), limits.history_bytes),
      anchor_(std::make_unique<Anchor>()) {
    anchor_->server = this;
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
    info.user = server->anchor_.get();
    info.pcontext = &server->anchor_->context;
    info.max_http_header_data = static_cast<unsigned short>(limits.header_bytes);
    info.timeout_secs = limits.header_seconds;
    info.vhost_name = "bananagrams";
    lws_context* context = lws_create_context(&info);
    server->anchor_->context = context;
    const std::string refused = fmt::format(
        "cannot serve on {}: it is in use, or not an address of this machine", address.authority());
    if (!context)
        return refused;
    // Bound a moment ago by the check above, the address was taken since: libwebsockets made a
    // context without its vhost. Its destruction on a foreign loop unloads the libuv plugin
    // while the loop still holds the plugin's callbacks, so it is left as it is, unused, until
    // the program (which stops here) ends.
    lws_vhost* vhost = lws_get_vhost_by_name(context, "bananagrams");
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
    // From here the context's callbacks find no server (and touch nothing it owned).
    anchor_->server = nullptr;
    // With a foreign loop, libwebsockets destroys a context in two calls: the first closes its
    // connections and handles on the loop (finish()); the second, once the loop has closed
    // them, frees the context. Destroyed before finish(), the server makes the first here.
    if (anchor_->context && !abandoned_)
        lws_context_destroy(anchor_->context);
    // A context not gone yet (the loop has not run since) still calls back and clears its
    // cell: the anchor is left to it, for as long as the program runs.
    if (anchor_->context)
        static_cast<void>(anchor_.release());
}

int Server::callback(lws* wsi, int reason, void* user, void* in, std::size_t len) {
    // What answers a request may fail where its data cannot be read (an arena's database that
    // is gone for a while): that request is answered 503, or its connection closed, and the
    // server goes on. Nothing is thrown through libwebsockets' and libuv's frames.
    try {
        return dispatch(wsi, reason, user, in, len);
    } catch (const std::exception& e) {
        return failed(wsi, reason, user, e.what());
    }
}

Server* Server::of(lws* wsi) {
    lws_context* context = lws_get_context(wsi);
    auto* anchor = context ? static_cast<Anchor*>(lws_context_user(context)) : nullptr;
    return anchor ? anchor->server : nullptr;
}

int Server::dispatch(lws* wsi, int reason, void* user, void* in, std::size_t len) {
    Server* server = of(wsi);
    auto* slot = static_cast<SessionSlot*>(user);
    switch (static_cast<lws_callback_reasons>(reason)) {
        case LWS_CALLBACK_HTTP:
        case LWS_CALLBACK_HTTP_WRITEABLE:
        case LWS_CALLBACK_HTTP_BODY:
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        case LWS_CALLBACK_CLOSED_HTTP:
            if (!server)  // its server is gone, and with it everything it kept of the connection
                return static_cast<lws_callback_reasons>(reason) == LWS_CALLBACK_HTTP ? -1 : 0;
            if (!slot) {
                // A connection closed before a request of it came whole (none had a place for
                // it): where connections are let in, a handshake that never ended is refused.
                if (static_cast<lws_callback_reasons>(reason) == LWS_CALLBACK_CLOSED_HTTP &&
                    server->content_.sockets && !server->destroying_)
                    server->refuse(wsi,
                                   {408, "its request never came whole", 0, "handshake-timeout"});
                return static_cast<lws_callback_reasons>(reason) == LWS_CALLBACK_HTTP ? -1 : 0;
            }
            return server->on_http(wsi, reason, slot->session, static_cast<const char*>(in), len);
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return server ? server->on_upgrade(wsi) : -1;
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        case LWS_CALLBACK_ADD_HEADERS:
        case LWS_CALLBACK_ESTABLISHED:
        case LWS_CALLBACK_RECEIVE:
        case LWS_CALLBACK_RECEIVE_PONG:
        case LWS_CALLBACK_SERVER_WRITEABLE:
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        case LWS_CALLBACK_CLOSED:
            if (!server || !slot)
                return reason == LWS_CALLBACK_CLOSED ? 0 : -1;
            return server->on_socket(wsi, reason, slot->socket, in, len);
        default:
            break;
    }
    return lws_callback_http_dummy(wsi, static_cast<lws_callback_reasons>(reason), user, in, len);
}

int Server::failed(lws* wsi, int reason, void* user, const char* what) {
    Server* server = of(wsi);
    auto* slot = static_cast<SessionSlot*>(user);
    log::error("a request could not be answered: {}", escape_for_terminal(what));
    if (!server)
        return -1;
    const std::string why = "the server cannot answer now: try again in a few seconds\n";
    switch (static_cast<lws_callback_reasons>(reason)) {
        case LWS_CALLBACK_HTTP:  // nothing of the answer written yet
            if (!slot || !slot->session ||
                !write_headers(wsi, 503, "text/plain; charset=utf-8", why.size(),
                               {{"retry-after:", "5"}}))
                return -1;
            return server->send_body(wsi, *slot->session, why, false);
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: {
            const WebSocketService::Refusal refusal{503, why.substr(0, why.size() - 1), 5,
                                                    "unavailable"};
            server->refuse(wsi, refusal);
            return write_refusal(wsi, refusal) ? 1 : -1;
        }
        default:
            return -1;
    }
}

int Server::on_http(lws* wsi, int reason, Session*& session, const char* in, std::size_t len) {
    switch (static_cast<lws_callback_reasons>(reason)) {
        case LWS_CALLBACK_HTTP:
            if (!session) {
                sessions_.push_back(std::make_unique<Session>(limits_.queue_bytes));
                session = sessions_.back().get();
            }
            session->wsi = wsi;
            return on_request(wsi, *session, in);
        case LWS_CALLBACK_HTTP_BODY:
            // A body of a request not read (refused at once; answered, then closed): passed over.
            if (!session || session->kind != Session::posting)
                return 0;
            if (session->post.body.size() + len > session->limit)
                session->too_long = true;
            else
                session->post.body.append(in, len);
            return 0;
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            return session && session->kind == Session::posting ? answer_post(wsi, *session) : 0;
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return session ? on_writable(wsi, *session) : 0;
        default:  // closed
            if (session)
                closed(*std::exchange(session, nullptr));
            return 0;
    }
}

void Server::closed(Session& session) {
    streams_.erase(std::remove(streams_.begin(), streams_.end(), &session), streams_.end());
    counts_.streams = static_cast<int>(streams_.size());
    std::erase_if(sessions_, [&](const auto& kept) { return kept.get() == &session; });
    check_finished();
}

int Server::on_request(lws* wsi, Session& session, const char* path) {
    Method method = Method::other;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0)
        method = Method::get;
    else if (lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0)
        method = Method::head;
    else if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0)
        method = Method::post;
    const std::string_view asked = path ? path : "";
    const std::string_view bare = asked.substr(0, asked.find('?'));
    if (method == Method::post && content_.post && !finishing_ &&
        (std::count(content_.post_paths.begin(), content_.post_paths.end(), bare) ||
         (content_.uploads && content_.uploads(bare))))
        return begin_post(wsi, session, path);
    if (method == Method::post)
        method = Method::other;
    const Route found = route(method, path ? path : "");
    const bool head = method == Method::head;
    const auto plain = [&](unsigned status, const std::string& text, const Headers& more = {}) {
        if (!write_headers(wsi, status, "text/plain; charset=utf-8", text.size(), more))
            return -1;
        if (head || text.empty())
            return lws_http_transaction_completed(wsi) ? -1 : 0;
        session.kind = Session::body;
        session.out.push(text);
        lws_callback_on_writable(wsi);
        return 0;
    };
    if (finishing_)
        return plain(503, "the games are over: this server is closing\n");
    // The live page and stream show every player's tiles as they are dealt, and a finished
    // game's page the deal that its other seatings play again: where players connect, who can
    // reach this server, they could read what their opponents hold or will be dealt.
    const bool shows_tiles =
        found.kind == Route::game_page ||
        (!content_.public_stream && (found.kind == Route::page || found.kind == Route::events));
    if (content_.sockets && shows_tiles)
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
            if (const std::string_view asked = path ? path : "";
                content_.api && asked.starts_with("/api/"))
                // The API is read, never written: what a program changes is changed by its
                // command line on its machine.
                return method == Method::other ? plain(405, "", {{"allow:", "GET, HEAD"}})
                                               : serve_api(wsi, session, std::string(asked), head);
            else if (content_.pages && method != Method::other)
                body = content_.pages(std::string(asked));
            if (!body)
                return plain(404, "not found\n");
            break;
        case Route::page:
            if (!content_.page)
                return plain(404, "not found\n");
            body = content_.page();
            break;
        case Route::play:
            if (!content_.sockets || !content_.play)
                return plain(404, "no seat here is taken from a page\n");
            body = content_.play();
            break;
        case Route::rules:
        case Route::word_list_text:
            return serve_word_list(wsi, session, found, head);
        case Route::game_page:
            if (content_.game)
                body = content_.game(found.game);
            if (!body)
                return plain(404, "no such game here, or not over yet\n");
            break;
        case Route::events:
            if (static_cast<int>(streams_.size()) >= limits_.streams)
                return plain(503, "too many streams\n", {{"retry-after:", "10"}});
            return open_stream(wsi, session, head);
    }
    if (!write_headers(wsi, 200, "text/html; charset=utf-8", body->size(),
                       {{"content-security-policy:", page_policy}}))
        return -1;
    return send_body(wsi, session, *body, head);
}

// GET /events: the stream's headers, then where the client was (Last-Event-ID), if it still
// can be caught up, or the present state; then every event as it is published.
int Server::open_stream(lws* wsi, Session& session, bool head) {
    if (!write_headers(wsi, 200, "text/event-stream", LWS_ILLEGAL_HTTP_CONTENT_LEN))
        return -1;
    if (head)
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);  // a stream lasts as long as the games
    session.kind = Session::stream;
    streams_.push_back(&session);
    counts_.streams = static_cast<int>(streams_.size());
    ++counts_.served;
    std::optional<std::uint64_t> last_seen;
    if (const std::string value = header_named(wsi, "last-event-id");
        !value.empty() && value.size() < 64)
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
    return send_body(wsi, session, body, head);
}

// After a response's headers, its body (none for HEAD), sent as the client takes it.
int Server::send_body(lws* wsi, Session& session, const std::string& body, bool head) {
    if (head)
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    session.kind = Session::body;
    session.out = SendQueue(body.size());
    session.out.push(body);
    lws_callback_on_writable(wsi);
    return 0;
}

// GET /api/...: what its owner alone may read, where it is that; else the program's JSON for the
// path, or 404.
int Server::serve_api(lws* wsi, Session& session, const std::string& path, bool head) {
    if (content_.owned)
        if (auto owned =
                content_.owned(path, header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), peer_of(wsi))) {
            if (!write_headers(wsi, owned->status, owned->type.c_str(), owned->body.size(),
                               {{"cache-control:", "no-store"}, {"vary:", "Authorization"}}))
                return -1;
            return send_body(wsi, session, owned->body, head);
        }
    const std::optional<std::string> json = content_.api(path);
    const std::string body = json ? *json + "\n" : "{\"error\": \"not found\"}\n";
    if (!write_headers(wsi, json ? 200 : 404, "application/json", body.size(),
                       {{"cache-control:", "no-store"}}))
        return -1;
    return send_body(wsi, session, body, head);
}

// A POST: its body is read (LWS_CALLBACK_HTTP_BODY) where it says its length, within the limit,
// and is JSON (or, to a path of uploads, a file); then answered (answer_post). Refused at once
// otherwise, and the connection closed after the answer: a body not read cannot be passed over
// to a request after it.
int Server::begin_post(lws* wsi, Session& session, const char* path) {
    const std::string length_text = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH);
    const auto length = parse_number<std::size_t>(length_text);
    const std::string type = header(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE);
    const std::string_view asked = path;
    const bool file = content_.uploads && content_.uploads(asked.substr(0, asked.find('?')));
    const std::size_t limit = file ? limits_.upload_bytes : limits_.post_bytes;
    const auto file_type = [&] {
        for (const char* allowed : {"application/gzip", "application/x-gzip", "application/x-tar",
                                    "application/octet-stream"})
            if (type == allowed)
                return true;
        return false;
    };
    std::optional<std::pair<unsigned, std::string>> refused;
    if (!length)
        refused = {411, "a POST says its Content-Length"};
    else if (*length > limit)
        refused = {413, fmt::format("a POST's body here is at most {} bytes", limit)};
    else if (file && !file_type())
        refused = {415,
                   "a file POSTed here is a tar archive, gzipped or not: Content-Type: "
                   "application/gzip, application/x-tar or application/octet-stream"};
    else if (!file && !type.starts_with("application/json"))
        refused = {415, "a POST's body is JSON: Content-Type: application/json"};
    Post post{path,
              "",
              peer_of(wsi),
              header(wsi, WSI_TOKEN_ORIGIN),
              header(wsi, WSI_TOKEN_HOST),
              header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION)};
    std::optional<Posted> answered;
    if (refused)
        answered = Posted{refused->first, nlohmann::json{{"error", refused->second}}.dump()};
    else if (file && content_.upload_refused)
        answered = content_.upload_refused(post);
    if (answered) {
        const std::string body = answered->json + "\n";
        Headers more = {{"connection:", "close"}};
        if (answered->retry_after_s > 0)
            more.push_back({"retry-after:", std::to_string(answered->retry_after_s)});
        if (!write_headers(wsi, answered->status, "application/json", body.size(), more))
            return -1;
        session.close_after = true;
        return send_body(wsi, session, body, false);
    }
    session.kind = Session::posting;
    session.too_long = false;
    session.limit = limit;
    session.post = std::move(post);  // its body grows as its bytes come, never as it claims
    if (*length == 0)
        return answer_post(wsi, session);
    return 0;
}

int Server::answer_post(lws* wsi, Session& session) {
    Posted posted;
    if (session.too_long) {
        posted = {413, nlohmann::json{{"error", "the body is longer than it said"}}.dump()};
    } else {
        posted = content_.post(session.post);
    }
    session.post = {};
    Headers more;
    if (posted.retry_after_s > 0)
        more.push_back({"retry-after:", std::to_string(posted.retry_after_s)});
    const std::string body = posted.json + "\n";
    if (!write_headers(wsi, posted.status, "application/json", body.size(), more))
        return -1;
    session.kind = Session::idle;
    return send_body(wsi, session, body, false);
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
        if (std::exchange(session.close_after, false))
            return -1;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    check_finished();
    return 0;
}

void Server::refuse(lws* wsi, const WebSocketService::Refusal& refusal) {
    ++counts_.refused;
    if (content_.sockets)
        content_.sockets->refused(refusal, peer_of(wsi));
}

// A WebSocket upgrade: let in (0) only where the service lets it in; else refused with the
// service's status, or 503 past the cap on connections (1: the response is written).
int Server::on_upgrade(lws* wsi) {
    std::optional<WebSocketService::Refusal> refusal;
    if (!content_.sockets)
        refusal = content_.no_sockets.value_or(
            WebSocketService::Refusal{404, "no seat is taken here", 0, "path"});
    else if (finishing_)
        refusal = content_.closing.value_or(WebSocketService::Refusal{
            410, "the games are over: this server is closing", 0, "closing"});
    else if (static_cast<int>(sockets_.size()) >= limits_.sockets)
        refusal = WebSocketService::Refusal{503, "too many connections", 0, "connections-at-once"};
    else
        refusal = content_.sockets->check(LwsUpgrade(wsi));
    if (!refusal)
        return 0;
    refuse(wsi, *refusal);
    return write_refusal(wsi, *refusal) ? 1 : -1;
}

int Server::on_socket(lws* wsi, int reason, Socket*& socket, void* in, std::size_t len) {
    const auto reason_is = static_cast<lws_callback_reasons>(reason);
    if (reason_is == LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION) {
        // Let in a moment ago (on_upgrade), in this same call: the service makes it its own.
        if (!content_.sockets)
            return 1;
        auto made = std::make_unique<Socket>(wsi, limits_.queue_bytes);
        made->connection = content_.sockets->open(LwsUpgrade(wsi), *made);
        if (!made->connection)
            return 1;
        made->peer = peer_of(wsi);
        socket = made.get();
        sockets_.push_back(std::move(made));
        counts_.sockets = static_cast<int>(sockets_.size());
        return 0;
    }
    if (!socket)
        return reason_is == LWS_CALLBACK_CLOSED ? 0 : -1;
    switch (reason_is) {
        case LWS_CALLBACK_ADD_HEADERS:
            return add_headers(wsi, *socket, *static_cast<lws_process_html_args*>(in));
        case LWS_CALLBACK_ESTABLISHED:
            socket->connection->opened();
            return 0;
        case LWS_CALLBACK_RECEIVE:
            receive(wsi, *socket, std::string_view(static_cast<const char*>(in), len));
            return socket->gone ? -1 : 0;
        case LWS_CALLBACK_RECEIVE_PONG: {
            // The answer to the ping out, or else nothing (a pong unasked for, or a stale one).
            std::uint64_t sent = 0;
            const bool fence =
                len == sizeof sent + 1 && static_cast<const char*>(in)[sizeof sent] == fence_mark;
            if ((len != sizeof sent && !fence) || socket->ping_out == 0 ||
                fence != socket->fence_out)
                return 0;
            std::memcpy(&sent, in, sizeof sent);
            if (sent != socket->ping_out)
                return 0;
            socket->ping_out = 0;
            if (!socket->out.empty())  // a fence may wait for it
                lws_callback_on_writable(wsi);
            if (fence)
                socket->connection->fenced();
            else
                socket->connection->pong(static_cast<double>(uv_hrtime() - sent) / 1e6);
            return 0;
        }
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return write_socket(wsi, *socket);
        case LWS_CALLBACK_TIMER:  // a fence waits for a ping out that may now be taken for lost
            lws_callback_on_writable(wsi);
            return 0;
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE: {
            const auto* frame = static_cast<const unsigned char*>(in);
            const int code = len >= 2 ? (frame[0] << 8 | frame[1]) : 1005;
            const std::string_view why =
                len > 2 ? std::string_view(reinterpret_cast<const char*>(frame) + 2,
                                           std::min<std::size_t>(len - 2, 123))
                        : std::string_view();
            if (!socket->gone)
                socket->connection->closed_by_peer(code, why);
            return 0;
        }
        case LWS_CALLBACK_CLOSED:
            closed(*std::exchange(socket, nullptr));
            return 0;
        default:
            return 0;
    }
}

// A message's bytes as they come, within the cap on a message's size: past it, the connection
// is refused (1009) and closed.
void Server::receive(lws* wsi, Socket& socket, std::string_view bytes) {
    if (socket.gone)
        return;
    socket.message_bytes += bytes.size();
    if (socket.message_bytes + lws_remaining_packet_payload(wsi) > limits_.frame_bytes) {
        refuse(wsi, {1009, fmt::format("a message over {} bytes", limits_.frame_bytes), 0,
                     "message-too-large"});
        socket.gone = true;
        socket.connection->gone(
            fmt::format("it sent a message over {} bytes", limits_.frame_bytes));
        lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, nullptr, 0);
        return;
    }
    const bool last = lws_is_final_fragment(wsi);
    if (last)
        socket.message_bytes = 0;
    if (lws_frame_is_binary(wsi) || !socket.binary.empty()) {
        socket.binary.append(bytes);
        if (last)
            socket.connection->received_binary(std::exchange(socket.binary, {}));
        return;
    }
    if (!bytes.empty())
        socket.connection->received(bytes);
}

void Server::closed(Socket& socket) {
    if (!socket.gone) {
        socket.gone = true;
        socket.connection->gone("the connection closed");
    }
    std::erase_if(sockets_, [&](const auto& kept) { return kept.get() == &socket; });
    counts_.sockets = static_cast<int>(sockets_.size());
    check_finished();
}

// The upgrade's response: the headers its connection adds.
int Server::add_headers(lws* wsi, Socket& socket, lws_process_html_args& args) {
    auto* p = reinterpret_cast<unsigned char*>(args.p);
    for (const auto& [name, value] : socket.connection->response_headers())
        if (!add_header(wsi, name.c_str(), value, &p, p + args.max_len))
            return 1;
    args.max_len -= static_cast<int>(p - reinterpret_cast<unsigned char*>(args.p));
    args.p = reinterpret_cast<char*>(p);
    return 0;
}

std::uint64_t Server::publish(std::string name, std::string data) {
    const Event& event = stream_.publish(std::move(name), std::move(data));
    send_to_streams(wire(event));
    return event.id;
}

bool Server::relay(Event event, bool after_gap) {
    if (event.id <= stream_.last_id())
        return false;
    if (after_gap)
        for (Session* session : std::vector<Session*>(streams_))
            drop(*session);
    const Event* kept = stream_.publish_as(std::move(event), after_gap);
    if (kept)
        send_to_streams(wire(*kept));
    return kept;
}

void Server::send_to_streams(const std::string& text) {
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
    finish_timer_ = std::make_unique<Timer>(loop_, [this] {
        check_finished();
        if (finish_timer_)
            finish_timer_->start(20);
    });
    finish_timer_->start(20);
}

void Server::check_finished() {
    if (!finishing_ || destroying_ || !finish_timer_)
        return;
    // Sent: neither in its queue nor in what libwebsockets holds of a write the socket did not
    // take whole.
    const bool sent = std::all_of(streams_.begin(), streams_.end(), [](const Session* s) {
        return s->out.empty() && (!s->wsi || !lws_partial_buffered(s->wsi));
    });
    // And every WebSocket connection has had its close frame (each seat closed its own at its
    // game's end).
    if ((!sent || !sockets_.empty()) && uv_now(loop_) < finish_by_)
        return;
    // Closes every connection and the listening socket: libwebsockets closes its handles on
    // the loop, and the destructor (once the loop has run out) frees the rest.
    counts_.cut = static_cast<int>(sockets_.size());
    for (Session* session : streams_)
        session->wsi = nullptr;
    streams_.clear();
    destroying_ = true;  // what libwebsockets calls back while it closes finds it done
    finish_timer_.reset();
    lws_context_destroy(anchor_->context);
    if (auto done = std::exchange(done_, nullptr))
        done();
}

}  // namespace bg::serve
