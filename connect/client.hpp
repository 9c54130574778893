// What bananagrams-connect's connections share: one libwebsockets client context on the
// program's libuv loop, whose callback hands each connection's events to the object that made
// it (its opaque user data), never to one that has let it go.
#pragma once

#include <libwebsockets.h>
#include <uv.h>

#include <cstddef>
#include <memory>

namespace bg::connect {

class Handler {
  public:
    virtual ~Handler() = default;
    // libwebsockets' callback for a connection of this handler's.
    virtual int on(lws* wsi, lws_callback_reasons reason, void* in, std::size_t len) = 0;
};

class ClientContext {
  public:
    // nullptr when libwebsockets cannot make one (said on stderr).
    static std::unique_ptr<ClientContext> make(uv_loop_t* loop);
    ClientContext(const ClientContext&) = delete;
    ClientContext& operator=(const ClientContext&) = delete;
    // With a foreign loop the context goes in two calls: the first (close()) closes its handles
    // on the loop, which must then run them out; the destructor frees it.
    ~ClientContext();
    void close();
    lws_context* get() const { return *context_; }

  private:
    ClientContext() = default;
    // libwebsockets clears it once its context is gone.
    std::unique_ptr<lws_context*> context_ = std::make_unique<lws_context*>(nullptr);
};

// Lets a connection go: its events reach no handler from now on, and it is closed.
void abandon(lws* wsi);

// Whether an event of a connection is its traffic (established, data in, a turn to write),
// which a connection its handler no longer uses answers by closing.
bool is_traffic(lws_callback_reasons reason);

}  // namespace bg::connect
