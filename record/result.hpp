// The outcome of a game: one typed result, which every place a result goes is written from and
// read back into through one mapping each: the log's result record and --json (to_json,
// result_from_json), the table people read (result_table), a tournament's database
// (tournament/database.cpp), the pages and the streams (which show the log's records).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game.hpp"
#include "record/setup.hpp"
#include "record/usage.hpp"

namespace bg {

// A game's race: from the input that dealt the hands to the one that ended the game, at the
// times the log gives them. Told every input's time once the game has handled it.
class RaceClock {
  public:
    void after(const Game& game, std::uint64_t t_ns);
    // Its length, once the game is over (none when the hands were never dealt).
    std::optional<std::uint64_t> ns() const;

  private:
    std::optional<std::uint64_t> dealt_;
    std::optional<std::uint64_t> ended_;
};

// Whether a game's race was run on unequal terms (docs/host.md, "Fair races"): a player waited
// for a CPU longer than contended_wait_ns and than contended_share of the race. True when a
// figure says so (a lower bound included); false when every player's figure is whole and none
// does; none when the race has no length, or a figure is missing or too low a bound to say.
inline constexpr std::uint64_t contended_wait_ns = 5'000'000;
inline constexpr double contended_share = 0.10;
std::optional<bool> contended(std::optional<std::uint64_t> race_ns,
                              const std::vector<PlayerUsage>& usage);

enum class Outcome { won, lost, disqualified };
std::string_view to_string(Outcome outcome);
std::optional<Outcome> outcome_from_string(std::string_view text);

// What its referee counted of a player's peels (not in the log: a replay has no seats), where
// it was counted.
struct PeelCounts {
    int stale = 0;        // its peels that came before it could see a tile: dropped, no penalty
    int timed = 0;        // its peels with a think time
    double think_ms = 0;  // from the tiles it was dealt to its next peel, over the timed peels
    friend bool operator==(const PeelCounts&, const PeelCounts&) = default;
};

// One player's part in a game's result.
struct PlayerResult {
    std::string command;   // as shown: a remote player's is "remote:"
    std::string protocol;  // v2, v3, v4, legacy-v1, legacy-v0
    int rank = 0;          // its standing: 1 best, a tie shared; 0 when out
    Outcome outcome = Outcome::lost;
    // Why it is out, as a code and in words; none while it is in.
    std::optional<OutCode> out_code;
    std::string reason;
    std::string hand;  // the tiles it held at the end, in alphabetical order
    int tiles = 0;
    std::optional<std::string> grid;  // its last accepted grid
    int peels = 0;
    int dumps = 0;
    int process_game = 1;  // which game of its process this was (protocol v004 keeps them)
    // What it used, in the units a result shows (milliseconds); the connection of a remote one.
    std::optional<double> cpu_ms;
    std::optional<std::uint64_t> memory_peak_bytes;
    std::optional<LinkUsage> remote;
    std::optional<double> cpu_wait_ms;
    std::string cpu_wait_note;  // why the wait is missing or only a lower bound ("": whole)
    // Where they were had: its referee's counts, and whether its process was started afresh
    // because the one before could not go on (a tournament's); none from a log.
    std::optional<PeelCounts> counts;
    std::optional<bool> restarted;
    friend bool operator==(const PlayerResult&, const PlayerResult&) = default;
};

struct GameResult {
    std::uint64_t seed = 0;
    std::optional<PlayerId> winner;
    std::optional<End> end;  // none for a game not over
    int peels = 0;
    int bunch = 0;                      // tiles left in it
    std::vector<PlayerResult> players;  // in seat order
    std::string host_version;           // that played it ("" before log version 2)
    std::optional<double> race_ms;      // from the deal to the end (log version 7)
    std::optional<bool> contended;
    friend bool operator==(const GameResult&, const GameResult&) = default;
};

// The result of a game played or replayed: its state, and what each player used (`usage`, one
// a player; empty where nothing was counted) over a race of `race_ns`.
GameResult game_result(const GameSetup& setup, const Game& game,
                       const std::vector<PlayerUsage>& usage = {},
                       std::optional<std::uint64_t> race_ns = std::nullopt);

// As a log of `version` holds it (and --json prints it): from version 2, every player's
// "cpu_ms" and "memory_peak_bytes" and the "host_version"; 5, "process_game"; 6, "remote"; 7,
// "cpu_wait_ms", "cpu_wait_note", and the game's "race_ms" and "contended"; 8, "code". The
// referee's counts and restarts are not in it.
nlohmann::json to_json(const GameResult& result, int version = log_version);
// And back, strictly as that version writes it; or why it is not one.
std::variant<GameResult, std::string> result_from_json(const nlohmann::json& object,
                                                       int version = log_version);
// A remote seat's connection as a log and a result hold it (null for a process), and back.
nlohmann::json remote_json(const std::optional<LinkUsage>& remote);
std::variant<std::optional<LinkUsage>, std::string> remote_from_json(const nlohmann::json& object);

// The table people read: the first line says the end and the winner (and a contended race).
std::string result_table(const GameResult& result);

}  // namespace bg
