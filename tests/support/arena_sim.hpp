// A simulated arena around its core (arena/core/arena_core.hpp): its store, its lobby's
// connections, its matches and its clock, with the core's rules checked after every step. The
// unit tests, the property tests (props/arena_core_props.cpp) and the fuzz target
// (fuzz/fuzz_arena_core.cpp) all drive the core through it: any sequence of commands is one an
// arena could meet, and a broken rule is named.
//
// The rules it holds the core to:
// - every match begun is rated exactly once or voided exactly once, and none is left running or
//   unrecorded once the store can be written and every match has ended;
// - a match is rated from the ratings the store holds (the core holds nothing the store does
//   not), and in the end every rating is what rerate recomputes from the archive;
// - a bot is paused after exactly faults_to_pause rated matches in a row out of a game for its
//   own fault, and not before; a person never;
// - a house bot's seats are never promised more than house_seats at once, and a paused,
//   disabled or removed bot is never seated;
// - a hosted bot's version plays only once it passed its check, one match at once, and is
//   answerable for its own faults (a house bot's not-ready is the machine's, a hosted bot's not);
// - with `cores`, the players the arena runs itself (house and hosted) never outnumber them;
//   with workers, a match of no connection is played by a worker, its players counted against
//   the workers' cores as last told (none begins while none is seen), never more at one table
//   than the largest worker's, and `cores` counts the others alone;
// - a table's connections are one node's (the holder's, or one front node's), and the match is
//   played where they are: at a front only while it is seen, its house and hosted players
//   counted against that front's cores as last told (and not against the holder's);
// - a seated connection is one that waits (arrived, not gone, turned away or checked), and a
//   remote bot's version is checked before it is first queued;
// - a person who chose a house bot plays that bot alone;
// - no more matches at once than the concurrency, no table of one or over max_players, no owner
//   twice at a table; none begins after a stop, and the stop finishes once.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arena/core/arena_core.hpp"
#include "core/random.hpp"

namespace bg::test {

// What the simulation is asked to do next. Its numbers are taken modulo what there is (the
// n-th bot, the n-th match playing), so that any numbers make a command an arena could meet.
struct SimCommand {
    enum Kind {
        arrive,       // a new connection of bot a (a person: choosing house b, or anyone)
        leave,        // connection a closes
        tick,         // the clock moves on a ms (then the matchmaker's turn)
        match_over,   // playing match a ends: complete unless b is 0; its places and faults from c
        check_over,   // the check of connection a is over: passed unless b is 0
        fail_writes,  // the next a writes fail
        reread,       // bot a's account changes (b: enabled, disabled, paused or unpaused)
        signal,       // SIGTERM (a second: again)
        host,         // hosted bot a's version passes its check (again: a new one, in its place)
        workers,      // the workers seen change: a cores in all, the most of one b + 1 (none: 0)
        fronts,       // the front nodes seen change: front n seen where bit n of a is, its
                      // cores (b + n) mod 4 (0: not limited)
    } kind = tick;
    std::uint64_t a = 0, b = 0, c = 0;
};

struct SimSetup {
    int remote_bots = 4;
    int house_bots = 2;  // the first is the anchor
    int people = 1;
    int hosted_bots = 1;  // each its own owner; none plays until its version passes (host)
    int owners = 3;       // the remote bots' owners, shared
    int unchecked = 1;    // the remote bots whose version is not yet checked (the first ones)
    // The front nodes a connection may come through (f0, f1, ...), besides the holder: an
    // arrival's node is drawn from its command's c.
    int fronts = 0;
    arena::ArenaCore::Settings settings;
    // A core that pauses after another number of faults than the rules say (a wrong core, for
    // the tests that show the rules can fail); none: the rules' own.
    std::optional<int> core_faults_to_pause;
    // A wrong shell, for the same tests: it tells the core every front is seen (those that are
    // not, with their cores not limited), or that no seen front's cores are limited.
    enum class WrongFronts { none, all_seen, unlimited } wrong_fronts = WrongFronts::none;
};

class ArenaSim {
  public:
    // `distort` stands between the core and the simulation (a deliberately wrong core, for the
    // tests that show the rules can fail): it may change what the core decides.
    explicit ArenaSim(SimSetup setup,
                      std::function<arena::Effects(arena::Effects)> distort = nullptr);

