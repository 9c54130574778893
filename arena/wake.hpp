// A process woken as the database notifies what it listens to (sql::Connection::listen): the
// connection's socket watched on the loop, and watched again as a lost connection is made
// again. What is woken still looks on its own clock too (SQLite notifies nothing; a
// notification read with a statement's result wakes no poll).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include <uv.h>

#include "sql/connection.hpp"
#include "transport/handles.hpp"

namespace bg::arena {

class Wake {
  public:
    // Listens to `channel` (where it cannot, it says nothing: its owner's clock still runs);
    // `on_notified` runs on the loop as a notification comes.
    Wake(uv_loop_t* loop, sql::Connection& db, std::string_view channel,
         std::function<void()> on_notified);
    // Whether one came, or may have been missed, since last asked (its owner's clock asks).
    bool notified() { return db_.notified(); }
    // The socket watched again if it is another now; the owner calls it after its statements.
    void rearm();
    // Watched no more, for good (the loop may end).
    void stop() {
        stopped_ = true;
        poll_.reset();
    }

  private:
    uv_loop_t* loop_;
    sql::Connection& db_;
    std::function<void()> on_notified_;
    std::optional<Poll> poll_;
    int fd_ = -1;
    std::uint64_t session_ = 0;
    bool stopped_ = false;
};

}  // namespace bg::arena
