// libFuzzer: the event-log reader behind --replay. Any bytes are either a log that replays, or
// refused with a reason; never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "host/replay.hpp"

namespace {

const bg::Dictionary& two_letters() {
    static const bg::Dictionary dict = [] {
        std::string text;
        for (char a = 'A'; a <= 'Z'; ++a)
            for (char b = 'A'; b <= 'Z'; ++b)
                text += std::string{a, b, '\n'};
        return bg::Dictionary::from_text(text);
    }();
    return dict;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream log(std::string(reinterpret_cast<const char*>(data), size));
    const auto result = bg::replay_log(
        log, [](const bg::Setup&) -> std::variant<const bg::Dictionary*, std::string> {
            return &two_letters();
        });
    if (const auto* error = std::get_if<std::string>(&result); error && error->empty())
        std::abort();
    return 0;
}
