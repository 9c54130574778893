#include "arena/wake.hpp"

#include "cli/log.hpp"

namespace bg::arena {

Wake::Wake(uv_loop_t* loop, sql::Connection& db, std::string_view channel,
           std::function<void()> on_notified)
    : loop_(loop), db_(db), on_notified_(std::move(on_notified)) {
    try {
        db_.listen(channel);
    } catch (const std::exception& e) {
        log::warning("the store's notifications of {} cannot be listened to: {}", channel,
                     e.what());
    }
    rearm();
}

void Wake::rearm() {
    if (stopped_)
        return;
    const int fd = db_.wake_fd();
    if (poll_ && fd == fd_ && db_.session() == session_)
        return;
    // The old watch goes first: the new socket may have the old one's number.
    poll_.reset();
    fd_ = fd;
    session_ = db_.session();
    if (fd_ < 0)
        return;
    poll_.emplace(loop_, fd_, [this] {
        if (db_.notified())
            on_notified_();
        rearm();
    });
}

}  // namespace bg::arena
