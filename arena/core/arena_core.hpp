// The arena's rules, pure: one value with two doors, as a game's referee (referee/referee.hpp)
// is. What happens to the arena comes in (arena/core/inputs.hpp: a connection waiting or gone, a
// check over, a match over with its games, the clock, the accounts read again, a signal, a
// write's outcome); what it decides comes out as effects (begin a match at a table with these
// seats, rate or void a match, pause a bot, send a connection away, publish an event, a line for
// the log). Everything the arena decides is here: who plays whom (the matchmaker), when a match
// may begin (the tables free, the store writable, the logs writable), a match's rating (the one
// rating step), a bot paused after its own faults, a version checked before it is queued, the
// house bots' seats, a person's chosen opponent, what each account is doing, the stop. No
// libuv, no sockets, no database, no clock of its own: time comes with the inputs, and the
// shell (arena/serve.cpp) does the effects. Unit-tested (tests/arena_core_test.cpp),
// property-tested over random inputs (props/arena_core_props.cpp) and fuzzed
// (fuzz/fuzz_arena_core.cpp).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "arena/core/inputs.hpp"
#include "arena/core/matchmaker.hpp"
#include "arena/core/roster.hpp"

namespace bg::arena {

class ArenaCore {
  public:
    struct Settings {
        MatchmakerConfig matchmaker;
        int concurrency = 2;      // matches at once
        int house_seats = 1;      // matches at once of each house bot
        int faults_to_pause = 3;  // matches in a row a bot is out of for its own fault
        std::uint64_t stop_grace_ms = 20'000;
        // A game's log could not be written (a full disk): no match begins for so long, rather
        // than one after another voided at once.
        std::uint64_t logs_held_ms = 5'000;
        std::size_t recent_kept = 200;  // rated matches' groups the matchmaker avoids repeating
    };
    // What the arena knows as it starts: the roster (from the store), its house bots, the last
    // rated matches' groups (oldest first), the last matches over (newest first), and a seed
    // for the matchmaker's blur.
    struct Start {
        Roster roster;
        std::vector<House> houses;
        std::vector<RecentMatch> recent;
        std::vector<Match> last_over;
        std::uint64_t seed = 0;
    };
    static constexpr std::size_t last_over_kept = 10;
    ArenaCore(Settings settings, Start start);

    // One input; what to do about it. After a write effect (is_write), the next input is its
    // outcome (input::Written or input::NotWritten): any other throws std::logic_error.
    Effects take(const Input& input);

    // What it holds.
    const Roster& roster() const { return roster_; }
    const Settings& settings() const { return settings_; }
    struct Queued {
        Connection connection = 0;
        int bot = 0;
        int entry = 0;
        std::uint64_t since_ms = 0;
        std::string opponent;
    };
    // The connections waiting, in the order they came.
    std::vector<Queued> queue() const;
    std::size_t queued() const { return queue_.size(); }
    struct Playing {
        int id = 0;
        std::string started;
        std::vector<MatchSeat> seats;
    };
    const std::map<int, Playing>& playing() const { return playing_; }
    std::size_t checking() const { return checking_.size(); }
    // What each account doing something is doing now (playing, checking, queued), by id.
    std::map<int, std::string> statuses() const;
    struct HouseSeats {
        House house;
        int in_use = 0;
    };
    const std::vector<HouseSeats>& houses() const { return houses_; }
    std::size_t unrecorded() const { return unrecorded_.size(); }
    bool writable() const { return !store_failing_; }
    bool stopping() const { return signal_ != 0; }
    bool awaiting_write() const { return awaiting_.has_value(); }
    std::uint64_t now_ms() const { return now_ms_; }
    // The last matches over (rated or void), the newest first, without their games.
    const std::deque<Match>& last_over() const { return last_over_; }

