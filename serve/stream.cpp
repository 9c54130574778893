#include "serve/stream.hpp"

#include <chrono>

#include <fmt/format.h>

namespace bg::serve {

std::string wire(const Event& event) {
    return fmt::format("id: {}\nevent: {}\ndata: {}\n\n", event.id, event.name, event.data);
}

std::uint64_t first_id_now() {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<std::uint64_t>(
               std::chrono::duration_cast<std::chrono::milliseconds>(now).count()) *
           1000;
}

Stream::Stream(std::uint64_t first_id, std::size_t history_bytes)
    : first_id_(first_id),
      next_id_(first_id),
      dropped_to_(first_id - 1),
      history_bytes_(history_bytes) {}

const Event& Stream::publish(std::string name, std::string data) {
    keep(Event{next_id_, std::move(name), std::move(data)});
    return kept_.back();
}

const Event* Stream::publish_as(Event event, bool after_gap) {
    if (event.id < next_id_)
        return nullptr;
    if (after_gap)
        dropped_to_ = event.id - 1;
    keep(std::move(event));
    return &kept_.back();
}

void Stream::keep(Event event) {
    next_id_ = event.id + 1;
    kept_.push_back(std::move(event));
    kept_bytes_ += kept_.back().data.size();
    // The newest is always kept, whatever its size: a client can be sent it.
    while (kept_bytes_ > history_bytes_ && kept_.size() > 1) {
        kept_bytes_ -= kept_.front().data.size();
        dropped_to_ = std::max(dropped_to_, kept_.front().id);
        kept_.pop_front();
    }
}

std::optional<std::vector<const Event*>> Stream::since(std::uint64_t last_seen) const {
    // Ids below the first (another stream's) or past the newest (not this stream's) are not
    // ours to resume from; nor one before an event no longer kept.
    if (last_seen + 1 < first_id_ || last_seen > last_id() || last_seen < dropped_to_)
        return std::nullopt;
    // Where ids skip, only one this stream gave: a kept event's, or the one before it (a
    // snapshot's, sent before that event), or the bounds.
    if (last_seen != dropped_to_ && last_seen != last_id()) {
        const auto next =
            std::lower_bound(kept_.begin(), kept_.end(), last_seen,
                             [](const Event& event, std::uint64_t id) { return event.id < id; });
        if (next == kept_.end() || (next->id != last_seen && next->id != last_seen + 1))
            return std::nullopt;
    }
    std::vector<const Event*> missed;
    for (const Event& event : kept_)
        if (event.id > last_seen)
            missed.push_back(&event);
    return missed;
}

bool SendQueue::push(std::string_view text) {
    if (text.size() > limit_ - size())
        return false;
    // What was sent is dropped from the front once it is most of the buffer.
    if (start_ > 0 && start_ >= buffer_.size() / 2) {
        buffer_.erase(0, start_);
        start_ = 0;
    }
    buffer_.append(text);
    return true;
}

std::string_view SendQueue::front(std::size_t most) const {
    return std::string_view(buffer_).substr(start_, most);
}

void SendQueue::sent(std::size_t bytes) {
    start_ += std::min(bytes, size());
    if (start_ == buffer_.size()) {
        buffer_.clear();
        start_ = 0;
    }
}

bool MessageQueue::push_text(std::string_view bytes) {
    if (bytes.size() > limit_ - size_)
        return false;
    if (bytes.empty())
        return true;
    if (!parts_.empty() && parts_.back().kind == Part::text) {
        Part& back = parts_.back();
        // Alone, it is being sent: what was sent is dropped once it is most of it.
        if (parts_.size() == 1 && start_ > 0 && start_ >= back.bytes.size() / 2) {
            back.bytes.erase(0, start_);
            start_ = 0;
        }
        back.bytes.append(bytes);
    } else {
        parts_.push_back({Part::text, std::string(bytes)});
    }
    size_ += bytes.size();
    return true;
}

bool MessageQueue::push_binary(std::string_view message) {
    if (message.size() > limit_ - size_)
        return false;
    parts_.push_back({Part::binary, std::string(message)});
    size_ += message.size();
    return true;
}

void MessageQueue::push_fence() {
    parts_.push_back({Part::fence, {}});
}

MessageQueue::Front MessageQueue::front(std::size_t most) const {
    if (parts_.empty())
        return {};
    const Part& part = parts_.front();
    if (part.kind == Part::fence)
        return {{}, false, true};
    if (part.kind == Part::binary)
        return {part.bytes, true};
    return {std::string_view(part.bytes).substr(start_, most), false};
}

void MessageQueue::sent(std::size_t bytes) {
    if (parts_.empty())
        return;
    const std::size_t left = parts_.front().bytes.size() - start_;
    bytes = std::min(bytes, left);
    start_ += bytes;
    size_ -= bytes;
    if (bytes == left) {
        parts_.pop_front();
        start_ = 0;
    }
}

}  // namespace bg::serve
