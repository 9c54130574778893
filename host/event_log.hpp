// The event log: JSON Lines, one record per line, each with a sequence number and a monotonic
// timestamp. {"seq":0,"t":0,"start":{...}} first, then "input" and "decision" records in the
// order the host handled them, then {"result":{...}}.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace bg {

class EventLog {
  public:
    // Without a path, records are numbered but not written.
    explicit EventLog(std::FILE* file = nullptr) : file_(file) {}

    // Whether records are written: when not, callers need not build them.
    bool writing() const { return file_ != nullptr && !failed_; }
    // Writes one record, or, when not writing(), only counts it.
    void append(const char* kind, nlohmann::json body, std::uint64_t t_ns);
    // Written records reach the file before any effect of them is sent to a player.
    void flush();
    bool failed() const { return failed_; }
    // Why the log could not be written, once failed().
    const std::string& error() const { return error_; }

  private:
    void fail(std::string error);

    std::FILE* file_;
    std::uint64_t seq_ = 0;
    bool failed_ = false;
    std::string error_;
};

}  // namespace bg
