#include "compat/legacy.hpp"

#include <fmt/format.h>

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
    failed_ = true;
    body_ = MessageBody();
    out.push_back(input::Violation{player_, std::move(reason)});
}

void LegacyReader::feed(std::string_view bytes, std::vector<Input>& out) {
    while (!bytes.empty() && !failed_) {
        const std::size_t before = bytes.size();
        std::string reason;
        if (body_.active()) {
            if (!body_.feed(bytes, offset_, player_, out, reason))
                return fail(std::move(reason), out);
        } else {
            const char c = bytes.front();
            if (c == 'r')
                out.push_back(input::Ready{player_});
            else if (c == 'd' || c == 'p')
                body_.begin(c);
            else
                return fail(fmt::format("byte {} of its output is {}, where a message (r, p or "
                                        "d) should start",
                                        offset_, quote_byte(c)),
                            out);
            bytes.remove_prefix(1);
        }
        offset_ += before - bytes.size();
    }
}

void LegacyReader::finish(std::vector<Input>& out) {
    if (failed_ || !body_.active())
        return;
    fail(fmt::format("its output ended in the middle of a message ({} bytes of it)",
                     1 + body_.buffered()),
         out);
}

std::string legacy_message(LegacyDialect dialect, std::string_view letters) {
    std::string message(letters);
    if (dialect == LegacyDialect::v1)
        message += '.';
    return message;
}

}  // namespace bg
