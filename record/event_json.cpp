#include "record/event_json.hpp"

#include "record/json_value.hpp"

#include <fmt/format.h>

namespace bg {

using nlohmann::json;

namespace {

// A record in log version `version`: from version 8, a player's way out says its code.
struct ToJson {
    int version = log_version;
    json out(json record, OutCode code) const {
        if (version >= 8)
            record["code"] = to_string(code);
        return record;
    }

    json operator()(const input::Hello& e) const {
        return {{"type", "hello"}, {"player", e.player}, {"version", e.version}};
    }
    json operator()(const decision::Greeted& d) const {
        return {{"type", "greeted"}, {"player", d.player}, {"version", d.version}};
    }
    json operator()(const input::Ready& e) const {
        return {{"type", "ready"}, {"player", e.player}};
    }
    json operator()(const input::Peel& e) const {
        return {{"type", "peel"},
                {"player", e.player},
                {"grid", bytes_to_json(e.grid)},
                {"reflects", e.reflects ? json(*e.reflects) : json(nullptr)}};
    }
    json operator()(const input::Dump& e) const {
        return {{"type", "dump"}, {"player", e.player}, {"letter", std::string(1, e.letter)}};
    }
    json operator()(const input::Violation& e) const {
        return {{"type", "violation"}, {"player", e.player}, {"reason", bytes_to_json(e.reason)}};
    }
    json operator()(const input::Gone& e) const {
        return out({{"type", "gone"}, {"player", e.player}, {"reason", bytes_to_json(e.reason)}},
                   e.code);
    }
    json operator()(const input::ReadyTimeout&) const { return {{"type", "ready_timeout"}}; }
    json operator()(const input::GameTimeout&) const { return {{"type", "game_timeout"}}; }
    json operator()(const input::StallTimeout&) const { return {{"type", "stall_timeout"}}; }
    json operator()(const input::Abort& e) const {
        return {{"type", "abort"}, {"reason", bytes_to_json(e.reason)}};
    }

