#include "arena/wake.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "cli/log.hpp"

namespace bg::arena {

namespace {

// Notifications read with the statements of one wake, looked at again at most this often
// before the owner's clock: a writer notifying without end does not hold the loop.
constexpr int rounds_max = 4;

}  // namespace

Wake::Wake(uv_loop_t* loop, sql::Connection& db, std::string_view channel,
           std::function<void()> on_notified)
    : loop_(loop), db_(db), channel_(channel), on_notified_(std::move(on_notified)) {
    try {
        db_.listen(channel);
    } catch (const std::exception& e) {
        log::warning("the store's notifications of {} cannot be listened to yet: {}", channel,
                     e.what());
    }
    rearm();
}

Wake::~Wake() {
    unwatch();
}

void Wake::unwatch() {
    // The watch first: libuv lets go of the descriptor before it is closed.
    poll_.reset();
    if (watched_ >= 0)
        ::close(watched_);
    watched_ = fd_ = -1;
}

void Wake::stop() {
    if (stopped_)
        return;
    stopped_ = true;
    unwatch();
    try {
        db_.unlisten(channel_);  // else the connection keeps what comes, unread
    } catch (const std::exception&) {
        // A lost connection listens to nothing: its next session listens no more.
    }
}

void Wake::rearm() {
    if (stopped_)
        return;
    const int fd = db_.wake_fd();
    if (poll_ && poll_->active() && fd == fd_ && db_.session() == session_)
        return;
    unwatch();
    session_ = db_.session();
    if (fd < 0)
        return;
    watched_ = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (watched_ < 0)
        return;  // its owner's clock alone
    fd_ = fd;
    poll_.emplace(loop_, watched_, [this] { woken(); });
}

void Wake::woken() {
    // Its notifications, and those read with the statements they bring; but a connection found
    // lost is its owner's to make again at its next look (this one would try at every turn).
    for (int round = 0; round < rounds_max && db_.notified() && db_.wake_fd() >= 0; ++round) {
        on_notified_();
        if (stopped_)
            return;
    }
    rearm();
}

}  // namespace bg::arena
