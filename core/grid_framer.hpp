// Collects a grid from a byte stream: its six-digit size says how many cells follow, so grids
// need no terminator. Shared by the legacy and v2 readers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bg {

class GridFramer {
  public:
    enum class Status { more, done, failed };

    // Consumes what it needs from the front of `bytes`. done: take() holds the grid text;
    // failed: error() says why (a size byte that is not a digit, seen as soon as it comes).
    Status feed(std::string_view& bytes);
    std::string take();
    const std::string& error() const { return error_; }
    std::size_t buffered() const { return text_.size(); }

  private:
    std::string text_;
    std::size_t cells_left_ = 0;
    bool sized_ = false;
    std::string error_;
};

}  // namespace bg
