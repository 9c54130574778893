#include "record/setup.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "record/json_value.hpp"

namespace bg {

nlohmann::json commands_json(const std::vector<std::string>& commands) {
    auto array = nlohmann::json::array();
    for (const auto& command : commands)
        array.push_back(bytes_to_json(command));
    return array;
}

nlohmann::json to_json(const Setup& s) {
    return {{"version", log_version},
            {"seed", s.game.seed},
            {"players", commands_json(s.commands)},
            {"sets", s.game.sets},
            {"dialect", to_string(s.dialect)},
            {"dictionary", bytes_to_json(s.dictionary)},
            {"dictionary_fingerprint", fmt::format("{:016x}", s.dictionary_fingerprint)},
            {"ready_timeout_ms", s.ready_timeout_ms},
            {"game_timeout_ms", s.game_timeout_ms},
            {"kill_grace_ms", s.kill_grace_ms},
            {"sandbox", s.sandbox}};
}

std::variant<Setup, std::string> setup_from_json(const nlohmann::json& object) {
    std::string missing;
    const auto field = [&]<class T>(const char* key, T& into) {
        const auto it = object.find(key);
        std::optional<T> value;
        if (it != object.end())
            value = json_value<T>(*it);
        if (value)
            into = std::move(*value);
        else if (missing.empty())
            missing = key;
    };
    if (!object.is_object())
        return std::string("bad start record: not an object");
    int version = 0;
    field("version", version);
    if (missing.empty() && version != log_version)
        return fmt::format("log version {} is not {}", version, log_version);
    Setup s;
    std::string dialect, fingerprint;
    field("seed", s.game.seed);
    const auto bytes_field = [&](const nlohmann::json* value, const char* key, std::string& into) {
        auto bytes = value ? bytes_from_json(*value) : std::nullopt;
        if (bytes)
            into = std::move(*bytes);
        else if (missing.empty())
            missing = key;
    };
    if (const auto it = object.find("players"); it != object.end() && it->is_array()) {
        for (const auto& command : *it)
            bytes_field(&command, "players", s.commands.emplace_back());
    } else if (missing.empty()) {
        missing = "players";
    }
    field("sets", s.game.sets);
    field("dialect", dialect);
    const auto dictionary = object.find("dictionary");
    bytes_field(dictionary == object.end() ? nullptr : &*dictionary, "dictionary", s.dictionary);
    field("dictionary_fingerprint", fingerprint);
    field("ready_timeout_ms", s.ready_timeout_ms);
    field("game_timeout_ms", s.game_timeout_ms);
    field("kill_grace_ms", s.kill_grace_ms);
    if (const auto it = object.find("sandbox"); it != object.end())
        s.sandbox = *it;
    if (!missing.empty())
        return fmt::format("bad start record: \"{}\" is missing or of the wrong type", missing);
    s.game.players = static_cast<int>(s.commands.size());
    const auto parsed_dialect = legacy_dialect_from_string(dialect);
    if (!parsed_dialect)
        return fmt::format("bad start record: unknown dialect \"{}\"", dialect);
    s.dialect = *parsed_dialect;
    char* end = nullptr;
    s.dictionary_fingerprint = std::strtoull(fingerprint.c_str(), &end, 16);
    if (fingerprint.size() != 16 || end != fingerprint.c_str() + fingerprint.size())
        return std::string("bad start record: the dictionary fingerprint is not 16 hex digits");
    return s;
}

}  // namespace bg
