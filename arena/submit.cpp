#include "arena/submit.hpp"

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arena/admin.hpp"
#include "arena/archive.hpp"
#include "cli/log.hpp"
#include "connect/client.hpp"
#include "connect/http_request.hpp"
#include "connect/seat_url.hpp"
#include "core/text.hpp"
#include "transport/handles.hpp"

namespace bg::arena {

namespace {

constexpr std::uint64_t answer_ms = 300'000;  // to send the archive and be answered
constexpr std::size_t answer_bytes = 1u << 20;

// The arena's address and the versions' path, from the bot's page or the API's URL.
std::variant<std::pair<SeatUrl, std::string>, std::string> versions_of(std::string_view url) {
    constexpr std::string_view scheme = "http://";
    if (!url.starts_with(scheme))
        return std::string("the arena's URL is http://HOST:PORT/bots/NAME (its bot's page)");
    url.remove_prefix(scheme.size());
    const auto slash = url.find('/');
    const std::string_view authority = url.substr(0, slash);
    std::string_view path = slash == std::string_view::npos ? "" : url.substr(slash);
    for (const std::string_view prefix : {"/api/bots/", "/bots/"})
        if (path.starts_with(prefix)) {
            std::string_view name = path.substr(prefix.size());
            if (name.ends_with("/versions"))
                name.remove_suffix(std::string_view("/versions").size());
            if (name.empty() || name.find('/') != std::string_view::npos)
                break;
            auto parsed = parse_seat_url(fmt::format("ws://{}/bot", authority));
            if (auto* why = std::get_if<std::string>(&parsed))
                return *why;
            return std::pair{std::get<SeatUrl>(parsed), fmt::format("/api/bots/{}/versions", name)};
        }
    return std::string("the arena's URL is http://HOST:PORT/bots/NAME (its bot's page)");
}

// The first line of `text`, without its trailing spaces.
std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t'))
        line.pop_back();
    return line;
}

}  // namespace

int submit_command(const std::string& token_file, const std::string& url,
                   const std::string& archive_path) {
    const auto token_text = read_whole(token_file);
    const std::string token = token_text ? first_line(*token_text) : "";
    if (token.empty()) {
        log::error("{}: no token there (the bot's token, on the file's first line)",
                   escape_for_terminal(token_file));
        return exit_usage;
    }
    const auto archive = read_whole(archive_path);
    if (!archive || archive->empty()) {
        log::error("{}: no archive there (a .tar.gz of the bot's files and bananagrams.json)",
                   escape_for_terminal(archive_path));
        return exit_usage;
    }
    auto where = versions_of(url);
    if (auto* why = std::get_if<std::string>(&where)) {
        log::error("{}: {}", escape_for_terminal(url), *why);
        return exit_usage;
    }
    const auto& [address, path] = std::get<std::pair<SeatUrl, std::string>>(where);
    const bool gzipped = archive->size() > 2 && static_cast<unsigned char>((*archive)[0]) == 0x1f &&
                         static_cast<unsigned char>((*archive)[1]) == 0x8b;
    EventLoop loop;
    connect::HttpRequest::Reply reply;
    reply.error = "no answer";
    auto context = connect::ClientContext::make(loop.get());
    if (!context)
        return exit_database;
    {
        connect::HttpRequest request(
            loop.get(), *context, address, path, answer_bytes, answer_ms,
            [&](connect::HttpRequest::Reply r) {
                reply = std::move(r);
                context->close();
            },
            connect::HttpRequest::Body{gzipped ? "application/gzip" : "application/x-tar",
                                       "Bearer " + token, *archive});
        loop.run();
    }
    loop.run();
    if (reply.status == 202) {
        out.write(reply.body);
        return exit_done;
    }
    if (reply.status == 0) {
        log::error("the arena at {} could not be reached: {}", escape_for_terminal(url),
                   escape_for_terminal(reply.error));
        return exit_database;
    }
    std::string why = reply.error;
    if (const auto answer = nlohmann::json::parse(reply.body, nullptr, false);
        answer.is_object() && answer.contains("error") && answer["error"].is_string())
        why = fmt::format("HTTP {}: {}", reply.status, answer["error"].get<std::string>());
    log::error("the arena did not take the version: {}", escape_for_terminal(why));
    return exit_database;
}

}  // namespace bg::arena
