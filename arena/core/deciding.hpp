// What the parts of the arena's core (arena/core/arena_core.hpp) share while it decides: its
// settings, its roster, what each account is doing, the time, the effects decided so far, and
// the way a write is made and its outcome awaited. Pure.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "arena/core/inputs.hpp"
#include "arena/core/matchmaker.hpp"
#include "arena/core/roster.hpp"

namespace bg::arena {

struct CoreSettings {
    MatchmakerConfig matchmaker;
    int concurrency = 2;  // matches at once
    // The cores the arena's players may use: the players it runs itself (house and hosted bots)
    // at once, at most, so that each has a core; 0: not limited (it shares them).
    int cores = 0;
    // Matches whose every seat the arena runs (house and hosted bots, no connection) are played
    // by workers on other machines (arena worker, over a PostgreSQL store): they count against
    // the workers' cores as the last input::Workers told them, and `cores` counts only the
    // players of the matches the arena plays itself.
    bool workers = false;
    int house_seats = 1;      // matches at once of each house bot
    int faults_to_pause = 3;  // matches in a row a bot is out of for its own fault
    std::uint64_t stop_grace_ms = 120'000;
    // A game's log could not be written (a full disk): no match begins for so long, rather than
    // one after another voided at once.
    std::uint64_t logs_held_ms = 5'000;
    std::size_t recent_kept = 200;  // rated matches' groups the matchmaker avoids repeating
    // Matches begun at one turn, at most: each is a synchronous write, and a thousand of them
    // at once (an arena starting with its tables empty) would hold the loop for as many writes;
    // the next turn comes at once, after the loop has served what waits.
    int begins_a_turn = 32;
    // The arena's loop stalled this long in a game (all its stalls summed: LagWindow) is the
    // machine's fault for a player not ready in it: a tenth of the ready timeout, as a contended
    // race's bar is a tenth of the race (record/result.hpp).
    std::uint64_t loop_stall_bar_ms = 1'000;
};

// What each account is doing: playing over checking over queued (one account may be all three
// at once, with several connections or house seats). Kept as it changes.
class Doings {
  public:
    enum What { queued, checking, playing };
    void add(int bot, What what, int by);
    // Each account doing something, by id, and what.
    std::map<int, std::string> statuses() const;
    // Whether what an account is doing changed since the last said().
    bool changed() const { return changed_; }
    void said() { changed_ = false; }

  private:
    struct Counts {
        int of[3] = {0, 0, 0};
    };
    static const char* status_of(const Counts& counts);
    std::unordered_map<int, Counts> counts_;
    bool changed_ = false;
};

class Deciding {
  public:
    Deciding(const CoreSettings& settings, Roster& roster) : settings(settings), roster(roster) {}

    const CoreSettings& settings;
    Roster& roster;
    Doings doings;
    std::uint64_t now_ms = 0;
    input::Workers workers;  // as the store last saw them (CoreSettings::workers)
    input::Fronts fronts;    // as the store last saw them
    Effects effects;

    void note(std::string text, effect::Note::Level level = effect::Note::info);
    std::string name_of(int bot) const;

    // A write, the last effect decided now; `then` once its outcome comes (the store's record
    // of it, or none and why not).
    using Then = std::function<void(const input::Written* written, const std::string& why)>;
    void write(Effect effect, Then then);
    bool awaiting() const { return then_.has_value(); }
    // Its outcome: the store is writable again, or not; then what was to follow.
    void outcome(const input::Written* written, const std::string& why);

    // Work for once no write is awaited, of a kind (so that what a failed write makes pointless
    // can be dropped).
    enum class Step { void_unrecorded, pause, turn, begin };
    void later(Step kind, std::function<void()> work, bool first = false);
    void drop(Step kind);
    // The work left, until a write is awaited or none is left.
    void run();
    bool writable() const { return !store_failing_; }

  private:
    std::optional<Then> then_;
    std::deque<std::pair<Step, std::function<void()>>> todo_;
    bool store_failing_ = false;
};

}  // namespace bg::arena
