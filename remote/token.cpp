#include "remote/token.hpp"

#include <sys/random.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include <fmt/format.h>

namespace bg::remote {

namespace {

constexpr std::string_view alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

bool token_char(char c) {
    return alphabet.find(c) != std::string_view::npos;
}

}  // namespace

bool is_remote(std::string_view command) {
    return command.starts_with(prefix);
}

std::string_view token_of(std::string_view command) {
    return command.substr(std::min(prefix.size(), command.size()));
}

std::string token_problem(std::string_view token) {
    if (token.size() < shortest_token || token.size() > longest_token)
        return fmt::format("a token is {} to {} characters, not {}", shortest_token, longest_token,
                           token.size());
    if (!std::all_of(token.begin(), token.end(), token_char))
        return "a token is made of A-Z a-z 0-9 _ - only";
    return "";
}

std::string draw_token() {
    // 64 letters: each random byte's low six bits choose one, uniformly.
    std::array<unsigned char, 32> bytes{};
    std::size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
        if (n < 0)
            throw std::runtime_error("the kernel's random source cannot be read");
        got += static_cast<std::size_t>(n);
    }
    std::string token;
    for (unsigned char b : bytes)
        token += alphabet[b & 63u];
    return token;
}

bool same_token(std::string_view offered, std::string_view token) {
    // Every byte of the longest token is looked at whatever the offer: neither where the two
    // differ nor the length of a wrong offer changes the time taken.
    unsigned difference = offered.size() == token.size() ? 0u : 1u;
    for (std::size_t i = 0; i < longest_token; ++i) {
        const unsigned a = i < offered.size() ? static_cast<unsigned char>(offered[i]) : 0u;
        const unsigned b = i < token.size() ? static_cast<unsigned char>(token[i]) : 0u;
        difference |= a ^ b;
    }
    return difference == 0 && offered.size() <= longest_token;
}

std::string shown_command(std::string_view command) {
    return is_remote(command) ? std::string(prefix) : std::string(command);
}

}  // namespace bg::remote
