#include "arena/core/records.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bg::arena {

std::string why_not_queued(const Bot& bot, const std::vector<Entry>& entries) {
    if (bot.state != "active")
        return bot.state;
    if (!bot.paused.empty())
        return "paused: " + bot.paused;
    if (bot.command || bot.person)
        return "";  // no conformance check: the organiser's bot, or a person
    const auto newest = std::max_element(
        entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.id < b.id; });
    if (newest == entries.end())
        return "";  // never connected: checked as it first does
    const std::string version = newest->label.empty() ? "" : " " + newest->label;
    if (!newest->check_failed.empty())
        return fmt::format("its version{} failed the conformance check: {}", version,
                           newest->check_failed);
    if (newest->checked.empty())
        return fmt::format("its version{} has not passed the conformance check yet", version);
    return "";
}

bool checked_first(const Bot& bot, const Entry& entry) {
    return !bot.person && !bot.command && (!bot.paused.empty() || entry.checked.empty());
}

bool valid_name(const std::string& name) {
    const auto letter_or_digit = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    // One of them at least: "." and ".." would be a page's path (/bots/..), not a name.
    return !name.empty() && name.size() <= 40 && std::all_of(name.begin(), name.end(), [&](char c) {
        return letter_or_digit(c) || c == '_' || c == '.' || c == '-';
    }) && std::any_of(name.begin(), name.end(), letter_or_digit);
}

const char* kind(const Bot& bot) {
    return bot.person ? "person" : bot.command ? "house" : "remote";
}

}  // namespace bg::arena
