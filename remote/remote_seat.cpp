#include "remote/remote_seat.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "remote/desk.hpp"
#include "stats/median.hpp"

namespace bg::remote {

RemoteSeat::RemoteSeat(uv_loop_t* loop, Desk& desk, std::string token, Options options)
    : desk_(desk),
      token_(std::move(token)),
      options_(options),
      grace_(loop,
             [this] {
                 leave(abandoned_
                           ? std::string("its connection closed in an earlier game of its match, "
                                         "and no connection comes back to a match's seat")
                           : fmt::format("its connection dropped and did not come back within "
                                         "{} ms",
                                         options_.grace_ms));
             }),
      pinger_(loop,
              [this] {
                  if (link_)
                      link_->ping();
                  pinger_.start(options_.ping_ms);
              }),
      finisher_(loop, [this] {
          if (events_.finished)
              events_.finished();
      }) {
    desk_.add(this);
}

RemoteSeat::~RemoteSeat() {
    desk_.remove(this);
    if (link_)
        std::exchange(link_, nullptr)->close(1001, "the host is going");
}

std::string RemoteSeat::open() {
    opened_ = true;
    desk_.opened(*this);  // a session waiting for its token takes it now
    if (desk_.abandoned(token_))
        abandon();
    return "";
}

void RemoteSeat::abandon() {
    if (connections_ > 0)
        return;  // a seat it took ends by its own drop
    abandoned_ = true;
    // From the loop: never inside open(), before its game has begun to listen.
    if (opened_ && !left_ && !closing_)
        grace_.start(0);
}

void RemoteSeat::continues() {
    desk_.continues(*this);
    if (link_)
        link_->begins(Link::Begins::kept);
}

RemoteSeat::Door RemoteSeat::door() const {
    if (closing_ || left_ || finished_ || kept_)
        return Door::closed;
    if (!opened_)
        return Door::not_yet;
    return link_ ? Door::taken : Door::open;
}

bool RemoteSeat::keep() {
    kept_ = !left_ && !closing_;
    return kept_;
}

std::uint64_t RemoteSeat::join(Link& link, std::uint64_t received) {
    link_ = &link;
    session_ = link.session();
    grace_.stop();
    const bool first = connections_++ == 0;
    link.begins(first ? Link::Begins::fresh : Link::Begins::resumed);
    // What it had not received; a client that claims more than it was sent, or anything of a
    // seat it never held, is given it all.
    const std::size_t from =
        !first && received <= sent_.size() ? static_cast<std::size_t>(received) : 0;
    note(connections_ == 1
             ? "connected"
             : fmt::format("connected again, having received {} of {} bytes", from, sent_.size()));
    if (from < sent_.size())
        link_->send(std::string_view(sent_).substr(from));
    link_->ping();
    pinger_.start(options_.ping_ms);
    return received_;
}

void RemoteSeat::receive(std::string_view bytes) {
    received_ += bytes.size();
    if (events_.output)
        events_.output(bytes);
}

void RemoteSeat::pong(double rtt_ms) {
    rtts_.push_back(rtt_ms);
}

void RemoteSeat::send(std::string bytes) {
    sent_ += bytes;
    if (link_)
        link_->send(bytes);
}

std::size_t RemoteSeat::unsent_bytes() const {
    if (link_)
        return link_->unsent_bytes();
    return sent_.size() - std::min<std::size_t>(sent_.size(), dropped_at_);
}

void RemoteSeat::drop(std::string why, bool closed) {
    if (!link_)
        return;
    // What the socket had not taken may not have reached it: the next connection says what did.
    dropped_at_ = sent_.size() - std::min(sent_.size(), link_->unsent_bytes());
    link_ = nullptr;
    pinger_.stop();
    if (closing_) {
        finish();
        return;
    }
    if (closed) {
        leave(std::move(why));
        return;
    }
    note("its connection dropped: " + why);
    grace_.start(options_.grace_ms);
}

void RemoteSeat::leave(std::string reason) {
    if (left_ || closing_)
        return;
    left_ = true;
    note("left: " + reason);
    if (events_.gone)
        events_.gone(OutCode::left, std::move(reason));
}

void RemoteSeat::close(std::uint64_t, std::uint64_t) {
    if (closing_)
        return;
    closing_ = true;
    grace_.stop();
    pinger_.stop();
    // What it was sent goes first (its end, for a v2 player), then the close frame.
    if (link_)
        std::exchange(link_, nullptr)->close(1000, "the game is over");
    finish();
}

void RemoteSeat::finish() {
    if (finished_)
        return;
    finished_ = true;
    grace_.close();
    pinger_.close();
    finisher_.start(0);
}

void RemoteSeat::note(std::string what) {
    if (events_.note)
        events_.note(std::move(what));
}

PlayerUsage RemoteSeat::usage() const {
    PlayerUsage usage;
    usage.cpu_wait_note = "a remote player: its processes are not on this machine";
    LinkUsage& used = usage.remote.emplace();
    used.connections = connections_;
    used.pings = static_cast<int>(rtts_.size());
    if (!rtts_.empty()) {
        used.rtt_ms = stats::median(rtts_);
        used.rtt_max_ms = *std::max_element(rtts_.begin(), rtts_.end());
    }
    return usage;
}

}  // namespace bg::remote
