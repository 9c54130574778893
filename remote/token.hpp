// A remote seat's token: the secret that lets one connection take it (docs/remote.md). A player
// given as `remote:TOKEN` waits for a connection with TOKEN; `remote:` alone for one the host
// draws. A token is 16 to 64 of A-Z a-z 0-9 _ -; it is looked up by its digest (never compared
// with the tokens known) and never written to a log, a result or a page.
#pragma once

#include <string>
#include <string_view>

namespace bg::remote {

inline constexpr std::string_view prefix = "remote:";
inline constexpr std::size_t shortest_token = 16;
inline constexpr std::size_t longest_token = 64;

// Whether a player's command is a remote seat (`remote:...`), not a command to run.
bool is_remote(std::string_view command);
// The token of a remote seat's command: "" for one the host is to draw.
std::string_view token_of(std::string_view command);
// Why `token` cannot be one, or "" when it can.
std::string token_problem(std::string_view token);
// A fresh token: 32 characters from the kernel's random source (getrandom).
std::string draw_token();
// Its SHA-256, in hex: how a token is looked up and kept (an arena's database keeps this, never the
// token). What is compared in a lookup is then a digest, and a wrong token's digest says nothing
// of a right one's token, however long its comparison takes.
std::string token_digest(std::string_view token);
// The token an Authorization header carries (`Bearer TOKEN`), or "" for any other header.
inline std::string_view bearer_token(std::string_view authorization) {
    constexpr std::string_view scheme = "Bearer ";
    return authorization.starts_with(scheme) ? authorization.substr(scheme.size())
                                             : std::string_view{};
}
// The command as a log, a result or a page shows it: "remote:", its token withheld.
std::string shown_command(std::string_view command);

}  // namespace bg::remote
