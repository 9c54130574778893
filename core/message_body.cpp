#include "core/message_body.hpp"

#include <fmt/format.h>

#include "core/letters.hpp"
#include "core/text.hpp"

namespace bg {

void MessageBody::begin(char command, std::optional<int> reflects) {
    command_ = command;
    reflects_ = reflects;
    grid_ = GridFramer();
}

bool MessageBody::feed(std::string_view& bytes, std::size_t offset, PlayerId player,
                       std::vector<Input>& out, std::string& reason) {
    if (command_ == 'd' || command_ == 'D') {
        const char c = bytes.front();
        if (!is_tile_letter(c)) {
            reason = fmt::format("byte {} of its output is {}: {} (dump) takes a letter A-Z",
                                 offset, quote_byte(c), command_);
            return false;
        }
        out.push_back(input::Dump{player, c});
        bytes.remove_prefix(1);
        command_ = 0;
        return true;
    }
    const auto status = grid_.feed(bytes);
    if (status == GridFramer::Status::failed) {
        reason = fmt::format("{} (peel): {}", command_, grid_.error());
        return false;
    }
    if (status == GridFramer::Status::done) {
        out.push_back(input::Peel{player, grid_.take(), reflects_});
        command_ = 0;
    }
    return true;
}

}  // namespace bg
