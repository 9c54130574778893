#include "serve/gzip.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>

namespace bg::serve {

std::string gzip(std::string_view text) {
    z_stream stream{};
    // 15 bits of window, and 16 more: a gzip header and trailer rather than zlib's. zlib's
    // default level: on the default word list, as small as its best (647 KB of 2.5 MB) in a
    // quarter of the time (0.12 s), which a server spends as it starts.
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK)
        return "";
    std::string out(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int done = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return done == Z_STREAM_END ? out : "";
}

std::optional<std::string> gunzip(std::string_view gzipped) {
    z_stream stream{};
    if (inflateInit2(&stream, 15 + 16) != Z_OK)
        return std::nullopt;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gzipped.data()));
    stream.avail_in = static_cast<uInt>(gzipped.size());
    std::string out;
    char chunk[64 * 1024];
    int done = Z_OK;
    while (done == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(chunk);
        stream.avail_out = sizeof chunk;
        done = inflate(&stream, Z_NO_FLUSH);
        out.append(chunk, sizeof chunk - stream.avail_out);
        if (done == Z_BUF_ERROR && stream.avail_in == 0)
            break;  // cut: no more input, and no end
    }
    inflateEnd(&stream);
    if (done != Z_STREAM_END)
        return std::nullopt;
    return out;
}

bool accepts_gzip(std::string_view accept_encoding) {
    std::string lower(accept_encoding);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string_view rest = lower;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        const auto semicolon = item.find(';');
        std::string_view coding = item.substr(0, semicolon);
        while (!coding.empty() && coding.back() == ' ')
            coding.remove_suffix(1);
        if (coding != "gzip" && coding != "*")
            continue;
        if (semicolon == std::string_view::npos)
            return true;
        std::string_view q = item.substr(semicolon + 1);
        while (!q.empty() && q.front() == ' ')
            q.remove_prefix(1);
        // q=0, q=0.0, q=0.000: refused; any other weight takes it.
        if (!q.starts_with("q=0") || q.substr(3).find_first_not_of(".0 ") != std::string_view::npos)
            return true;
        if (coding == "gzip")
            return false;
    }
    return false;
}

}  // namespace bg::serve
