#include "core/out_code.hpp"

#include <utility>

namespace bg {

namespace {

struct Names {
    OutCode code;
    std::string_view name;
    std::string_view label;
};

constexpr Names names[] = {
    {OutCode::protocol_error, "protocol_error", "protocol error"},
    {OutCode::illegal_peel, "illegal_peel", "illegal peel"},
    {OutCode::illegal_dump, "illegal_dump", "illegal dump"},
    {OutCode::not_ready, "not_ready", "not ready in time"},
    {OutCode::could_not_start, "could_not_start", "could not start"},
    {OutCode::exited, "exited", "exited"},
    {OutCode::killed, "killed", "killed"},
    {OutCode::closed_output, "closed_output", "closed its output"},
    {OutCode::stopped_reading, "stopped_reading", "stopped reading"},
    {OutCode::flooded, "flooded", "flooded"},
    {OutCode::out_of_memory, "out_of_memory", "used too much memory"},
    {OutCode::left, "left", "left"},
    {OutCode::other, "other", "other"},
};

}  // namespace

std::string_view to_string(OutCode code) {
    for (const auto& n : names)
        if (n.code == code)
            return n.name;
    return "other";
}

std::string_view label(OutCode code) {
    for (const auto& n : names)
        if (n.code == code)
            return n.label;
    return "other";
}

std::optional<OutCode> out_code_from_string(std::string_view name) {
    for (const auto& n : names)
        if (n.name == name)
            return n.code;
    return std::nullopt;
}

OutCode out_code_of(std::string_view reason) {
    // The first words of every sentence a host before codes wrote, each with its code.
    static constexpr std::pair<std::string_view, OutCode> starts[] = {
        {"protocol error", OutCode::protocol_error},
        {"illegal peel", OutCode::illegal_peel},
        {"illegal dump", OutCode::illegal_dump},
        {"not ready", OutCode::not_ready},
        {"could not start", OutCode::could_not_start},
        {"exited", OutCode::exited},
        {"was killed", OutCode::killed},
        {"killed", OutCode::killed},
        {"closed its output", OutCode::closed_output},
        {"does not read", OutCode::stopped_reading},
        {"stopped reading", OutCode::stopped_reading},
        {"flooded", OutCode::flooded},
        {"used more than", OutCode::out_of_memory},
        {"it closed its connection", OutCode::left},
        {"its connection dropped", OutCode::left},
        {"it went away from its connection", OutCode::left},
    };
    for (const auto& [start, code] : starts)
        if (reason.starts_with(start))
            return code;
    return OutCode::other;
}

}  // namespace bg
