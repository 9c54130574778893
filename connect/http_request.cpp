#include "connect/http_request.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace bg::connect {

HttpRequest::HttpRequest(uv_loop_t* loop, ClientContext& context, const SeatUrl& url,
                         std::string path, std::size_t max_bytes, std::uint64_t timeout_ms,
                         std::function<void(Reply)> done, std::optional<Body> body)
    : path_(std::move(path)),
      host_header_(url.authority()),
      max_bytes_(max_bytes),
      body_(std::move(body)),
      done_(std::move(done)),
      deadline_(loop,
                [this, timeout_ms] {
                    finish(fmt::format("no whole answer within {} s", timeout_ms / 1000.0));
                }),
      reporter_(loop, [this] {
          if (auto done = std::exchange(done_, nullptr))
              done(std::move(reply_));
      }) {
    lws_client_connect_info info;
    std::memset(&info, 0, sizeof info);
    info.context = context.get();
    info.address = url.host.c_str();
    info.port = url.port;
    info.path = path_.c_str();
    info.host = host_header_.c_str();
    info.origin = host_header_.c_str();
    info.method = body_ ? "POST" : "GET";
    info.local_protocol_name = "bananagrams-connect";
    info.opaque_user_data = this;
    info.pwsi = &wsi_;
    deadline_.start(timeout_ms);
    if (!lws_client_connect_via_info(&info)) {
        wsi_ = nullptr;
        finish("the connection could not be begun");
    }
}

HttpRequest::~HttpRequest() {
    cancel();
}

void HttpRequest::cancel() {
    done_ = nullptr;
    reported_ = true;
    deadline_.stop();
    abandon(std::exchange(wsi_, nullptr));
}

void HttpRequest::finish(std::string error) {
    if (reported_)
        return;
    reported_ = true;
    deadline_.stop();
    abandon(std::exchange(wsi_, nullptr));
    reply_.error = std::move(error);
    reporter_.start(0);
}

int HttpRequest::add_headers(void* in, std::size_t len) {
    auto** p = static_cast<unsigned char**>(in);
    unsigned char* end = *p + len;
    const std::string length = std::to_string(body_->bytes.size());
    const auto add = [&](lws_token_indexes token, const std::string& value) {
        return value.empty() ||
               lws_add_http_header_by_token(wsi_, token,
                                            reinterpret_cast<const unsigned char*>(value.data()),
                                            static_cast<int>(value.size()), p, end) == 0;
    };
    if (!add(WSI_TOKEN_HTTP_CONTENT_TYPE, body_->type) ||
        !add(WSI_TOKEN_HTTP_AUTHORIZATION, body_->authorization) ||
        !add(WSI_TOKEN_HTTP_CONTENT_LENGTH, length))
        return -1;
    lws_client_http_body_pending(wsi_, 1);
    lws_callback_on_writable(wsi_);
    return 0;
}

int HttpRequest::write_body() {
    constexpr std::size_t chunk = 16 * 1024;
    unsigned char buffer[LWS_PRE + chunk];
    const std::size_t n = std::min(chunk, body_->bytes.size() - sent_);
    std::memcpy(buffer + LWS_PRE, body_->bytes.data() + sent_, n);
    const bool last = sent_ + n == body_->bytes.size();
    if (lws_write(wsi_, buffer + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) !=
        static_cast<int>(n))
        return -1;
    sent_ += n;
    if (last)
        lws_client_http_body_pending(wsi_, 0);
    else
        lws_callback_on_writable(wsi_);
    return 0;
}

int HttpRequest::on(lws* wsi, lws_callback_reasons reason, void* in, std::size_t len) {
    if (wsi != wsi_)
        return is_traffic(reason) ? -1 : 0;
    switch (reason) {
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            wsi_ = nullptr;
            finish(in ? std::string(static_cast<const char*>(in),
                                    strnlen(static_cast<const char*>(in), len ? len : 200))
                      : "the connection failed");
            return 0;
        case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
            return body_ ? add_headers(in, len) : 0;
        case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
            return body_ && sent_ < body_->bytes.size() ? write_body() : 0;
        case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
            reply_.status = static_cast<int>(lws_http_client_http_response(wsi));
            return 0;
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP: {
            char buffer[LWS_PRE + 16384];
            char* p = buffer + LWS_PRE;
            int n = sizeof buffer - LWS_PRE;
            return lws_http_client_read(wsi, &p, &n) < 0 ? -1 : 0;
        }
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
            if (reply_.body.size() + len > max_bytes_) {
                finish(fmt::format("an answer over {} MiB", max_bytes_ >> 20));
                return -1;
            }
            reply_.body.append(static_cast<const char*>(in), len);
            return 0;
        case LWS_CALLBACK_COMPLETED_CLIENT_HTTP: {
            // A refusal's first line says why (the host's answers are one line of text).
            const std::string why =
                reply_.body.substr(0, std::min<std::size_t>(reply_.body.find('\n'), 200));
            finish(reply_.status == 200 ? "" : fmt::format("HTTP {}: {}", reply_.status, why));
            return -1;
        }
        case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
        case LWS_CALLBACK_WSI_DESTROY:
            wsi_ = nullptr;
            finish("the connection closed before the answer was whole");
            return 0;
        default:
            return lws_callback_http_dummy(wsi, reason, nullptr, in, len);
    }
}

}  // namespace bg::connect
