#include "host/event_log.hpp"

namespace bg {

void EventLog::append(const char* kind, nlohmann::json body, std::uint64_t t_ns) {
    const std::uint64_t seq = seq_++;
    if (!writing())
        return;
    const nlohmann::json record = {{"seq", seq}, {"t", t_ns}, {kind, std::move(body)}};
    const std::string line = record.dump() + "\n";
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size())
        failed_ = true;
}

void EventLog::flush() {
    if (file_ && !failed_ && std::fflush(file_) != 0)
        failed_ = true;
}

}  // namespace bg
