#include "remote/token.hpp"

#include <openssl/evp.h>
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

std::string token_digest(std::string_view token) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(token.data(), token.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 is not available");
    static constexpr char hex[] = "0123456789abcdef";
    std::string out(2 * length, '0');
    for (unsigned int i = 0; i < length; ++i) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    return out;
}

std::string shown_command(std::string_view command) {
    return is_remote(command) ? std::string(prefix) : std::string(command);
}

}  // namespace bg::remote
