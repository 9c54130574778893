// A process woken as the database notifies what it listens to (sql::Connection::listen): the
// connection's socket watched on the loop, and watched again as a lost connection is made
// again. What is woken still looks on its own clock too (SQLite notifies nothing; a
// notification read with a statement's result wakes no poll; a lost connection is made again
// by the owner's next statement, not here).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <uv.h>

#include "sql/connection.hpp"
#include "transport/handles.hpp"

namespace bg::arena {

class Wake {
  public:
    // Listens to `channel` (where it cannot yet, again with the connection's next session);
    // `on_notified` runs on the loop as a notification comes.
    Wake(uv_loop_t* loop, sql::Connection& db, std::string_view channel,
         std::function<void()> on_notified);
    ~Wake();
    Wake(const Wake&) = delete;
    Wake& operator=(const Wake&) = delete;
    // Whether one came, or may have been missed, since last asked (its owner's clock asks).
    bool notified() { return db_.notified(); }
    // The socket watched again if it is another now, or its watch ended; the owner calls it
    // after its statements.
    void rearm();
    // Watched no more, for good (the loop may end), and no longer listened to.
    void stop();

  private:
    void woken();
    void unwatch();

    uv_loop_t* loop_;
    sql::Connection& db_;
    std::string channel_;
    std::function<void()> on_notified_;
    // A dup() of the connection's socket: the connection closes its own as it finds it lost,
    // and its number may be another's before this is watched again.
    std::optional<Poll> poll_;
    int watched_ = -1;
    int fd_ = -1;  // the connection's, as it was duplicated
    std::uint64_t session_ = 0;
    bool stopped_ = false;
};

}  // namespace bg::arena
