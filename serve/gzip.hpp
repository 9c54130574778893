// A body gzipped once, for the clients that take it (Accept-Encoding: gzip): zlib's, never our
// own.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace bg::serve {

// `text` as a gzip stream (RFC 1952), or "" when zlib cannot make one (no memory).
std::string gzip(std::string_view text);
// A gzip stream's text, or none where it is not one whole (cut, or corrupt).
std::optional<std::string> gunzip(std::string_view stream);

// Whether an Accept-Encoding header's value takes gzip (a q of 0 refuses it).
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace bg::serve
