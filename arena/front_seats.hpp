// The holder's side of its front nodes that seat (docs/arena.md, "Front nodes"; the front's side
// is arena/front_seating.hpp): what a front says of its connections (arena/front_mail.hpp),
// each an input for the core under a name of the holder's own (input::Arrived with the front's
// name as its node, Left, Checked); the fronts seen, and their cores (input::Fronts); and what
// the core decides of a front's connection, told to that front: a check, its outcome, no more
// games, how its match went. A match the core places at a front (effect::Play::node) is handed
// out as a job addressed to it (arena/handed_out.hpp), its seats named as the front names them.
//
// A front that is no longer seen: its connections have left, and its matches not yet taken are
// void (one it took is void as its lease runs out). A front seen (again), and every front as a
// holder begins, is asked who waits at it. A connection back from a match waits until the
// holder has read that match's end, so that the core never has it in two places; one said again
// to a holder that has it already is not taken twice. What is told to a front waits, in order,
// while the store cannot be reached. While the holder stops, no front's connection is sent
// away: it waits for the next holder.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "arena/core/inputs.hpp"
#include "arena/front_mail.hpp"
#include "arena/store.hpp"

namespace bg::arena {

class HandedOut;

// The holder's names for the fronts' connections (above every name its own lobby gives), each
// with what the core was last told of it.
class FrontNames {
  public:
    struct Seat {
        std::string node;
        std::uint64_t at_front = 0;  // the front's name of it
        bool waiting = false;        // to play, as the core was last told
        bool checking = false;       // at a check whose outcome the core awaits
        bool left = false;           // gone, its check's outcome still to come
    };
    // Its name, made where it has none.
    Connection named(const std::string& node, std::uint64_t at_front);
    Seat* find(Connection connection);
    std::optional<Connection> find(const std::string& node, std::uint64_t at_front) const;
    void erase(Connection connection);
    // The front's connections, forgotten.
    std::vector<std::pair<Connection, Seat>> take_all(const std::string& node);

  private:
    std::map<Connection, Seat> seats_;
    std::map<std::pair<std::string, std::uint64_t>, Connection> by_front_;
    Connection next_ = Connection{1} << 48;
};

class FrontSeats {
  public:
    FrontSeats(Store& store, HandedOut& handed, std::function<void(Input)> feed,
               std::function<std::uint64_t()> now);

    // What the fronts said since, and which are seen: the core's inputs (the arena's tick). The
    // first (until the store answers) drops what its predecessor left and asks who waits.
    void look();
    // The core's effect, where it is a front connection's (a check, its outcome, no more
    // games: true, done) or concerns them too (a match over: its fronts told; no more games:
    // those of fronts taken out of it; the doors closed: no front's connection is sent away
    // after, it waits for the next holder): false, the holder's part left to do.
    bool perform(Effect& effect);
    // The match as its front names its seats' connections (kept, to tell them how it went).
    effect::Play placed(const effect::Play& play);
    // A match placed at a front that could not be handed out: its connections wait again.
    void unplaced(const effect::Play& at_front);
    bool sees(const std::string& node) const { return seen_.count(node) > 0; }

  private:
    // The fronts seen now: those gone and those new told to the core.
    void look_at_fronts(const std::map<std::string, int>& seen);
    // Whether the message was taken (false: the store could not be read for it; tried again).
    bool take(const FrontMail::Message& message);
    void arrived(const FrontMail::Message& message);
    void left(Connection connection);
    // The front's connections gone, and its jobs not yet taken void.
    void gone(const std::string& node);
    bool check(const effect::Check& check);
    bool check_done(const effect::CheckDone& done);
    // The fronts' among `connections` told there are no more games, and taken out of them.
    void turn_away(std::vector<Connection>& connections);
    void over(const MatchRecord& record);
    void tell(const std::string& node, const nlohmann::json& body) {
        outbox_.push(node, body);
        flush();
    }
    void flush();

    Store& store_;
    HandedOut& handed_;
    std::function<void(Input)> feed_;
    std::function<std::uint64_t()> now_;
    FrontNames names_;
    // Each match at a front: its connections there, by the front's names, with their entries.
    std::map<int, std::vector<std::tuple<std::string, std::uint64_t, int>>> playing_;
    std::vector<FrontMail::Message> later_;  // arrivals back from a match not yet read
    std::map<std::string, int> seen_;
    Outbox outbox_;  // by front, what is to be told
    bool begun_ = false, stopping_ = false, failing_ = false;
};

}  // namespace bg::arena