  private:
    // What a connection waiting at a check is checked as.
    struct Checking {
        int bot = 0;
        int entry = 0;
    };
    // Why the core awaits a write, and what it does once it is written (or not).
    struct BeginAwaited {
        std::vector<MatchSeat> seats;
    };
    struct RateAwaited {
        int match = 0;
        std::vector<Rated> rated;
        std::vector<StoredGame> games;
        std::vector<std::optional<OutCode>> faults;  // each entrant's first out code
    };
    struct VoidAwaited {
        Match match;  // its id, and when it began
        std::string why;
        std::vector<StoredGame> games;
        bool logs_failed = false;
        bool unrecorded = false;  // voided at a later tick: its result could not be stored
    };
    struct PauseAwaited {
        int bot = 0;
        std::string why;
    };
    struct CheckAwaited {
        Connection connection = 0;
        Checking checking;
        input::Checked outcome;
    };
    using Awaited =
        std::variant<BeginAwaited, RateAwaited, VoidAwaited, PauseAwaited, CheckAwaited>;
    // What is left to do once a write is done: the rest of a turn.
    struct Step {
        enum Kind { void_unrecorded, turn, begin, pause } kind = turn;
        std::vector<MatchSeat> seats;  // begin
        int bot = 0;                   // pause
        std::string why;               // pause
        explicit Step(Kind k) : kind(k) {}
    };
    // A bot's doings, for its status.
    struct Doing {
        int queued = 0, checking = 0, playing = 0;
    };

    void handle(const input::Tick& in);
    void handle(const input::Arrived& in);
    void handle(const input::Left& in);
    void handle(const input::Checked& in);
    void handle(const input::Played& in);
    void handle(const input::Reread& in);
    void handle(const input::Signalled& in);
    void handle(const input::Written& in);
    void handle(const input::NotWritten& in);
    // The steps left, until one writes.
    void run();
    void turn();
    void begin(Step step);
    void begun(const BeginAwaited& awaited, const input::Written& written);
    void rated(const RateAwaited& awaited, const input::Written& written);
    void voided(const VoidAwaited& awaited, const input::Written& written);
    void paused(const PauseAwaited& awaited, const input::Written& written);
    // `written` is none where the check could not be recorded.
    void checked(const CheckAwaited& awaited, const input::Written* written);
    // A match over whose result could not be stored: voided as soon as the store can be written.
    void not_recorded(int match, const std::string& why);
    void count_faults(const std::vector<Rated>& rated,
                      const std::vector<std::optional<OutCode>>& faults);
    void release(int match);
    void finish_if_done();
    void remember(RecentMatch group);
    void over(MatchRecord record);
    void turn_away_unplayable();
    std::string name_of(int bot) const;
    MatchRecord record_of(int match, const std::string& state, const std::string& finished,
                          const std::string& why) const;
    // A write, whose outcome is awaited.
    template <class W, class A>
    void write(W effect, A awaited) {
        effects_.push_back(std::move(effect));
        awaiting_ = std::move(awaited);
    }
    void note(std::string text, effect::Note::Level level = effect::Note::info);
    void store_written();
    void store_failed(const std::string& why);
    void dequeue(Connection connection);
    void doing(int bot, int Doing::*what, int by);
    std::string status_of(const Doing& doing) const;
    // A seat the matchmaker may fill: a queued connection's, or a house bot's free one.
    struct Source {
        std::uint64_t order = 0;  // in queue_
        int house = -1;           // in houses_
    };
    std::vector<Waiting> waiting_for_matchmaker(std::vector<Source>& sources) const;
    MatchSeat seat_of(const Source& source) const;

    Settings settings_;
    Roster roster_;
    std::vector<HouseSeats> houses_;
    std::vector<RecentMatch> recent_;  // oldest first
    std::uint64_t seed_;
    std::uint64_t now_ms_ = 0;
    std::uint64_t arrivals_ = 0;                           // queue_'s order
    std::map<std::uint64_t, Queued> queue_;                // by order of arrival
    std::unordered_map<Connection, std::uint64_t> place_;  // each queued connection's order
    std::map<Connection, Checking> checking_;
    std::map<int, Playing> playing_;
    std::map<int, int> faults_;      // by bot: matches in a row it was out of for its own fault
    std::vector<Match> unrecorded_;  // matches whose result could not be stored
    std::deque<Match> last_over_;
    std::vector<std::pair<int, std::string>> unpaused_;  // pauses not stored: bot, why
    std::unordered_map<int, Doing> doings_;  // by bot
    bool statuses_changed_ = false;
    std::uint64_t logs_held_until_ = 0;
    bool store_failing_ = false;
    int signal_ = 0;
    bool aborted_ = false;
    bool finished_ = false;
    std::uint64_t stop_at_ms_ = 0;
    std::deque<Step> todo_;
    std::optional<Awaited> awaiting_;
    Effects effects_;
};

}  // namespace bg::arena
