#include "match/venue.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/text.hpp"
#include "record/json_value.hpp"

namespace bg {

namespace {

// The shares a game was played with, for its log's start record: its cgroups' kind, its
// players' limits, and the cores it was pinned to.
nlohmann::json shares_json(const std::string& kind, const cgroups::PlayerLimits& limits,
                           int cpus_per_game, const std::vector<int>& cpus) {
    return {{"kind", kind},
            {"memory_mib", limits.memory_bytes >> 20},
            {"processes", limits.processes},
            {"cpus_per_game", cpus_per_game},
            {"cpus", cpus.empty() ? nlohmann::json(nullptr) : nlohmann::json(cpus)}};
}

}  // namespace

nlohmann::json sandbox_json(const SandboxConfig& sandbox) {
    const SandboxLimits& limits = sandbox.limits;
    return {{"tool", "bwrap"},
            {"user", bytes_to_json(sandbox.user)},
            {"env", sandbox.pass_env},
            {"memory_mib", limits.memory_mib},
            {"cpu_seconds", limits.cpu_seconds},
            {"processes", limits.processes},
            {"open_files", limits.open_files},
            {"file_size_mib", limits.file_size_mib},
            {"tmp_mib", limits.tmp_mib}};
}

std::string game_log_path(const std::string& folder, int number) {
    return (std::filesystem::path(folder) / fmt::format("game-{:06}.jsonl", number)).string();
}

cgroups::PlayerLimits player_limits(const SandboxLimits& limits) {
    return {limits.memory_mib << 20, limits.processes};
}

std::variant<std::unique_ptr<Venue>, std::string> Venue::open(VenuePlan plan) {
    if (!plan.log_folder.empty()) {
        std::error_code error;
        std::filesystem::create_directories(plan.log_folder, error);
        if (error)
            return fmt::format("cannot make the log folder {}: {}", plan.log_folder,
                               error.message());
        plan.secret_paths.push_back(plan.log_folder);
    }
    std::unique_ptr<Venue> venue(new Venue(std::move(plan)));
    if (auto error = venue->open_word_list())
        return std::move(*error);
    return venue;
}

std::optional<std::string> Venue::prepare_players() {
    if (auto error = open_launches())
        return error;
    return open_machine();
}

// The list (a tournament's: the very one it recorded), and the file its players read.
std::optional<std::string> Venue::open_word_list() {
    auto found = plan_.fingerprint
                     ? recorded_word_list(plan_.dictionary, *plan_.fingerprint, loaded_)
                     : host_word_list(plan_.dictionary, loaded_);
    if (auto* error = std::get_if<std::string>(&found))
        return *error;
    dictionary_ = std::get<const Dictionary*>(found);
    // As root, sandboxed players are another user, who must be able to read the file.
    auto words = PlayersWordList::make(plan_.dictionary, *dictionary_,
                                       plan_.sandbox.has_value() && ::geteuid() == 0);
    if (auto* error = std::get_if<std::string>(&words))
        return *error;
    words_.emplace(std::move(std::get<PlayersWordList>(words)));
    return std::nullopt;
}

// Every command's launch: in the sandbox (which fails now, never later as a player that could
// not start), with the word list shown and the secrets hidden; or as it is.
std::optional<std::string> Venue::open_launches() {
    auto made = launches_of(plan_.commands, plan_.folders);
    if (auto* error = std::get_if<std::string>(&made))
        return *error;
    auto& launches = std::get<Launches>(made);
    launches_ = std::move(launches.each);
    sandbox_record_ = std::move(launches.sandbox);
    prepared_ = true;
    return std::nullopt;
}

std::variant<Venue::Launches, std::string> Venue::launches_of(
    const std::vector<std::string>& commands, const std::vector<std::string>& folders) const {
    const bool own_folder =
        std::any_of(folders.begin(), folders.end(), [](const auto& f) { return !f.empty(); });
    if (!plan_.sandbox && own_folder)
        return std::string(
            "a hosted bot runs only in the player sandbox, which this venue does not have");
    if (!plan_.sandbox)
        return Launches{unsandboxed_launches(commands, {words_->variable()})};
    SandboxConfig config = *plan_.sandbox;
    config.secret_paths.insert(config.secret_paths.end(), plan_.secret_paths.begin(),
                               plan_.secret_paths.end());
    config.shared_paths.push_back(words_->path());
    config.set_env.push_back(words_->variable());
    // A command added once the players are prepared: its sandbox's config was set up already.
    auto created = Sandbox::create(config, commands, folders, prepared_);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    const auto& sandbox = std::get<Sandbox>(created);
    Launches launches{{}, sandbox_json(sandbox.config())};
    for (std::size_t i = 0; i < commands.size(); ++i)
        launches.each.push_back(sandbox.launch(i));
    return launches;
}

std::variant<int, std::string> Venue::add_command(const std::string& command,
                                                  const std::string& folder) {
    auto made = launches_of({command}, {folder});
    if (auto* error = std::get_if<std::string>(&made))
        return *error;
    plan_.folders.resize(plan_.commands.size());
    plan_.commands.push_back(command);
    plan_.folders.push_back(folder);
    launches_.push_back(std::move(std::get<Launches>(made).each[0]));
    return static_cast<int>(plan_.commands.size()) - 1;
}

// The machine's cgroups, with what killed hosts left removed (and said).
std::optional<std::string> Venue::open_machine() {
    if (!plan_.shares.cgroups)
        return std::nullopt;
    auto opened = cgroups::Machine::open(plan_.shares.cpus_per_game > 0);
    if (auto* error = std::get_if<std::string>(&opened))
        return fmt::format(
            "the players' cgroups cannot be had here: {}; or pass "
            "--unfair-per-process-limits to bound each process alone (a bot "
            "that makes more processes or sessions then takes CPU from the "
            "others)",
            *error);
    machine_ = std::move(std::get<std::unique_ptr<cgroups::Machine>>(opened));
    const auto note = [this](const std::string& line) {
        if (plan_.note)
            plan_.note(line);
    };
    if (machine_->swept() > 0)
        note(fmt::format("removed the cgroups of {} game{} left by a host that was killed",
                         machine_->swept(), machine_->swept() == 1 ? "" : "s"));
    for (const auto& left : machine_->left_over())
        note(fmt::format("the cgroup {} of a killed host's game could not be emptied",
                         escape_for_terminal(left)));
    return std::nullopt;
}

void Venue::describe(GameSetup& setup, const cgroups::GameCgroup* game) const {
    setup.dictionary = plan_.dictionary;
    setup.dictionary_fingerprint = dictionary_->stats().fingerprint;
    setup.dictionary_name = word_list_name(setup.dictionary, setup.dictionary_fingerprint);
    setup.sandbox = sandbox_record_;
    setup.shares = nullptr;
    if (machine_ && game)
        setup.shares =
            shares_json(machine_->kind(), plan_.limits, plan_.shares.cpus_per_game, game->cpus());
}

std::variant<std::unique_ptr<cgroups::GameCgroup>, cgroups::Machine::GameError> Venue::game_cgroup()
    const {
    if (!machine_)
        return std::unique_ptr<cgroups::GameCgroup>();
    return machine_->game(plan_.shares.cpus_per_game);
}

std::unique_ptr<ProcessSeat> Venue::process_seat(const Request& request) const {
    std::unique_ptr<cgroups::PlayerCgroup> cgroup;
    std::string error;
    if (request.cgroup) {
        auto made = request.cgroup->player(request.slot, plan_.limits, request.life);
        if (auto* why = std::get_if<std::string>(&made))
            error = *why;
        else
            cgroup = std::move(std::get<std::unique_ptr<cgroups::PlayerCgroup>>(made));
    }
    return std::make_unique<ProcessSeat>(request.loop,
                                         launches_[static_cast<std::size_t>(request.command)],
                                         std::move(cgroup), std::move(error));
}

}  // namespace bg
