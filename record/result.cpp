#include "record/result.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "core/text.hpp"
#include "record/json_value.hpp"

namespace bg {

using nlohmann::json;

json remote_json(const std::optional<RemoteUsage>& remote) {
    if (!remote)
        return nullptr;
    const auto ms = [](const std::optional<double>& value) {
        return value ? json(*value) : json(nullptr);
    };
    return {{"connections", remote->connections},
            {"pings", remote->pings},
            {"rtt_ms", ms(remote->rtt_ms)},
            {"rtt_max_ms", ms(remote->rtt_max_ms)}};
}

std::variant<std::optional<RemoteUsage>, std::string> remote_from_json(const json& object) {
    if (object.is_null())
        return std::optional<RemoteUsage>();
    const auto ms = [](const json& value) -> std::optional<std::optional<double>> {
        if (value.is_null())
            return std::optional<double>();
        if (!value.is_number() || value.get<double>() < 0)
            return std::nullopt;
        return std::optional<double>(value.get<double>());
    };
    const auto count = [&object](const char* key) {
        return object.contains(key) && object[key].is_number_integer() &&
               object[key].get<std::int64_t>() >= 0 && object[key].get<std::int64_t>() <= INT32_MAX;
    };
    if (!object.is_object() || object.size() != 4 || !count("connections") || !count("pings") ||
        !object.contains("rtt_ms") || !object.contains("rtt_max_ms"))
        return std::string("not a remote seat's usage (connections, pings, rtt_ms, rtt_max_ms)");
    const auto rtt = ms(object["rtt_ms"]);
    const auto rtt_max = ms(object["rtt_max_ms"]);
    if (!rtt || !rtt_max)
        return std::string("a remote seat's round trip is not a number of milliseconds or null");
    return std::optional<RemoteUsage>(
        RemoteUsage{object["connections"].get<int>(), object["pings"].get<int>(), *rtt, *rtt_max});
}

nlohmann::json result_json(const GameSetup& setup, const Game& game,
                           const std::vector<PlayerUsage>& usage) {
    json players = json::array();
    const std::vector<int> standings = game.standings();
    for (std::size_t i = 0; i < game.players().size(); ++i) {
        const PlayerState& p = game.players()[i];
        const bool out = p.phase == PlayerState::Phase::out;
        const bool won = game.winner() == static_cast<PlayerId>(i);
        players.push_back({{"command", bytes_to_json(setup.commands[i])},
                           {"protocol", sequenced(p.version)
                                            ? fmt::format("v{}", p.version)
                                            : fmt::format("legacy-{}", to_string(setup.dialect))},
                           {"rank", standings[i]},
                           {"outcome", won   ? "won"
                                       : out ? "disqualified"
                                             : "lost"},
                           {"reason", out ? bytes_to_json(p.reason) : json(nullptr)},
                           {"hand", p.hand.to_string()},
                           {"tiles", p.hand.total()},
                           {"grid", p.grid ? json(*p.grid) : json(nullptr)},
                           {"peels", p.peels},
                           {"dumps", p.dumps}});
        if (setup.version >= 2) {
            const PlayerUsage used = i < usage.size() ? usage[i] : PlayerUsage{};
            players.back()["cpu_ms"] =
                used.cpu_ns ? json(static_cast<double>(*used.cpu_ns) / 1e6) : json(nullptr);
            players.back()["memory_peak_bytes"] =
                used.memory_peak_bytes ? json(*used.memory_peak_bytes) : json(nullptr);
        }
        if (setup.version >= 5)
            players.back()["process_game"] = p.process_game;
        if (setup.version >= 6) {
            const PlayerUsage used = i < usage.size() ? usage[i] : PlayerUsage{};
            players.back()["remote"] = remote_json(used.remote);
        }
    }
    json result = {{"seed", setup.game.seed},
                   {"winner", game.winner() ? json(*game.winner()) : json(nullptr)},
                   {"end", game.end() ? json(to_string(*game.end())) : json(nullptr)},
                   {"peels", game.peel_number()},
                   {"bunch", game.bunch_size()},
                   {"players", players}};
    if (setup.version >= 2)
        result["host_version"] = setup.host_version;
    return result;
}

std::string result_table(const json& result) {
    std::string out = fmt::format(
        "seed {}: {}, {}\n", result["seed"].get<std::uint64_t>(),
        result["end"].is_null() ? "unfinished" : result["end"].get<std::string>(),
        result["winner"].is_null() ? "no winner"
                                   : fmt::format("player {} won", result["winner"].get<int>() + 1));
    out += fmt::format("{:>2}  {:<12} {:<9} {:>5} {:>5} {:>5} {:>7} {:>8}  {}\n", "#", "outcome",
                       "protocol", "peels", "dumps", "tiles", "cpu s", "peak MiB", "command");
    int seat = 0;
    // CPU time and peak memory, where the players' cgroups counted them.
    const auto measured = [](const json& p, const char* key, double scale, const char* format) {
        const auto it = p.find(key);
        return it == p.end() || !it->is_number()
                   ? std::string("-")
                   : fmt::format(fmt::runtime(format), it->get<double>() / scale);
    };
    for (const auto& p : result["players"]) {
        out += fmt::format("{:>2}  {:<12} {:<9} {:>5} {:>5} {:>5} {:>7} {:>8}  {}\n", ++seat,
                           p["outcome"].get<std::string>(), p["protocol"].get<std::string>(),
                           p["peels"].get<int>(), p["dumps"].get<int>(), p["tiles"].get<int>(),
                           measured(p, "cpu_ms", 1e3, "{:.3f}"),
                           measured(p, "memory_peak_bytes", 1 << 20, "{:.1f}"),
                           escape_for_terminal(bytes_from_json(p["command"]).value_or("?")));
        if (!p["reason"].is_null())
            out += fmt::format("{:>2}  {}\n", "",
                               escape_for_terminal(bytes_from_json(p["reason"]).value_or("?")));
    }
    return out;
}

}  // namespace bg
