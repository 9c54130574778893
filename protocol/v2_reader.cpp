#include "protocol/v2_reader.hpp"

#include <utility>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg {

namespace {

constexpr std::size_t version_width = 3;

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

}  // namespace

void V2Reader::fail(std::string reason, std::vector<Input>& out) {
    state_ = State::failed;
    body_ = MessageBody();
    out.push_back(input::Violation{player_, std::move(reason)});
}

void V2Reader::feed(std::string_view bytes, std::vector<Input>& out) {
    while (!bytes.empty() && state_ != State::failed) {
        const std::size_t before = bytes.size();
        const char c = bytes.front();
        switch (state_) {
            case State::handshake:
                state_ = State::version;  // the "v" that chose this reader
                bytes.remove_prefix(1);
                break;
            case State::version:
            case State::number: {
                const bool version = state_ == State::version;
                if (!is_digit(c))
                    return fail(fmt::format("byte {} of its output is {}, where a digit of the {} "
                                            "should be",
                                            offset_, quote_byte(c),
                                            version ? "version (v + 3 digits)"
                                                    : "peel number (P + 4 digits)"),
                                out);
                digits_ += c;
                bytes.remove_prefix(1);
                if (digits_.size() < (version ? version_width : std::size_t{v2_number_width}))
                    break;
                const int value = std::stoi(std::exchange(digits_, {}));
                if (!version) {
                    body_.begin('P', value);
                    state_ = State::body;
                    break;
                }
                // A version before 2 is the rules' to refuse, in v2, with an E.
                out.push_back(input::Hello{player_, value});
                state_ = State::message_start;
                break;
            }
            case State::message_start:
                if (c == 'R') {
                    out.push_back(input::Ready{player_});
                } else if (c == 'P') {
                    state_ = State::number;
                } else if (c == 'D') {
                    body_.begin('D');
                    state_ = State::body;
                } else if (c == 'r' || c == 'p' || c == 'd') {
                    return fail(
                        fmt::format("byte {} of its output is the legacy message {} after a "
                                    "v2 handshake (v2 speaks R, P and D)",
                                    offset_, quote_byte(c)),
                        out);
                } else {
                    return fail(fmt::format("byte {} of its output is {}, where a v2 message (R, P "
                                            "or D) should start",
                                            offset_, quote_byte(c)),
                                out);
                }
                bytes.remove_prefix(1);
                break;
            case State::body: {
                std::string reason;
                if (!body_.feed(bytes, offset_, player_, out, reason))
                    return fail(std::move(reason), out);
                if (!body_.active())
                    state_ = State::message_start;
                break;
            }
            case State::failed:
                break;
        }
        offset_ += before - bytes.size();
    }
}

void V2Reader::finish(std::vector<Input>& out) {
    if (state_ == State::message_start || state_ == State::failed)
        return;
    fail("its output ended in the middle of a message", out);
}

}  // namespace bg
