#include "record/result.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "core/text.hpp"
#include "record/json_value.hpp"

namespace bg {

using nlohmann::json;

json remote_json(const std::optional<LinkUsage>& remote) {
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

std::variant<std::optional<LinkUsage>, std::string> remote_from_json(const json& object) {
    if (object.is_null())
        return std::optional<LinkUsage>();
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
    return std::optional<LinkUsage>(
        LinkUsage{object["connections"].get<int>(), object["pings"].get<int>(), *rtt, *rtt_max});
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

std::string_view to_string(Outcome outcome) {
    switch (outcome) {
        case Outcome::won:
            return "won";
        case Outcome::lost:
            return "lost";
        case Outcome::disqualified:
            break;
    }
    return "disqualified";
}

std::optional<Outcome> outcome_from_string(std::string_view text) {
    for (Outcome o : {Outcome::won, Outcome::lost, Outcome::disqualified})
        if (to_string(o) == text)
            return o;
    return std::nullopt;
}

namespace {

std::optional<double> ms_of(const std::optional<std::uint64_t>& ns) {
    return ns ? std::optional<double>(static_cast<double>(*ns) / 1e6) : std::nullopt;
}

}  // namespace

GameResult game_result(const GameSetup& setup, const Game& game,
                       const std::vector<PlayerUsage>& usage,
                       std::optional<std::uint64_t> race_ns) {
    GameResult result;
    result.seed = setup.game.seed;
    result.winner = game.winner();
    result.end = game.end();
    result.peels = game.peel_number();
    result.bunch = static_cast<int>(game.bunch_size());
    result.host_version = setup.host_version;
    const std::vector<int> standings = game.standings();
    for (std::size_t i = 0; i < game.players().size(); ++i) {
        const PlayerState& p = game.players()[i];
        const PlayerUsage used = i < usage.size() ? usage[i] : PlayerUsage{};
        PlayerResult& r = result.players.emplace_back();
        const bool out = p.phase == PlayerState::Phase::out;
        r.command = setup.commands[i];
        r.protocol = sequenced(p.version) ? fmt::format("v{}", p.version)
                                          : fmt::format("legacy-{}", to_string(setup.dialect));
        r.rank = standings[i];
        r.outcome = game.winner() == static_cast<PlayerId>(i) ? Outcome::won
                    : out                                     ? Outcome::disqualified
                                                              : Outcome::lost;
        if (out) {
            r.out_code = p.out_code;
            r.reason = p.reason;
        }
        r.hand = p.hand.to_string();
        r.tiles = static_cast<int>(p.hand.total());
        r.grid = p.grid;
        r.peels = p.peels;
        r.dumps = p.dumps;
        r.process_game = p.process_game;
        r.cpu_ms = ms_of(used.cpu_ns);
        r.memory_peak_bytes = used.memory_peak_bytes;
        r.remote = used.remote;
        r.cpu_wait_ms = ms_of(used.cpu_wait_ns);
        r.cpu_wait_note = used.cpu_wait_note;
    }
    result.race_ms = ms_of(race_ns);
    result.contended = contended(race_ns, usage);
    return result;
}

namespace {

json player_json(const PlayerResult& p, int version) {
    json player = {{"command", bytes_to_json(p.command)},
                   {"protocol", p.protocol},
                   {"rank", p.rank},
                   {"outcome", to_string(p.outcome)},
                   {"reason", p.out_code ? bytes_to_json(p.reason) : json(nullptr)},
                   {"hand", p.hand},
                   {"tiles", p.tiles},
                   {"grid", p.grid ? json(*p.grid) : json(nullptr)},
                   {"peels", p.peels},
                   {"dumps", p.dumps}};
    if (version >= 2) {
        player["cpu_ms"] = json_or_null(p.cpu_ms);
        player["memory_peak_bytes"] =
            p.memory_peak_bytes ? json(*p.memory_peak_bytes) : json(nullptr);
    }
    if (version >= 5)
        player["process_game"] = p.process_game;
    if (version >= 6)
        player["remote"] = remote_json(p.remote);
    if (version >= 7) {
        player["cpu_wait_ms"] = json_or_null(p.cpu_wait_ms);
        player["cpu_wait_note"] = p.cpu_wait_note.empty() ? json(nullptr) : json(p.cpu_wait_note);
    }
    if (version >= 8)
        player["code"] = p.out_code ? json(to_string(*p.out_code)) : json(nullptr);
    return player;
}

}  // namespace

json to_json(const GameResult& result, int version) {
    json players = json::array();
    for (const auto& p : result.players)
        players.push_back(player_json(p, version));
    json out = {{"seed", result.seed},
                {"winner", result.winner ? json(*result.winner) : json(nullptr)},
                {"end", result.end ? json(to_string(*result.end)) : json(nullptr)},
                {"peels", result.peels},
                {"bunch", result.bunch},
                {"players", players}};
    if (version >= 2)
        out["host_version"] = result.host_version;
    if (version >= 7) {
        out["race_ms"] = json_or_null(result.race_ms);
        out["contended"] = result.contended ? json(*result.contended) : json(nullptr);
    }
    return out;
}

namespace {

// A number or null, as `key` of `fields`' object holds it.
template <class T>
std::optional<T> maybe(JsonFields& fields, const json& object, const char* key) {
    const auto it = object.find(key);
    if (it != object.end() && it->is_null())
        return std::nullopt;
    return fields.get<T>(key);
}

std::variant<PlayerResult, std::string> player_from_json(const json& object, int version) {
    if (!object.is_object())
        return std::string("a player is not an object");
    JsonFields f(object);
    PlayerResult p;
    p.command = f.bytes("command");
    p.protocol = f.get<std::string>("protocol");
    p.rank = f.get<int>("rank");
    const auto outcome = outcome_from_string(f.get<std::string>("outcome"));
    if (!outcome)
        f.fail("an outcome that is not won, lost or disqualified");
    p.outcome = outcome.value_or(Outcome::lost);
    const bool out = object.contains("reason") && !object["reason"].is_null();
    if (out)
        p.reason = f.bytes("reason");
    else
        f.get<std::nullptr_t>("reason");
    p.hand = f.get<std::string>("hand");
    p.tiles = f.get<int>("tiles");
    p.grid = maybe<std::string>(f, object, "grid");
    p.peels = f.get<int>("peels");
    p.dumps = f.get<int>("dumps");
    std::size_t keys = 10;
    if (version >= 2) {
        p.cpu_ms = maybe<double>(f, object, "cpu_ms");
        p.memory_peak_bytes = maybe<std::uint64_t>(f, object, "memory_peak_bytes");
        keys += 2;
    }
    if (version >= 5) {
        p.process_game = f.get<int>("process_game");
        keys += 1;
    }
    if (version >= 6 && f.error().empty()) {
        auto remote =
            object.contains("remote")
                ? remote_from_json(object["remote"])
                : std::variant<std::optional<LinkUsage>, std::string>(std::string("no remote"));
        if (auto* why = std::get_if<std::string>(&remote))
            f.fail(*why);
        else
            p.remote = std::get<std::optional<LinkUsage>>(remote);
        keys += 1;
    }
    if (version >= 7) {
        p.cpu_wait_ms = maybe<double>(f, object, "cpu_wait_ms");
        p.cpu_wait_note = maybe<std::string>(f, object, "cpu_wait_note").value_or("");
        keys += 2;
    }
    if (out && version >= 8) {
        const auto code = out_code_from_string(f.get<std::string>("code"));
        if (!code)
            f.fail("an unknown code");
        p.out_code = code.value_or(OutCode::other);
    } else if (out) {
        p.out_code = out_code_of(p.reason);  // written before codes: read from its sentence
    } else if (version >= 8) {
        f.get<std::nullptr_t>("code");
    }
    keys += version >= 8 ? 1 : 0;
    f.expect_size(keys);
    if (!f.error().empty())
        return f.error();
    return p;
}

}  // namespace

std::variant<GameResult, std::string> result_from_json(const json& object, int version) {
    if (!object.is_object())
        return std::string("the result is not an object");
    JsonFields f(object);
    GameResult result;
    result.seed = f.get<std::uint64_t>("seed");
    result.winner = f.optional_int("winner");
    if (const auto end = maybe<std::string>(f, object, "end")) {
        result.end = end_from_string(*end);
        if (!result.end)
            f.fail(fmt::format("unknown end \"{}\"", *end));
    }
    result.peels = f.get<int>("peels");
    result.bunch = f.get<int>("bunch");
    std::size_t keys = 6;
    const json players = f.get<json>("players");
    if (!players.is_array())
        f.fail("\"players\" is not an array");
    for (const auto& player : players.is_array() ? players : json::array()) {
        auto read = player_from_json(player, version);
        if (auto* why = std::get_if<std::string>(&read))
            return "a player of the result: " + *why;
        result.players.push_back(std::move(std::get<PlayerResult>(read)));
    }
    if (version >= 2) {
        result.host_version = f.get<std::string>("host_version");
        keys += 1;
    }
    if (version >= 7) {
        result.race_ms = maybe<double>(f, object, "race_ms");
        result.contended = maybe<bool>(f, object, "contended");
        keys += 2;
    }
    f.expect_size(keys);
    if (!f.error().empty())
        return f.error();
    return result;
}

std::string result_table(const GameResult& result) {
    // A race run on unequal terms is said at once (log version 7).
    const std::string contention =
        result.contended.value_or(false)
            ? fmt::format(" (contended: a player waited for a CPU; race {:.1f} ms)",
                          result.race_ms.value_or(0))
            : "";
    std::string out = fmt::format(
        "seed {}: {}, {}{}\n", result.seed,
        result.end ? std::string(to_string(*result.end)) : std::string("unfinished"),
        result.winner ? fmt::format("player {} won", *result.winner + 1) : "no winner", contention);
    out += fmt::format("{:>2}  {:<12} {:<9} {:>5} {:>5} {:>5} {:>7} {:>8} {:>8}  {}\n", "#",
                       "outcome", "protocol", "peels", "dumps", "tiles", "cpu s", "wait ms",
                       "peak MiB", "command");
    // CPU time and peak memory, where the players' cgroups counted them.
    const auto measured = [](const std::optional<double>& value, double scale, const char* format) {
        return value ? fmt::format(fmt::runtime(format), *value / scale) : std::string("-");
    };
    int seat = 0;
    for (const auto& p : result.players) {
        // A wait that is only a lower bound is marked ">=".
        const bool bound = !p.cpu_wait_note.empty() && p.cpu_wait_ms;
        const std::optional<double> peak =
            p.memory_peak_bytes ? std::optional(static_cast<double>(*p.memory_peak_bytes))
                                : std::nullopt;
        out += fmt::format("{:>2}  {:<12} {:<9} {:>5} {:>5} {:>5} {:>7} {:>8} {:>8}  {}\n", ++seat,
                           to_string(p.outcome), p.protocol, p.peels, p.dumps, p.tiles,
                           measured(p.cpu_ms, 1e3, "{:.3f}"),
                           (bound ? ">=" : "") + measured(p.cpu_wait_ms, 1, "{:.1f}"),
                           measured(peak, 1 << 20, "{:.1f}"), escape_for_terminal(p.command));
        if (p.out_code)
            out += fmt::format("{:>2}  {}\n", "", escape_for_terminal(p.reason));
    }
    return out;
}

}  // namespace bg
