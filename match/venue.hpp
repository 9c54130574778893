// Where games are played, set up once for a run: the word list the games are judged by and the
// file their players read it from, how each player's command is started (in its sandbox, or
// not), and the machine's cgroups. The host's one game, a tournament's many and the checker's
// scenarios all take their seats from a venue, and their logs say where they were played from
// it; nothing else sets a game up.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "cgroups/cgroups.hpp"
#include "core/dictionary.hpp"
#include "match/seat_source.hpp"
#include "match/word_list.hpp"
#include "record/setup.hpp"
#include "transport/process_seat.hpp"
#include "transport/sandbox.hpp"

namespace bg {

// What a venue is made of: what the command line (or a tournament's options) said.
struct VenuePlan {
    std::string dictionary;                    // --dict, or "" for the built-in list
    std::optional<std::uint64_t> fingerprint;  // the list a tournament recorded, when resumed
    std::vector<std::string> commands;         // every command a seat may be given
    // For each command (where there are as many): the folder of its own files it runs in, or ""
    // (a hosted bot's: transport/sandbox.hpp, Sandbox::create).
    std::vector<std::string> folders;
    std::optional<SandboxConfig> sandbox;   // none: the players run unsandboxed
    std::vector<std::string> secret_paths;  // no player may read them: the log, a database
    std::string log_folder;  // where games' logs go, made if missing; no player may read it
    cgroups::Shares shares;
    cgroups::PlayerLimits limits;
    // A line for people about the machine (what killed hosts left, and was removed).
    std::function<void(const std::string& line)> note;
};

class Venue final : public SeatSource {
  public:
    // The venue with its word list; or why that list cannot be had.
    static std::variant<std::unique_ptr<Venue>, std::string> open(VenuePlan plan);
    // Then the players' sandbox (which fails now, never later as a player that could not
    // start) and the machine's cgroups: once the secret paths exist, so that the sandbox hides
    // them (a log this host has just made). nullopt, or why they cannot be had, with what to
    // do.
    std::optional<std::string> prepare_players();
    // One more command a seat may be given, once the players are prepared (an arena's house bot
    // added while it runs, or a hosted bot's version, in its `folder`): its index in the plan's
    // commands, or why it cannot be launched. A hosted bot's is refused without the sandbox.
    std::variant<int, std::string> add_command(const std::string& command,
                                               const std::string& folder = "");
    Venue(const Venue&) = delete;
    Venue& operator=(const Venue&) = delete;

    const Dictionary& dictionary() const { return *dictionary_; }
    const VenuePlan& plan() const { return plan_; }
    cgroups::Machine* machine() const { return machine_.get(); }

    // What a game's log says of where it was played: its word list, its players' sandbox and
    // its machine shares (`game`: its cgroup, with the cores it was pinned to).
    void describe(GameSetup& setup, const cgroups::GameCgroup* game) const;
    // A game's cgroup, on cores of its own when the plan pins games (none without cgroups).
    std::variant<std::unique_ptr<cgroups::GameCgroup>, cgroups::Machine::GameError> game_cgroup()
        const;
    // A process of the request's command of the plan's, in the table's cgroup (when it has one;
    // the slot and the life name the player's: GameCgroup::player's).
    std::unique_ptr<ProcessSeat> process_seat(const Request& request) const;
    std::unique_ptr<Seat> seat(const Request& request) const override {
        return process_seat(request);
    }

  private:
    explicit Venue(VenuePlan plan) : plan_(std::move(plan)) {}
    std::optional<std::string> open_word_list();
    std::optional<std::string> open_launches();
    // The launches of `commands`, in the sandbox (and what the logs say of it) or as they are.
    struct Launches {
        std::vector<Launch> each;
        nlohmann::json sandbox = nullptr;
    };
    std::variant<Launches, std::string> launches_of(const std::vector<std::string>& commands,
                                                    const std::vector<std::string>& folders) const;
    std::optional<std::string> open_machine();

    VenuePlan plan_;
    std::optional<Dictionary> loaded_;
    const Dictionary* dictionary_ = nullptr;
    std::optional<PlayersWordList> words_;
    std::vector<Launch> launches_;  // a command's, in the plan's order
    bool prepared_ = false;         // its sandbox was set up here (a command added is not probed)
    nlohmann::json sandbox_record_ = nullptr;
    std::unique_ptr<cgroups::Machine> machine_;
};

// Game `number`'s log in a log folder: game-NNNNNN.jsonl (a tournament's game id, the host's
// game of --games).
std::string game_log_path(const std::string& folder, int number);

// The sandbox's settings, as a log's start record and a tournament's options hold them.
nlohmann::json sandbox_json(const SandboxConfig& sandbox);
// A player's cgroup limits, from its sandbox's --memory and --max-processes.
cgroups::PlayerLimits player_limits(const SandboxLimits& limits);

}  // namespace bg
