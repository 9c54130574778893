#include "cli/options.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"
#include "record/json_value.hpp"

namespace bg::options {

std::uint64_t count(const po::variables_map& vm, const char* name, std::uint64_t min,
                    std::uint64_t max) {
    const auto& text = vm[name].as<std::string>();
    const auto value = parse_number<std::uint64_t>(text);
    if (!value || *value < min || *value > max)
        throw po::error(fmt::format("--{} must be a whole number from {} to {}, not '{}'", name,
                                    min, max, escape_for_terminal(text)));
    return *value;
}

std::uint64_t milliseconds(const po::variables_map& vm, const char* name, bool zero_is_none) {
    const double value = vm[name].as<double>();
    if (zero_is_none && value == 0)
        return 0;
    if (!(value >= 0.001) || value > 1e6)
        throw po::error(fmt::format("--{} must be between 0.001 and 1000000 seconds{}", name,
                                    zero_is_none ? " (or 0 for none)" : ""));
    return static_cast<std::uint64_t>(value * 1000);
}

void add_game(po::options_description& options) {
    // Every default is the one written in record/setup.hpp.
    const GameSetup defaults;
    const auto seconds = [](std::uint64_t ms) { return static_cast<double>(ms) / 1000; };
    // clang-format off
    options.add_options()
        ("dict", po::value<std::string>()->value_name("FILE"),
         "word list file: one word a line, any case; lines that are not all letters are skipped "
         "(default: the built-in list, scowl-80: 242,788 words from SCOWL); every player reads "
         "the game's list at the path in its environment's BANANAGRAMS_WORDLIST")
        ("sets", po::value<int>()->value_name("N")->default_value(defaults.game.sets),
         "full 144-tile sets in the bunch; games of more than 8 players use more on their own")
        ("ready-timeout", po::value<double>()->value_name("SEC")
             ->default_value(seconds(defaults.ready_timeout_ms)),
         "seconds for every player to send r; a player not ready by then is disqualified")
        ("game-timeout", po::value<double>()->value_name("SEC")
             ->default_value(seconds(defaults.game_timeout_ms)),
         "seconds from the deal to the end; then the player holding the fewest tiles wins "
         "(a tie: no winner); 0 for no limit")
        ("stall-timeout", po::value<double>()->value_name("SEC")
             ->default_value(seconds(defaults.stall_timeout_ms)),
         "once the bunch holds too few tiles for a dump, seconds without an accepted peel after "
         "which the game has stalled: it ends as the game timeout would, as 'stalled'; 0 for "
         "never")
        ("kill-grace", po::value<std::string>()->value_name("MS")
             ->default_value(std::to_string(defaults.kill_grace_ms)),
         "milliseconds between SIGTERM and SIGKILL for a player (0 to 600000)")
        ("legacy-dialect", po::value<std::string>()->value_name("v1|v0")
             ->default_value(std::string(to_string(defaults.dialect))),
         "v1: every host message ends with '.' (the spec's README.md); v0: no terminators "
         "(its README.org)");
    // clang-format on
}

void read_game(const po::variables_map& vm, GameSetup& setup) {
    setup.game.sets = vm["sets"].as<int>();
    const auto dialect = legacy_dialect_from_string(vm["legacy-dialect"].as<std::string>());
    if (!dialect)
        throw po::error("--legacy-dialect must be v1 or v0");
    setup.dialect = *dialect;
    setup.ready_timeout_ms = milliseconds(vm, "ready-timeout", false);
    setup.game_timeout_ms = milliseconds(vm, "game-timeout", true);
    setup.stall_timeout_ms = milliseconds(vm, "stall-timeout", true);
    setup.kill_grace_ms = count(vm, "kill-grace", 0, 600'000);
    if (vm.count("dict"))
        setup.dictionary = vm["dict"].as<std::string>();
}

po::options_description sandbox() {
    const SandboxLimits limits;
    po::options_description options(
        "Sandbox (each player in its own; see docs/security.md, or the man page)");
    // clang-format off
    options.add_options()
        ("no-sandbox", po::bool_switch(),
         "run the commands as they are, as this user, with this environment: only for bots "
         "you trust")
        ("env", po::value<std::vector<std::string>>()->value_name("NAME")->composing(),
         "pass this variable of the host's environment to every player (again for more); they "
         "get PATH, HOME=/tmp and LANG otherwise")
        ("sandbox-user", po::value<std::string>()->value_name("USER")
             ->default_value(SandboxConfig{}.user),
         "when the host runs as root, the unprivileged user the players run as")
        ("cpu-time", po::value<std::string>()->value_name("SEC")
             ->default_value(std::to_string(limits.cpu_seconds)),
         "CPU seconds for each of a player's processes")
        ("max-open-files", po::value<std::string>()->value_name("N")
             ->default_value(std::to_string(limits.open_files)),
         "open files for each of a player's processes")
        ("max-file-size", po::value<std::string>()->value_name("MIB")
             ->default_value(std::to_string(limits.file_size_mib)),
         "largest file a player may write, in MiB")
        ("tmp-size", po::value<std::string>()->value_name("MIB")
             ->default_value(std::to_string(limits.tmp_mib)),
         "size of a player's private /tmp (and /dev/shm), in MiB");
    // clang-format on
    return options;
}

bool read_sandbox(const po::variables_map& vm, SandboxConfig& config) {
    auto& chosen = config.limits;
    chosen.cpu_seconds = count(vm, "cpu-time", 1, 1'000'000);
    chosen.open_files = count(vm, "max-open-files", 8, 1 << 20);
    chosen.file_size_mib = count(vm, "max-file-size", 1, 1 << 20);
    chosen.tmp_mib = count(vm, "tmp-size", 1, 1 << 20);
    config.user = vm["sandbox-user"].as<std::string>();
    if (vm.count("env"))
        for (const auto& name : vm["env"].as<std::vector<std::string>>()) {
            const bool valid = !name.empty() &&
                               !std::isdigit(static_cast<unsigned char>(name[0])) &&
                               std::all_of(name.begin(), name.end(), [](char c) {
                                   return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                               });
            if (!valid)
                throw po::error(fmt::format("--env takes a variable's name, not '{}'",
                                            escape_for_terminal(name)));
            config.pass_env.push_back(name);
        }
    return !vm["no-sandbox"].as<bool>();
}

po::options_description shares() {
    const SandboxLimits limits;
    po::options_description options(
        "Machine shares (each player in a cgroup of its own; see docs/security.md, or the man "
        "page)");
    // clang-format off
    options.add_options()
        ("memory", po::value<std::string>()->value_name("MIB")
             ->default_value(std::to_string(limits.memory_mib)),
         "memory of all of a player's processes together, swap included, in MiB: a player that "
         "needs more is put out")
        ("max-processes", po::value<std::string>()->value_name("N")
             ->default_value(std::to_string(limits.processes)),
         "processes and threads of a player together")
        ("cpus-per-game", po::value<std::string>()->value_name("N")->default_value("0"),
         "pin each game to N cores of its own, which no other game here (of this or another "
         "host) runs on, so that a game runs the same whatever its neighbours do; 0: not "
         "pinned (every game and every player of a game still weighs the same)")
        ("unfair-per-process-limits", po::bool_switch(),
         "where no cgroup can be had: bound each process alone (--memory as its address space, "
         "--max-processes as its user's), and let CPU go to whoever makes the most processes. "
         "Unfair: a bot with more processes or sessions takes CPU from the others");
    // clang-format on
    return options;
}

Shares read_shares(const po::variables_map& vm, SandboxConfig& config) {
    Shares shares;
    shares.cgroups = !vm["unfair-per-process-limits"].as<bool>();
    config.limits.memory_mib = count(vm, "memory", 16, 1 << 20);
    config.limits.processes = count(vm, "max-processes", 1, 100'000);
    config.limits.per_process_only = !shares.cgroups;
    shares.cpus_per_game = static_cast<int>(count(vm, "cpus-per-game", 0, 4096));
    if (shares.cpus_per_game > 0 && !shares.cgroups)
        throw po::error(
            "--cpus-per-game pins games with cgroups: it cannot go with "
            "--unfair-per-process-limits");
    return shares;
}

po::options_description reuse() {
    po::options_description options(
        "Bots that stay (protocol v004: a bot that asks for it keeps its process from game to "
        "game; see protocol-v2.md)");
    // clang-format off
    options.add_options()
        ("fresh-bots", po::bool_switch(),
         "start every bot afresh for each game, v004 ones too (each is told B. after its game)")
        ("games-per-process", po::value<std::string>()->value_name("N")->default_value("0"),
         "a v004 bot's process plays at most N games, then a fresh one takes its place; 0: as "
         "many as its match has");
    // clang-format on
    return options;
}

void add_remote_grace(po::options_description& options) {
    options.add_options()("remote-grace", po::value<double>()->value_name("SEC")->default_value(10),
                          "a remote seat's dropped connection may come back this long (sent "
                          "then what it missed) before its player has left (docs/remote.md)");
}

std::uint64_t read_remote_grace(const po::variables_map& vm) {
    const double grace = vm["remote-grace"].as<double>();
    if (!(grace >= 0 && grace <= 3600))
        throw po::error("--remote-grace is 0 to 3600 seconds");
    return static_cast<std::uint64_t>(grace * 1000);
}

Reuse read_reuse(const po::variables_map& vm) {
    Reuse reuse;
    reuse.fresh = vm["fresh-bots"].as<bool>();
    reuse.games_per_process = static_cast<int>(count(vm, "games-per-process", 0, 1'000'000));
    if (reuse.fresh && reuse.games_per_process > 0)
        throw po::error(
            "--fresh-bots plays one game a process: --games-per-process does not go with it");
    return reuse;
}

}  // namespace bg::options
