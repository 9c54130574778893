#include "tournament/spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "cli/options.hpp"
#include "core/text.hpp"
#include "match/venue.hpp"
#include "record/json_value.hpp"
#include "remote/token.hpp"

namespace bg::tournament {

using nlohmann::json;

ScheduleOptions TournamentSpec::schedule_options() const {
    return {static_cast<int>(bots.size()), players, format, deals, seed};
}

std::string_view to_string(Format format) {
    return format == Format::gauntlet ? "gauntlet" : "round-robin";
}

std::optional<Format> format_from_string(std::string_view text) {
    if (text == "round-robin")
        return Format::round_robin;
    if (text == "gauntlet")
        return Format::gauntlet;
    return std::nullopt;
}

std::variant<Bot, std::string> parse_bot(const std::string& text) {
    const auto equals = text.find('=');
    if (equals == std::string::npos)
        return fmt::format("--bot takes NAME=CMD, not '{}'", escape_for_terminal(text));
    Bot bot{text.substr(0, equals), text.substr(equals + 1)};
    const bool printable =
        std::all_of(bot.name.begin(), bot.name.end(), [](char c) { return c > ' ' && c < 127; });
    if (bot.name.empty() || bot.name.size() > 40 || !printable)
        return fmt::format("a bot's name is 1 to 40 printable characters without spaces, not '{}'",
                           escape_for_terminal(bot.name));
    if (bot.command.find_first_not_of(" \t") == std::string::npos)
        return fmt::format("bot {} has no command", bot.name);
    // A remote bot (docs/remote.md): its token chosen here, for its author to connect with.
    if (remote::is_remote(bot.command))
        if (auto why = remote::token_problem(remote::token_of(bot.command)); !why.empty())
            return fmt::format("bot {} (remote:...): {}", bot.name, why);
    return bot;
}

std::variant<stats::Sprt, std::string> parse_sprt(const std::vector<std::string>& words) {
    stats::Sprt sprt;
    std::set<std::string> seen;
    for (const auto& word : words) {
        const auto equals = word.find('=');
        const std::string key = word.substr(0, equals);
        double* target = key == "elo0"    ? &sprt.elo0
                         : key == "elo1"  ? &sprt.elo1
                         : key == "alpha" ? &sprt.alpha
                         : key == "beta"  ? &sprt.beta
                                          : nullptr;
        if (equals == std::string::npos || !target)
            return fmt::format("--sprt takes elo0=E0 elo1=E1 [alpha=A] [beta=B], not '{}'",
                               escape_for_terminal(word));
        const std::string value = word.substr(equals + 1);
        const auto number = parse_number<double>(value);
        if (!number || !std::isfinite(*number))
            return fmt::format("--sprt {} must be a number, not '{}'", key,
                               escape_for_terminal(value));
        *target = *number;
        seen.insert(key);
    }
    if (!seen.count("elo0") || !seen.count("elo1"))
        return std::string("--sprt needs elo0=E0 and elo1=E1");
    if (!(sprt.elo1 > sprt.elo0))
        return std::string("--sprt needs elo1 larger than elo0");
    if (std::abs(sprt.elo0) >= 1000 || std::abs(sprt.elo1) >= 1000)
        return std::string("--sprt's Elo bounds must lie within (-1000, 1000)");
    for (double p : {sprt.alpha, sprt.beta})
        if (!(p > 0 && p < 0.5))
            return std::string("--sprt's alpha and beta must lie within (0, 0.5)");
    return sprt;
}

std::optional<std::string> check(const TournamentSpec& spec) {
    std::set<std::string> names;
    std::set<std::string_view> tokens;
    for (const auto& bot : spec.bots) {
        if (!names.insert(bot.name).second)
            return fmt::format("two bots are named {}: each name once", bot.name);
        if (remote::is_remote(bot.command) && !tokens.insert(remote::token_of(bot.command)).second)
            return fmt::format(
                "bot {} (remote:...): another remote bot has the same token; each "
                "needs its own",
                bot.name);
    }
    if (spec.bots.size() < 2)
        return std::string("a tournament needs at least two bots (--bot NAME=CMD, again)");
    if (auto made = tables(spec.schedule_options()); auto* error = std::get_if<std::string>(&made))
        return *error;
    if (spec.sprt && spec.shard && spec.shard->count > 1)
        return std::string("--sprt decides on game pairs as they finish: play it unsharded");
    if (spec.sprt && (spec.bots.size() != 2 || spec.players != 2))
        return std::string(
            "--sprt compares two bots in two-player games: give exactly two --bot "
            "and --players 2");
    return std::nullopt;
}

json to_json(const TournamentSpec& s) {
    json bots = json::array();
    for (const auto& bot : s.bots)
        bots.push_back({{"name", bot.name}, {"command", bytes_to_json(bot.command)}});
    return {{"bots", bots},
            {"players", s.players},
            {"format", to_string(s.format)},
            {"deals", s.deals},
            {"seed", s.seed},
            {"dictionary", bytes_to_json(s.game.dictionary)},
            {"dictionary_fingerprint", fmt::format("{:016x}", s.game.dictionary_fingerprint)},
            {"dictionary_name", bytes_to_json(s.game.dictionary_name)},
            {"sets", s.game.game.sets},
            {"dialect", to_string(s.game.dialect)},
            {"ready_timeout_ms", s.game.ready_timeout_ms},
            {"game_timeout_ms", s.game.game_timeout_ms},
            {"stall_timeout_ms", s.game.stall_timeout_ms},
            {"kill_grace_ms", s.game.kill_grace_ms},
            {"sandboxed", s.sandboxed},
            {"sandbox", sandbox_json(s.sandbox)},
            {"shares", {{"cgroups", s.shares.cgroups}, {"cpus_per_game", s.shares.cpus_per_game}}},
            {"logs", bytes_to_json(s.logs)},
            {"shard", s.shard ? json::object({{"index", s.shard->index}, {"count", s.shard->count}})
                              : json(nullptr)},
            {"sprt", s.sprt ? json::object({{"elo0", s.sprt->elo0},
                                            {"elo1", s.sprt->elo1},
                                            {"alpha", s.sprt->alpha},
                                            {"beta", s.sprt->beta}})
                            : json(nullptr)}};
}

std::variant<TournamentSpec, std::string> spec_from_json(const json& object) {
    if (!object.is_object())
        return std::string("the tournament's options are not a JSON object");
    TournamentSpec s;
    JsonFields f(object);
    for (const auto& bot : f.get<std::vector<json>>("bots")) {
        if (!bot.is_object())
            return std::string("a bot is not a JSON object");
        JsonFields b(bot);
        s.bots.push_back({b.get<std::string>("name"), b.bytes("command")});
        if (!b.error().empty())
            return "a bot: " + b.error();
    }
    s.players = f.get<int>("players");
    const auto format = format_from_string(f.get<std::string>("format"));
    s.deals = f.get<int>("deals");
    s.seed = f.get<std::uint64_t>("seed");
    s.game.dictionary = f.bytes("dictionary");
    const auto fingerprint = f.get<std::string>("dictionary_fingerprint");
    // Since 1.1 (a database made before does not name its word list: "" here).
    if (object.contains("dictionary_name"))
        s.game.dictionary_name = f.bytes("dictionary_name");
    s.game.game.sets = f.get<int>("sets");
    const auto dialect = legacy_dialect_from_string(f.get<std::string>("dialect"));
    s.game.ready_timeout_ms = f.get<std::uint64_t>("ready_timeout_ms");
    s.game.game_timeout_ms = f.get<std::uint64_t>("game_timeout_ms");
    // Since 1.2: a tournament begun before has no stall timeout, and resumes without one.
    s.game.stall_timeout_ms =
        object.contains("stall_timeout_ms") ? f.get<std::uint64_t>("stall_timeout_ms") : 0;
    s.game.kill_grace_ms = f.get<std::uint64_t>("kill_grace_ms");
    s.sandboxed = f.get<bool>("sandboxed");
    const auto sandbox = f.get<json>("sandbox");
    s.logs = f.bytes("logs");
    const auto sprt = f.get<json>("sprt");
    const auto shard = f.get<json>("shard");
    if (!f.error().empty())
        return "the tournament's options: " + f.error();
    if (!format || !dialect)
        return std::string("the tournament's options: an unknown format or dialect");
    s.format = *format;
    s.game.dialect = *dialect;
    const auto [end, error] =
        std::from_chars(fingerprint.data(), fingerprint.data() + fingerprint.size(),
                        s.game.dictionary_fingerprint, 16);
    if (error != std::errc() || end != fingerprint.data() + fingerprint.size())
        return std::string("the tournament's options: a bad dictionary fingerprint");
    JsonFields x(sandbox);
    auto& limits = s.sandbox.limits;
    s.sandbox.user = x.bytes("user");
    s.sandbox.pass_env = x.get<std::vector<std::string>>("env");
    limits.memory_mib = x.get<std::uint64_t>("memory_mib");
    limits.cpu_seconds = x.get<std::uint64_t>("cpu_seconds");
    limits.processes = x.get<std::uint64_t>("processes");
    limits.open_files = x.get<std::uint64_t>("open_files");
    limits.file_size_mib = x.get<std::uint64_t>("file_size_mib");
    limits.tmp_mib = x.get<std::uint64_t>("tmp_mib");
    if (!x.error().empty())
        return "the tournament's sandbox: " + x.error();
    s.shares = {false, 0};
    if (const auto it = object.find("shares"); it != object.end()) {
        JsonFields h(*it);
        s.shares = {h.get<bool>("cgroups"), h.get<int>("cpus_per_game")};
        if (!h.error().empty() || s.shares.cpus_per_game < 0 ||
            (s.shares.cpus_per_game > 0 && !s.shares.cgroups))
            return "the tournament's shares: " +
                   (h.error().empty() ? std::string("not one") : h.error());
    }
    limits.per_process_only = !s.shares.cgroups;
    if (!sprt.is_null()) {
        JsonFields p(sprt);
        s.sprt = stats::Sprt{p.get<double>("elo0"), p.get<double>("elo1"), p.get<double>("alpha"),
                             p.get<double>("beta")};
        if (!p.error().empty())
            return "the tournament's SPRT: " + p.error();
    }
    if (!shard.is_null()) {
        JsonFields h(shard);
        s.shard = TournamentSpec::Shard{h.get<int>("index"), h.get<int>("count")};
        if (!h.error().empty() || s.shard->count < 1 || s.shard->index < 0 ||
            s.shard->index >= s.shard->count)
            return std::string("the tournament's shard is not one");
    }
    if (auto why = check(s))
        return "the tournament's options: " + *why;
    return s;
}

std::variant<TournamentSpec::Shard, std::string> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    const auto index = parse_number<int>(std::string_view(text).substr(0, slash));
    const auto count = slash == std::string::npos
                           ? std::nullopt
                           : parse_number<int>(std::string_view(text).substr(slash + 1));
    if (!index || !count || *count < 1 || *count > 100'000 || *index < 0 || *index >= *count)
        return fmt::format("--shard takes I/N with 0 <= I < N <= 100000 (shard I of N), not '{}'",
                           escape_for_terminal(text));
    return TournamentSpec::Shard{*index, *count};
}

std::optional<std::string> difference(const TournamentSpec& a, const TournamentSpec& b) {
    json x = to_json(a), y = to_json(b);
    for (auto* j : {&x, &y}) {
        j->erase("shard");
        j->erase("logs");
    }
    for (const auto& [key, value] : x.items())
        if (!y.contains(key) || y[key] != value)
            return fmt::format("{} is {} in one and {} in the other", key,
                               escape_for_terminal(value.dump()),
                               escape_for_terminal(y.contains(key) ? y[key].dump() : "nothing"));
    return std::nullopt;
}

}  // namespace bg::tournament
