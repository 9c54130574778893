// The arena's core's matches (arena/core/arena_core.hpp): the matchmaker's turn, a match begun
// once the store has it, its end (rated through the one rating step, or voided; a result that
// could not be stored voided as soon as it can be), the faults that pause a bot, the house bots'
// seats, and the stop's grace. Pure.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/core/deciding.hpp"
#include "arena/core/finals_wanted.hpp"
#include "arena/core/lounge.hpp"
#include "arena/core/pauses.hpp"
#include "arena/core/seating.hpp"

namespace bg::arena {

class Tables {
  public:
    static constexpr std::size_t last_over_kept = 10;
    Tables(Deciding& deciding, Lounge& lounge, const std::vector<House>& houses,
           const std::vector<RecentMatch>& recent, const std::vector<Match>& last_over,
           std::uint64_t seed);

    // The clock: the stop's grace, and the work of a turn (matches to void, pauses to store, and
    // the matchmaker's tables).
    void tick();
    void played(const input::Played& in);
    void added(const std::vector<House>& houses) { houses_.add(houses, d_.now_ms); }
    // A hosted bot's version that plays from now, in place of the bot's version before it (whose
    // match under way, if any, ends as it would: the new one's first waits for it).
    void hosted(const House& house) { houses_.host(house, d_.now_ms); }
    // The stop (`signal`, named `name`): nothing more begins; the matches playing have their
    // grace. Again: they are aborted.
    void stop(int signal, const std::string& name);
    // The finals matches wanted now, in place of those before (those playing aside).
    void finals(const input::Finals& in);

    using Playing = PlayingMatch;
    const std::map<int, Playing>& playing() const { return playing_; }
    const std::vector<HouseSeats>& houses() const { return houses_.all(); }
    std::size_t unrecorded() const { return unrecorded_.size(); }
    const std::deque<Match>& last_over() const { return last_over_; }
    bool stopping() const { return signal_ != 0; }

  private:
    void turn();
    void begin(const std::vector<MatchSeat>& seats, const std::optional<FinalsOf>& finals);
    void begun(const std::vector<MatchSeat>& seats, const input::Written& written,
               const std::optional<FinalsOf>& finals);
    void rated(const input::Played& in, const MatchResult& result, const std::string& finished);
    void voided(const Match& match, const std::string& why, bool logs_failed,
                const std::string& finished, bool unrecorded);
    void void_unrecorded();
    void not_recorded(int match, const std::string& why);
    void release(int match);
    void finish_if_done();
    void over(MatchRecord record);
    Match running(int match) const;

    Deciding& d_;
    Lounge& lounge_;
    Pauses pauses_;
    Houses houses_;
    std::vector<RecentMatch> recent_;  // oldest first
    std::deque<Match> last_over_;      // newest first
    std::uint64_t seed_;
    std::map<int, Playing> playing_;
    FinalsWanted finals_;
    std::vector<Match> unrecorded_;  // over, and their result not stored
    std::uint64_t logs_held_until_ = 0;
    int signal_ = 0;
    std::uint64_t stop_at_ms_ = 0;
    bool aborted_ = false;
    bool finished_ = false;
};

}  // namespace bg::arena
