#include "record/event_log.hpp"

#include <cerrno>
#include <cstring>

#include "record/event_json.hpp"
#include "record/json_value.hpp"

namespace bg {

// Records are built only when written: in a game without a log this is the hot path.
void EventLog::start(const GameSetup& setup, std::uint64_t t_ns) {
    version_ = setup.version;
    append("start", building() ? to_json(setup) : nlohmann::json(), t_ns);
}

void EventLog::input(const Input& input, std::uint64_t t_ns) {
    append("input", building() ? to_json(input, version_) : nlohmann::json(), t_ns);
}

void EventLog::decision(const Decision& decision, std::uint64_t t_ns) {
    append("decision", building() ? to_json(decision, version_) : nlohmann::json(), t_ns);
}

void EventLog::usage(PlayerId player, const PlayerUsage& usage, std::uint64_t t_ns) {
    append("usage", building() ? usage_json(player, usage, version_) : nlohmann::json(), t_ns);
}

void EventLog::result(const nlohmann::json& result, std::uint64_t t_ns) {
    append("result", result, t_ns);
}

void EventLog::note(int seat, const std::string& what, std::uint64_t t_ns) {
    append("note",
           building() ? nlohmann::json{{"player",
                                        seat < 0 ? nlohmann::json(nullptr) : nlohmann::json(seat)},
                                       {"what", bytes_to_json(what)}}
                      : nlohmann::json(),
           t_ns);
}

void EventLog::append(const char* kind, const nlohmann::json& body, std::uint64_t t_ns) {
    const std::uint64_t seq = seq_++;
    if (!building())
        return;
    const nlohmann::json record = {{"seq", seq}, {"t", t_ns}, {kind, body}};
    if (observer_)
        observer_(record);
    if (!writing())
        return;
    std::string line;
    try {
        // Every string in a record is valid UTF-8 by construction (untrusted bytes go through
        // bytes_to_json); should one not be, the log is failed, and the game with it.
        line = record.dump() + "\n";
    } catch (const nlohmann::json::exception& e) {
        return fail(std::string("a record could not be written as JSON: ") + e.what());
    }
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size())
        fail(std::strerror(errno));
}

void EventLog::flush() {
    if (file_ && !failed_ && std::fflush(file_) != 0)
        fail(std::strerror(errno));
}

void EventLog::fail(std::string error) {
    if (failed_)
        return;
    failed_ = true;
    error_ = std::move(error);
}

}  // namespace bg