    json operator()(const decision::HandsDealt& d) const {
        return {{"type", "hands_dealt"}, {"hands", d.hands}};
    }
    json operator()(const decision::PeelAccepted& d) const {
        return {{"type", "peel_accepted"},
                {"player", d.player},
                {"number", d.number},
                {"tiles", d.tiles},
                {"bunch", d.bunch}};
    }
    json operator()(const decision::PeelStale& d) const {
        return {{"type", "peel_stale"},
                {"player", d.player},
                {"unseen", d.unseen},
                {"number", d.number},
                {"current", d.current}};
    }
    json operator()(const decision::Dumped& d) const {
        return {{"type", "dumped"},
                {"player", d.player},
                {"letter", std::string(1, d.letter)},
                {"tiles", d.tiles}};
    }
    json operator()(const decision::DumpRefused& d) const {
        return {{"type", "dump_refused"},
                {"player", d.player},
                {"letter", std::string(1, d.letter)},
                {"bunch", d.bunch}};
    }
    json operator()(const decision::Disqualified& d) const {
        return out(
            {{"type", "disqualified"}, {"player", d.player}, {"reason", bytes_to_json(d.reason)}},
            d.code);
    }
    json operator()(const decision::GameOver& d) const {
        return {{"type", "game_over"},
                {"end", to_string(d.end)},
                {"winner", d.winner ? json(*d.winner) : json(nullptr)}};
    }
};

template <class Result, class Event>
std::variant<Result, std::string> checked(JsonFields& fields, std::size_t size, Event event) {
    fields.expect_size(size);
    if (!fields.error().empty())
        return fields.error();
    return Result{std::move(event)};
}

// A way out's code: a version 8 record's own, an older one's read from its sentence (once, here).
OutCode code_of(JsonFields& fields, const std::string& reason, int version) {
    if (version < 8)
        return out_code_of(reason);
    const auto name = fields.get<std::string>("code");
    const auto code = out_code_from_string(name);
    if (!code && fields.error().empty())
        fields.fail(fmt::format("unknown code \"{}\"", name));
    return code.value_or(OutCode::other);
}

}  // namespace

json to_json(const Input& input, int version) {
    return std::visit(ToJson{version}, input);
}
json to_json(const Decision& decision, int version) {
    return std::visit(ToJson{version}, decision);
}

std::variant<Input, std::string> input_from_json(const json& object, int version) {
    if (!object.is_object())
        return std::string("not an object");
    JsonFields f(object);
    const auto type = f.get<std::string>("type");
    if (type == "hello")
        return checked<Input>(f, 3, input::Hello{f.get<int>("player"), f.get<int>("version")});
    if (type == "ready")
        return checked<Input>(f, 2, input::Ready{f.get<int>("player")});
    if (type == "peel")
        return checked<Input>(
            f, 4, input::Peel{f.get<int>("player"), f.bytes("grid"), f.optional_int("reflects")});
    if (type == "dump")
        return checked<Input>(f, 3, input::Dump{f.get<int>("player"), f.letter("letter")});
    if (type == "violation")
        return checked<Input>(f, 3, input::Violation{f.get<int>("player"), f.bytes("reason")});
    if (type == "gone") {
        const std::string reason = f.bytes("reason");
        const OutCode code = code_of(f, reason, version);
        return checked<Input>(f, version >= 8 ? 4 : 3,
                              input::Gone{f.get<int>("player"), code, reason});
    }
    if (type == "ready_timeout")
        return checked<Input>(f, 1, input::ReadyTimeout{});
    if (type == "game_timeout")
        return checked<Input>(f, 1, input::GameTimeout{});
    if (type == "stall_timeout")
        return checked<Input>(f, 1, input::StallTimeout{});
    if (type == "abort")
        return checked<Input>(f, 2, input::Abort{f.bytes("reason")});
    if (!f.error().empty())
        return f.error();
    return fmt::format("unknown input type \"{}\"", type);
}

std::variant<Decision, std::string> decision_from_json(const json& object, int version) {
    if (!object.is_object())
        return std::string("not an object");
    JsonFields f(object);
    const auto type = f.get<std::string>("type");
    if (type == "greeted")
        return checked<Decision>(f, 3,
                                 decision::Greeted{f.get<int>("player"), f.get<int>("version")});
    if (type == "hands_dealt")
        return checked<Decision>(f, 2,
                                 decision::HandsDealt{f.get<std::vector<std::string>>("hands")});
    if (type == "peel_accepted")
        return checked<Decision>(
            f, 5,
            decision::PeelAccepted{f.get<int>("player"), f.get<int>("number"),
                                   f.get<std::string>("tiles"), f.get<int>("bunch")});
    if (type == "peel_stale")
        return checked<Decision>(
            f, 5,
            decision::PeelStale{f.get<int>("player"), f.get<std::string>("unseen"),
                                f.get<int>("number"), f.get<int>("current")});
    if (type == "dumped")
        return checked<Decision>(f, 4,
                                 decision::Dumped{f.get<int>("player"), f.letter("letter"),
                                                  f.get<std::string>("tiles")});
    if (type == "dump_refused")
        return checked<Decision>(
            f, 4,
            decision::DumpRefused{f.get<int>("player"), f.letter("letter"), f.get<int>("bunch")});
    if (type == "disqualified") {
        const std::string reason = f.bytes("reason");
        const OutCode code = code_of(f, reason, version);
        return checked<Decision>(f, version >= 8 ? 4 : 3,
                                 decision::Disqualified{f.get<int>("player"), code, reason});
    }
    if (type == "game_over") {
        const auto end_text = f.get<std::string>("end");
        const auto end = end_from_string(end_text);
        const auto winner = f.optional_int("winner");
        if (f.error().empty() && !end)
            return fmt::format("unknown end \"{}\"", end_text);
        return checked<Decision>(f, 3, decision::GameOver{end.value_or(End::aborted), winner});
    }
    if (!f.error().empty())
        return f.error();
    return fmt::format("unknown decision type \"{}\"", type);
}

json usage_json(PlayerId player, const PlayerUsage& usage, int version) {
    const auto measure = [](const std::optional<std::uint64_t>& value) {
        return value ? json(*value) : json(nullptr);
    };
    json record = {{"player", player},
                   {"cpu_ns", measure(usage.cpu_ns)},
                   {"memory_peak_bytes", measure(usage.memory_peak_bytes)}};
    if (version >= 6)
        record["remote"] = remote_json(usage.remote);
    if (version >= 7) {
        record["cpu_wait_ns"] = measure(usage.cpu_wait_ns);
        record["cpu_wait_note"] =
            usage.cpu_wait_note.empty() ? json(nullptr) : json(usage.cpu_wait_note);
    }
    return record;
}

std::variant<std::pair<PlayerId, PlayerUsage>, std::string> usage_from_json(const json& object,
                                                                            int version) {
    const std::size_t keys = 3 + (version >= 6 ? 1 : 0) + (version >= 7 ? 2 : 0);
    if (!object.is_object() || object.size() != keys || !object.contains("player") ||
        !object["player"].is_number_integer())
        return fmt::format(
            "not a usage record of log version {} (player, cpu_ns, "
            "memory_peak_bytes{}{})",
            version, version >= 6 ? ", remote" : "",
            version >= 7 ? ", cpu_wait_ns, cpu_wait_note" : "");
    PlayerUsage usage;
    if (version >= 6) {
        if (!object.contains("remote"))
            return std::string("a usage record without its remote");
        auto read = remote_from_json(object["remote"]);
        if (auto* error = std::get_if<std::string>(&read))
            return *error;
        usage.remote = std::get<std::optional<LinkUsage>>(read);
    }
    std::vector<std::pair<const char*, std::optional<std::uint64_t>*>> measures = {
        {"cpu_ns", &usage.cpu_ns}, {"memory_peak_bytes", &usage.memory_peak_bytes}};
    if (version >= 7) {
        measures.emplace_back("cpu_wait_ns", &usage.cpu_wait_ns);
        const auto note = object.find("cpu_wait_note");
        if (note == object.end() || !(note->is_null() || (note->is_string() && !note->empty())))
            return std::string("a usage record's cpu_wait_note is not a text or null");
        if (note->is_string())
            usage.cpu_wait_note = note->get<std::string>();
    }
    for (const auto& [key, target] : measures) {
        const auto it = object.find(key);
        if (it == object.end() || !(it->is_null() || it->is_number_unsigned()))
            return fmt::format("a usage record's {} is not a whole number or null", key);
        if (!it->is_null())
            *target = it->get<std::uint64_t>();
    }
    if (version >= 7 && !usage.cpu_wait_ns && usage.cpu_wait_note.empty())
        return std::string("a usage record without a CPU wait says no cpu_wait_note why");
    return std::pair{object["player"].get<PlayerId>(), usage};
}

}  // namespace bg
