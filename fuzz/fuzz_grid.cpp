// libFuzzer: the grid parser and the judge. A grid that parses serialises back to the same
// bytes, and is judged against its own tiles and against a fixed hand without crashing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/grid.hpp"
#include "core/judge.hpp"

namespace {

const bg::Dictionary& words() {
    static const bg::Dictionary dict =
        bg::Dictionary::from_text("hate\nher\narty\nqi\nat\nta\nza\n");
    return dict;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = bg::parse_grid(text);
    if (const auto* grid = std::get_if<bg::Grid>(&parsed)) {
        if (bg::serialise(*grid) != text)
            std::abort();
        const bg::Verdict own = bg::judge(*grid, bg::tiles_of(*grid), words());
        if (own.kind == bg::Verdict::Kind::wrong_tiles)
            std::abort();  // a grid always holds its own tiles
        bg::judge(*grid, *bg::LetterCounts::from_letters("AAEEHRTTY"), words());
    } else if (std::get<bg::GridError>(parsed).message.empty()) {
        std::abort();
    }
    return 0;
}
