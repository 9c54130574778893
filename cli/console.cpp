#include "cli/console.hpp"

namespace bg {

void Console::write(std::string_view text) {
    if (failed_)
        return;
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0)
        failed_ = true;
}

}  // namespace bg
