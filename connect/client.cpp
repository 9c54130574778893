#include "connect/client.hpp"

#include <cstring>
#include <string_view>

#include "cli/log.hpp"

namespace bg::connect {

namespace {

constexpr std::size_t frame_bytes = 16 * 1024;

int callback(lws* wsi, lws_callback_reasons reason, void* user, void* in, std::size_t len) {
    auto* handler = wsi ? static_cast<Handler*>(lws_get_opaque_user_data(wsi)) : nullptr;
    if (handler)
        return handler->on(wsi, reason, in, len);
    // A connection let go: its traffic is answered by closing it.
    return is_traffic(reason) ? -1 : lws_callback_http_dummy(wsi, reason, user, in, len);
}

const lws_protocols protocols[] = {
    {"bananagrams-connect", callback, 0, frame_bytes, 0, nullptr, 0},
    {nullptr, nullptr, 0, 0, 0, nullptr, 0},
};

}  // namespace

std::unique_ptr<ClientContext> ClientContext::make(uv_loop_t* loop) {
    lws_set_log_level(LLL_ERR, [](int, const char* line) {
        std::string_view text(line);
        if (text.ends_with('\n'))
            text.remove_suffix(1);
        log::warning("libwebsockets: {}", text);
    });
    std::unique_ptr<ClientContext> made(new ClientContext());
    lws_context_creation_info info;
    std::memset(&info, 0, sizeof info);
    void* loops[1] = {loop};
    info.options = LWS_SERVER_OPTION_LIBUV;
    info.foreign_loops = loops;
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.pcontext = made->context_.get();
    // Bounds libwebsockets' own waits (a handshake's answer, a close's); the connector bounds
    // the rest itself, and these too.
    info.timeout_secs = 10;
    *made->context_ = lws_create_context(&info);
    if (!*made->context_) {
        log::error("cannot make a WebSocket client here");
        return nullptr;
    }
    return made;
}

void ClientContext::close() {
    if (*context_)
        lws_context_destroy(*context_);
}

ClientContext::~ClientContext() {
    if (*context_)
        lws_context_destroy(*context_);
}

bool is_traffic(lws_callback_reasons reason) {
    switch (reason) {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
        case LWS_CALLBACK_CLIENT_RECEIVE:
        case LWS_CALLBACK_CLIENT_WRITEABLE:
        case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
            return true;
        default:
            return false;
    }
}

void abandon(lws* wsi) {
    if (!wsi)
        return;
    lws_set_opaque_user_data(wsi, nullptr);
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

}  // namespace bg::connect
