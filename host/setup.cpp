#include "host/setup.hpp"

#include <fmt/format.h>

namespace bg {

nlohmann::json to_json(const Setup& s) {
    return {{"version", log_version},
            {"seed", s.game.seed},
            {"players", s.commands},
            {"sets", s.game.sets},
            {"dialect", to_string(s.dialect)},
            {"dictionary", s.dictionary},
            {"dictionary_fingerprint", fmt::format("{:016x}", s.dictionary_fingerprint)},
            {"ready_timeout_ms", s.ready_timeout_ms},
            {"game_timeout_ms", s.game_timeout_ms},
            {"kill_grace_ms", s.kill_grace_ms}};
}

std::variant<Setup, std::string> setup_from_json(const nlohmann::json& object) {
    try {
        if (object.at("version").get<int>() != log_version)
            return fmt::format("log version {} is not {}", object.at("version").dump(),
                               log_version);
        Setup s;
        s.game.seed = object.at("seed").get<std::uint64_t>();
        s.commands = object.at("players").get<std::vector<std::string>>();
        s.game.players = static_cast<int>(s.commands.size());
        s.game.sets = object.at("sets").get<int>();
        const auto dialect = legacy_dialect_from_string(object.at("dialect").get<std::string>());
        if (!dialect)
            return std::string("unknown dialect");
        s.dialect = *dialect;
        s.dictionary = object.at("dictionary").get<std::string>();
        s.dictionary_fingerprint =
            std::stoull(object.at("dictionary_fingerprint").get<std::string>(), nullptr, 16);
        s.ready_timeout_ms = object.at("ready_timeout_ms").get<std::uint64_t>();
        s.game_timeout_ms = object.at("game_timeout_ms").get<std::uint64_t>();
        s.kill_grace_ms = object.at("kill_grace_ms").get<std::uint64_t>();
        return s;
    } catch (const std::exception& e) {
        return fmt::format("bad start record: {}", e.what());
    }
}

}  // namespace bg
