// libFuzzer: a v2 player's byte stream (after its handshake) through the reader and the rules.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_game.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    bg::fuzz::play_stream("v002" + std::string(reinterpret_cast<const char*>(data), size),
                          bg::LegacyDialect::v1);
    return 0;
}
