// One HTTP request over the client context: a GET (bananagrams-connect's word list, fetched from
// the seat's server), or a POST of a body (arena bot submit's archive); the answer's body, whole,
// or why not; bounded in size and in time.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "connect/client.hpp"
#include "connect/seat_url.hpp"
#include "transport/handles.hpp"

namespace bg::connect {

class HttpRequest final : public Handler {
  public:
    struct Reply {
        int status = 0;     // the HTTP status; 0 when none came
        std::string body;   // whole when `error` is empty
        std::string error;  // why there is no body (a status but 200 included)
    };
    // What a POST sends: its body, of its type, with its Authorization header ("" none).
    struct Body {
        std::string type, authorization, bytes;
    };
    // GETs `path` from the server of `url` (its host and port), or POSTs `body` to it; `done`
    // once, from the loop.
    HttpRequest(uv_loop_t* loop, ClientContext& context, const SeatUrl& url, std::string path,
                std::size_t max_bytes, std::uint64_t timeout_ms, std::function<void(Reply)> done,
                std::optional<Body> body = std::nullopt);
    HttpRequest(const HttpRequest&) = delete;
    HttpRequest& operator=(const HttpRequest&) = delete;
    ~HttpRequest() override;
    // Gives up: `done` is never called.
    void cancel();

    int on(lws* wsi, lws_callback_reasons reason, void* in, std::size_t len) override;

  private:
    void finish(std::string error);
    // The POST's headers, then its body as the connection takes it.
    int add_headers(void* in, std::size_t len);
    int write_body();

    std::string path_;
    std::string host_header_;
    std::size_t max_bytes_;
    std::optional<Body> body_;
    std::size_t sent_ = 0;  // of the body
    std::function<void(Reply)> done_;
    Reply reply_;
    lws* wsi_ = nullptr;
    bool reported_ = false;
    Timer deadline_;
    Timer reporter_;  // done_ from a turn of its own, not inside libwebsockets' callback
};

}  // namespace bg::connect
