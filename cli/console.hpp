// The host's own output (the result on stdout, live lines on stderr). A closed pipe, a full
// disk or /dev/full must not stop a game or lose its log: a write that fails is remembered,
// nothing more is tried on that stream, and the exit status says so. Never throws.
#pragma once

#include <cstdio>
#include <string_view>

namespace bg {

class Console {
  public:
    explicit Console(std::FILE* file) : file_(file) {}

    void write(std::string_view text);
    bool failed() const { return failed_; }
    // It was closed before the host began: nothing written there can arrive.
    void mark_failed() { failed_ = true; }

  private:
    std::FILE* file_;
    bool failed_ = false;
};

}  // namespace bg
