// One HTTP GET over the client context (bananagrams-connect's word list, fetched from the seat's
// server): the body, whole, or why not; bounded in size and in time.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <string>

#include "connect/client.hpp"
#include "connect/seat_url.hpp"
#include "transport/handles.hpp"

namespace bg::connect {

class HttpGet final : public Handler {
  public:
    struct Reply {
        int status = 0;     // the HTTP status; 0 when none came
        std::string body;   // whole when `error` is empty
        std::string error;  // why there is no body (a status but 200 included)
    };
    // GETs `path` from the server of `url` (its host and port); `done` once, from the loop.
    HttpGet(uv_loop_t* loop, ClientContext& context, const SeatUrl& url, std::string path,
            std::size_t max_bytes, std::uint64_t timeout_ms, std::function<void(Reply)> done);
    HttpGet(const HttpGet&) = delete;
    HttpGet& operator=(const HttpGet&) = delete;
    ~HttpGet() override;
    // Gives up: `done` is never called.
    void cancel();

    int on(lws* wsi, lws_callback_reasons reason, void* in, std::size_t len) override;

  private:
    void finish(std::string error);

    std::string path_;
    std::string host_header_;
    std::size_t max_bytes_;
    std::function<void(Reply)> done_;
    Reply reply_;
    lws* wsi_ = nullptr;
    bool reported_ = false;
    Timer deadline_;
    Timer reporter_;  // done_ from a turn of its own, not inside libwebsockets' callback
};

}  // namespace bg::connect
