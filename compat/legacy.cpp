#include "compat/legacy.hpp"

#include <fmt/format.h>

#include "core/grid.hpp"
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
    pending_.clear();
    pending_.shrink_to_fit();
    out.push_back(input::Violation{player_, std::move(reason)});
}

void LegacyReader::feed(std::string_view bytes, std::vector<Input>& out) {
    while (!bytes.empty() && state_ != State::failed) {
        switch (state_) {
            case State::message_start: {
                const char c = bytes.front();
                if (c == 'r') {
                    out.push_back(input::Ready{player_});
                } else if (c == 'd') {
                    state_ = State::dump_letter;
                } else if (c == 'p') {
                    state_ = State::grid_size;
                } else {
                    return fail(fmt::format("byte {} of its output is {}, where a message (r, p or "
                                            "d) should start",
                                            offset_, quote_byte(c)),
                                out);
                }
                bytes.remove_prefix(1);
                ++offset_;
                break;
            }
            case State::dump_letter: {
                const char c = bytes.front();
                if (!is_tile_letter(c))
                    return fail(fmt::format("byte {} of its output is {}: d (dump) takes a letter "
                                            "A-Z",
                                            offset_, quote_byte(c)),
                                out);
                out.push_back(input::Dump{player_, c});
                state_ = State::message_start;
                bytes.remove_prefix(1);
                ++offset_;
                break;
            }
            case State::grid_size: {
                const std::size_t take = std::min(bytes.size(), grid_header_size - pending_.size());
                pending_.append(bytes.substr(0, take));
                bytes.remove_prefix(take);
                offset_ += take;
                // Digits are checked as they come, so "p\n" fails now, not at end of stream.
                std::string header = pending_;
                header.resize(grid_header_size, '0');
                auto size = parse_grid_size(header);
                if (const auto* error = std::get_if<GridError>(&size))
                    return fail("p (peel): " + error->message, out);
                if (pending_.size() < grid_header_size)
                    break;
                cells_left_ = std::get<GridSize>(size).cells();
                pending_.reserve(grid_header_size + cells_left_);
                state_ = State::grid_cells;
                [[fallthrough]];
            }
            case State::grid_cells: {
                const std::size_t take = std::min(bytes.size(), cells_left_);
                pending_.append(bytes.substr(0, take));
                bytes.remove_prefix(take);
                offset_ += take;
                cells_left_ -= take;
                if (cells_left_ > 0)
                    break;
                out.push_back(input::Peel{player_, std::move(pending_)});
                pending_ = {};
                state_ = State::message_start;
                break;
            }
            case State::failed:
                break;
        }
    }
}

void LegacyReader::finish(std::vector<Input>& out) {
    if (state_ == State::message_start || state_ == State::failed)
        return;
    fail(fmt::format("its output ended in the middle of a message ({} bytes of it)",
                     state_ == State::dump_letter ? 1 : 1 + pending_.size()),
         out);
}

std::string legacy_message(LegacyDialect dialect, std::string_view letters) {
    std::string message(letters);
    if (dialect == LegacyDialect::v1)
        message += '.';
    return message;
}

}  // namespace bg
