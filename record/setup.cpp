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

nlohmann::json to_json(const GameSetup& s) {
    nlohmann::json start = {
        {"version", s.version},
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
    if (s.version >= 2) {
        start["shares"] = s.shares;
        start["host_version"] = s.host_version;
        start["newest_protocol"] = s.game.newest_protocol;
    }
    if (s.version >= 3)
        start["dictionary_name"] = bytes_to_json(s.dictionary_name);
    if (s.version >= 4)
        start["stall_timeout_ms"] = s.stall_timeout_ms;
    if (s.version >= 5) {
        auto continuing = nlohmann::json::array();
        for (std::size_t i = 0; i < s.commands.size(); ++i) {
            const auto* c = i < s.game.continuing.size() && s.game.continuing[i]
                                ? &*s.game.continuing[i]
                                : nullptr;
            continuing.push_back(
                c ? nlohmann::json{{"version", c->version}, {"process_game", c->process_game}}
                  : nlohmann::json(nullptr));
        }
        start["continuing"] = std::move(continuing);
    }
    return start;
}

std::variant<GameSetup, std::string> setup_from_json(const nlohmann::json& object) {
    if (!object.is_object())
        return std::string("bad start record: not an object");
    JsonFields f(object);
    const int version = f.get<int>("version");
    if (f.error().empty() && (version < oldest_log_version || version > log_version))
        return fmt::format("log version {} is not one this host reads ({} to {})", version,
                           oldest_log_version, log_version);
    GameSetup s;
    s.version = version;
    s.game.seed = f.get<std::uint64_t>("seed");
    const auto players = f.get<std::vector<nlohmann::json>>("players");
    for (const auto& command : players) {
        auto bytes = bytes_from_json(command);
        if (!bytes) {
            return std::string("bad start record: a player's command is not a string of bytes");
        }
        s.commands.push_back(std::move(*bytes));
    }
    s.game.sets = f.get<int>("sets");
    const auto dialect = f.get<std::string>("dialect");
    s.dictionary = f.bytes("dictionary");
    const auto fingerprint = f.get<std::string>("dictionary_fingerprint");
    s.ready_timeout_ms = f.get<std::uint64_t>("ready_timeout_ms");
    s.game_timeout_ms = f.get<std::uint64_t>("game_timeout_ms");
    s.kill_grace_ms = f.get<std::uint64_t>("kill_grace_ms");
    if (const auto it = object.find("sandbox"); it != object.end())
        s.sandbox = *it;
    if (const auto it = object.find("shares"); it != object.end())
        s.shares = *it;
    s.host_version = version >= 2 ? f.get<std::string>("host_version") : std::string();
    // A version 1 log's host spoke v002 at most: a later handshake was answered in it.
    s.game.newest_protocol = version >= 2 ? f.get<int>("newest_protocol") : protocol_v2;
    if (version >= 3)
        s.dictionary_name = f.bytes("dictionary_name");
    // An older host named bytes in reasons by their code alone.
    s.game.byte_names = version >= 8 ? ByteNames::words : ByteNames::codes;
    // An older host had no stall timeout.
    s.stall_timeout_ms = version >= 4 ? f.get<std::uint64_t>("stall_timeout_ms") : 0;
    // An older host started every player for its game.
    const auto continuing = version >= 5 ? f.get<std::vector<nlohmann::json>>("continuing")
                                         : std::vector<nlohmann::json>{};
    if (!f.error().empty())
        return "bad start record: " + f.error();
    if (version >= 5 && continuing.size() != s.commands.size())
        return std::string("bad start record: `continuing` does not say one thing a player");
    for (const auto& player : continuing) {
        if (player.is_null()) {
            s.game.continuing.emplace_back();
            continue;
        }
        if (!player.is_object())
            return std::string("bad start record: a continuing player is not an object");
        JsonFields c(player);
        const Continuing read{c.get<int>("version"), c.get<int>("process_game")};
        if (!c.error().empty())
            return "bad start record: a continuing player: " + c.error();
        s.game.continuing.emplace_back(read);
    }
    if (s.game.newest_protocol < protocol_v2 || s.game.newest_protocol > protocol_newest)
        return fmt::format(
            "the log's host spoke protocol versions up to v{:03}; this host knows "
            "v{:03} to v{:03}",
            s.game.newest_protocol, protocol_v2, protocol_newest);
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
