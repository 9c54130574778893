#include "protocol/player_reader.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg {

void PlayerReader::feed(std::string_view bytes, std::vector<Input>& out) {
    if (bytes.empty() || failed_)
        return;
    if (std::holds_alternative<std::monostate>(reader_)) {
        if (bytes.front() == 'v') {
            reader_.emplace<V2Reader>(player_);
        } else if (bytes.front() == 'r') {
            reader_.emplace<LegacyReader>(player_);
        } else {
            failed_ = true;
            const char first = bytes.front();
            // R, P or D first: a v2 message before the handshake that must come first.
            const bool v2_message = first == 'R' || first == 'P' || first == 'D';
            out.push_back(input::Violation{
                player_, fmt::format("byte 0 of its output is {}, where r (legacy ready) or v (v2 "
                                     "handshake) should start{}",
                                     quote_byte(first),
                                     v2_message ? ": a v2 player sends v002 before anything "
                                                  "else (v002R when ready at once)"
                                                : "")});
            return;
        }
    }
    std::visit(
        [&](auto& reader) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(reader)>, std::monostate>)
                reader.feed(bytes, out);
        },
        reader_);
}

void PlayerReader::finish(std::vector<Input>& out) {
    std::visit(
        [&](auto& reader) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(reader)>, std::monostate>)
                reader.finish(out);
        },
        reader_);
}

bool PlayerReader::failed() const {
    return failed_ ||
           std::visit(
               [](const auto& reader) {
                   if constexpr (std::is_same_v<std::decay_t<decltype(reader)>, std::monostate>)
                       return false;
                   else
                       return reader.failed();
               },
               reader_);
}

}  // namespace bg
