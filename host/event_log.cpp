#include "host/event_log.hpp"

namespace bg {

void EventLog::append(const char* kind, nlohmann::json body, std::uint64_t t_ns) {
    nlohmann::json record = {{"seq", seq_++}, {"t", t_ns}, {kind, std::move(body)}};
    if (!file_ || failed_)
        return;
    const std::string line = record.dump() + "\n";
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size())
        failed_ = true;
}

void EventLog::flush() {
    if (file_ && !failed_ && std::fflush(file_) != 0)
        failed_ = true;
}

}  // namespace bg
