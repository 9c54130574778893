// libFuzzer: the event-log reader behind --replay. Any bytes are either a log that replays, or
// refused with a reason; never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "record/replay.hpp"
#include "tests/support/staircase.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream log(std::string(reinterpret_cast<const char*>(data), size));
    const auto result = bg::replay_log(
        log, [](const bg::GameSetup&) -> std::variant<const bg::Dictionary*, std::string> {
            return &bg::two_letter_words();
        });
    if (const auto* error = std::get_if<std::string>(&result); error && error->empty())
        std::abort();
    return 0;
}
