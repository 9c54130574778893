#include "compat/legacy.hpp"

#include <fmt/format.h>

#include "core/letters.hpp"
#include "core/text.hpp"

namespace bg {

std::string_view to_string(LegacyDialect dialect) {
    return dialect == LegacyDialect::v0 ? "v0" : "v1";
}

std::optional<LegacyDialect> legacy_dialect_from_string(std::string_view text) {
    if (text == "v0")
        return LegacyDialect::v0;
    if (text == "v1")
        return LegacyDialect::v1;
    return std::nullopt;
}

void LegacyReader::fail(std::string reason, std::vector<Input>& out) {
    state_ = State::failed;
    grid_ = GridFramer();
    out.push_back(input::Violation{player_, std::move(reason)});
}

void LegacyReader::feed(std::string_view bytes, std::vector<Input>& out) {
    while (!bytes.empty() && state_ != State::failed) {
        const std::size_t before = bytes.size();
        switch (state_) {
            case State::message_start: {
                const char c = bytes.front();
                if (c == 'r')
                    out.push_back(input::Ready{player_});
                else if (c == 'd')
                    state_ = State::dump_letter;
                else if (c == 'p')
                    state_ = State::grid;
                else
                    return fail(fmt::format("byte {} of its output is {}, where a message (r, p "
                                            "or d) should start",
                                            offset_, quote_byte(c)),
                                out);
                bytes.remove_prefix(1);
                break;
            }
            case State::dump_letter: {
                const char c = bytes.front();
                if (!is_tile_letter(c))
                    return fail(fmt::format("byte {} of its output is {}: d (dump) takes a "
                                            "letter A-Z",
                                            offset_, quote_byte(c)),
                                out);
                out.push_back(input::Dump{player_, c});
                state_ = State::message_start;
                bytes.remove_prefix(1);
                break;
            }
            case State::grid: {
                const auto status = grid_.feed(bytes);
                if (status == GridFramer::Status::failed)
                    return fail("p (peel): " + grid_.error(), out);
                if (status == GridFramer::Status::done) {
                    out.push_back(input::Peel{player_, grid_.take(), std::nullopt});
                    state_ = State::message_start;
                }
                break;
            }
            case State::failed:
                break;
        }
        offset_ += before - bytes.size();
    }
}

void LegacyReader::finish(std::vector<Input>& out) {
    if (state_ == State::message_start || state_ == State::failed)
        return;
    fail(fmt::format("its output ended in the middle of a message ({} bytes of it)",
                     1 + grid_.buffered()),
         out);
}

std::string legacy_message(LegacyDialect dialect, std::string_view letters) {
    std::string message(letters);
    if (dialect == LegacyDialect::v1)
        message += '.';
    return message;
}

}  // namespace bg