    // One command; the first rule broken (and kept), or "".
    std::string step(const SimCommand& command);
    // Every match ended, the store writable, the clock run on: the rules that hold only at the
    // end (every match rated or void, the ratings rerate's). The first broken, or "".
    std::string drain();
    const std::string& broken() const { return broken_; }

    // What it saw, for the tests.
    int rated = 0, voided = 0, begun = 0, pauses = 0;
    const arena::ArenaCore& core() const { return *core_; }

  private:
    struct Conn {
        int bot = 0;
        std::string opponent;
        enum State { waiting, seated, checking, gone } state = waiting;
        std::string node{};  // its front node's name; "": the holder's
    };
    // A match's place, its own players there now, and its connections' rules (the sixth rule
    // of the matchmaker, and where it is played); why not, or "".
    std::string misplaced(const arena::effect::Play& play) const;
    // What the shell tells the core of the fronts seen (SimSetup::wrong_fronts).
    arena::input::Fronts told_fronts() const;
    // The node of the connections of `seats` ("": the holder's, or none).
    std::string place_of(const std::vector<arena::MatchSeat>& seats) const;
    struct StoredMatch {
        std::string state = "running";
        std::vector<int> bots;  // by seat
        std::vector<arena::MatchSeat> seats;
        bool playing = false;
        std::vector<std::uint64_t> stalled_ms;  // the arena's loop's stall in each game
    };
    void feed(arena::Input input);
    void perform(const arena::Effect& effect);
    arena::Input write(const arena::Effect& effect);
    void play(const arena::effect::Play& play);
    void released(int match);
    void arrive(arena::Connection connection);
    void connect(const SimCommand& command);
    void end_match(const SimCommand& command);
    void change_account(const SimCommand& command);
    void host(const SimCommand& command);
    // Why a seat of the arena's own (a house or hosted bot's) may not be taken, or "".
    std::string own_seat_refused(const arena::MatchSeat& seat, std::map<int, int>& in_use) const;
    arena::Input rate_written(const arena::effect::RateMatch& rate, bool fails,
                              const std::string& at);
    void fail(std::string why);
    arena::Entry& entry_of(int bot);
    void games_for(int match, std::uint64_t seed, std::vector<arena::StoredGame>& games,
                   std::vector<std::uint64_t>& stalled_ms,
                   std::vector<std::optional<OutCode>>& faults) const;

    SimSetup setup_;
    std::function<arena::Effects(arena::Effects)> distort_;
    std::unique_ptr<arena::ArenaCore> core_;
    // The store.
    std::map<int, arena::Bot> bots_;
    std::map<int, arena::Entry> entries_;  // one a bot
    std::set<int> hosted_;                 // the hosted bots whose version passed its check
    std::map<int, StoredMatch> matches_;
    std::vector<arena::Match> archive_;  // rated, in order, with their entrants
    std::map<int, arena::Standing> starts_;
    int failing_ = 0;
    int next_match_ = 1;
    // The lobby.
    std::map<arena::Connection, Conn> conns_;
    arena::Connection next_conn_ = 1;
    // The rules' own count.
    std::map<int, int> streak_;      // by bot: rated matches in a row out for its own fault
    std::multiset<int> pause_owed_;  // bots the core must pause
    std::map<int, std::vector<std::optional<OutCode>>> faults_of_;  // a match ended, its faults
    arena::input::Workers workers_;                                 // as last told to the core
    arena::input::Fronts fronts_;                                   // as last told to the core
    std::uint64_t now_ms_ = 1'000;
    bool signalled_ = false;
    int finishes_ = 0;
    std::deque<arena::Input> inbox_;
    bool feeding_ = false;
    std::string broken_;
};

}  // namespace bg::test
