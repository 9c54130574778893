// libFuzzer: a legacy player's byte stream, cut at a point the input chooses, through the reader
// and the rules. Player to host is the same in both dialects; the host's replies in each are
// encoded too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_game.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    bg::fuzz::play_stream("r" + std::string(bytes), bg::LegacyDialect::v1);
    bg::fuzz::play_stream(bytes, bg::LegacyDialect::v0);
    return 0;
}
