// A body gzipped once, for the clients that take it (Accept-Encoding: gzip): zlib's, never our
// own.
#pragma once

#include <string>
#include <string_view>

namespace bg::serve {

// `text` as a gzip stream (RFC 1952), or "" when zlib cannot make one (no memory).
std::string gzip(std::string_view text);

// Whether an Accept-Encoding header's value takes gzip (a q of 0 refuses it).
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace bg::serve
