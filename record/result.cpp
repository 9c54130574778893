#include "record/result.hpp"

#include <algorithm>
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

void RaceClock::after(const Game& game, std::uint64_t t_ns) {
    if (game.dealt() && !dealt_)
        dealt_ = t_ns;
    if (game.over() && !ended_)
        ended_ = t_ns;
}

std::optional<std::uint64_t> RaceClock::ns() const {
    if (!dealt_ || !ended_ || *ended_ < *dealt_)
        return std::nullopt;
    return *ended_ - *dealt_;
}

std::optional<bool> contended(std::optional<std::uint64_t> race_ns,
                              const std::vector<PlayerUsage>& usage) {
    if (!race_ns || usage.empty())
        return std::nullopt;
    const double bound = std::max(static_cast<double>(contended_wait_ns),
                                  contended_share * static_cast<double>(*race_ns));
    bool whole = true;
    for (const auto& used : usage) {
        if (used.cpu_wait_ns && static_cast<double>(*used.cpu_wait_ns) > bound)
            return true;
        whole = whole && used.cpu_wait_ns && used.cpu_wait_note.empty();
    }
    return whole ? std::optional(false) : std::nullopt;
}

nlohmann::json result_json(const GameSetup& setup, const Game& game,
                           const std::vector<PlayerUsage>& usage,
                           std::optional<std::uint64_t> race_ns) {
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
        if (setup.version >= 8)
            players.back()["code"] = out ? json(to_string(p.out_code)) : json(nullptr);
        if (setup.version >= 6) {
            const PlayerUsage used = i < usage.size() ? usage[i] : PlayerUsage{};
            players.back()["remote"] = remote_json(used.remote);
        }
        if (setup.version >= 7) {
            const PlayerUsage used = i < usage.size() ? usage[i] : PlayerUsage{};
            players.back()["cpu_wait_ms"] = used.cpu_wait_ns
                                                ? json(static_cast<double>(*used.cpu_wait_ns) / 1e6)
                                                : json(nullptr);
            players.back()["cpu_wait_note"] =
                used.cpu_wait_note.empty() ? json(nullptr) : json(used.cpu_wait_note);
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
    if (setup.version >= 7) {
        result["race_ms"] = race_ns ? json(static_cast<double>(*race_ns) / 1e6) : json(nullptr);
        const auto unequal = contended(race_ns, usage);
        result["contended"] = unequal ? json(*unequal) : json(nullptr);
    }
    return result;
}

std::string result_table(const json& result) {
    // A race run on unequal terms is said at once (log version 7).
    const auto contention = [&result]() -> std::string {
        const auto it = result.find("contended");
        if (it == result.end() || !it->is_boolean() || !it->get<bool>())
            return "";
        return fmt::format(" (contended: a player waited for a CPU; race {:.1f} ms)",
                           result["race_ms"].get<double>());
    };
    std::string out = fmt::format(
        "seed {}: {}, {}{}\n", result["seed"].get<std::uint64_t>(),
        result["end"].is_null() ? "unfinished" : result["end"].get<std::string>(),
        result["winner"].is_null() ? "no winner"
                                   : fmt::format("player {} won", result["winner"].get<int>() + 1),
        contention());
    out += fmt::format("{:>2}  {:<12} {:<9} {:>5} {:>5} {:>5} {:>7} {:>8} {:>8}  {}\n", "#",
                       "outcome", "protocol", "peels", "dumps", "tiles", "cpu s", "wait ms",
                       "peak MiB", "command");
    int seat = 0;
    // CPU time and peak memory, where the players' cgroups counted them.
    const auto measured = [](const json& p, const char* key, double scale, const char* format) {
        const auto it = p.find(key);
        return it == p.end() || !it->is_number()
                   ? std::string("-")
                   : fmt::format(fmt::runtime(format), it->get<double>() / scale);
    };
    for (const auto& p : result["players"]) {
        // A wait that is only a lower bound is marked ">=".
        const bool bound = p.contains("cpu_wait_note") && p["cpu_wait_note"].is_string() &&
                           p["cpu_wait_ms"].is_number();
        out += fmt::format("{:>2}  {:<12} {:<9} {:>5} {:>5} {:>5} {:>7} {:>8} {:>8}  {}\n", ++seat,
                           p["outcome"].get<std::string>(), p["protocol"].get<std::string>(),
                           p["peels"].get<int>(), p["dumps"].get<int>(), p["tiles"].get<int>(),
                           measured(p, "cpu_ms", 1e3, "{:.3f}"),
                           (bound ? ">=" : "") + measured(p, "cpu_wait_ms", 1, "{:.1f}"),
                           measured(p, "memory_peak_bytes", 1 << 20, "{:.1f}"),
                           escape_for_terminal(bytes_from_json(p["command"]).value_or("?")));
        if (!p["reason"].is_null())
            out += fmt::format("{:>2}  {}\n", "",
                               escape_for_terminal(bytes_from_json(p["reason"]).value_or("?")));
    }
    return out;
}

}  // namespace bg
