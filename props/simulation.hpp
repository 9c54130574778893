// A simulated transport for the property tests: the host's own Referee, with 2-8 simulated
// players in place of processes and pipes. Each player has an inbox of host messages it has not
// read yet, so delivery delays differ per player, and sees only the tiles it has read.
#pragma once

#include <cstdint>
#include <deque>
#include <ostream>
#include <string>
#include <vector>

#include "core/dictionary.hpp"
#include "core/game.hpp"
#include "protocol/outbox.hpp"
#include "referee/referee.hpp"
#include "tests/support/memory_log.hpp"

namespace bg {
inline void showValue(LegacyDialect dialect, std::ostream& os) {
    os << "legacy " << to_string(dialect);
}
}  // namespace bg

namespace bg::props {

enum class Speaks { legacy, v2 };
inline void showValue(Speaks speaks, std::ostream& os) {
    os << (speaks == Speaks::v2 ? "v2" : "legacy");
}

// Deliberately broken hosts, to show that each property can fail: each breaks what the host
// records or sends between the Referee and the players.
enum class Broken {
    no,
    acks_stale_peels,           // 3: a stale peel is ACKed
    punishes_legacy_stale,      // 3, 4: a legacy player's stale peel disqualifies it
    punishes_dump_races,        // 3: a peel sent before its dump's answer was read disqualifies
    skips_a_peel_number,        // 2: the second peel's tiles are numbered 3
    talks_to_the_disqualified,  // 5: a player out still gets peel tiles
    forgets_an_input,           // 6: the log misses the second input
    never_times_out,            // 7: the game timeout is ignored
    stalls_without_a_winner,    // 8: a stalled game's end names no winner
};

struct SimPlayer {
    struct Message {
        std::string bytes;
        std::string tiles;  // the tiles it brings
        int peel = 0;       // the peel that dealt its tile
        bool hand = false;
        bool dump_reply = false;
    };

    Speaks speaks = Speaks::legacy;
    std::deque<Message> inbox;
    LetterCounts seen;    // tiles read
    int seen_number = 0;  // newest peel whose tile it has read
    bool said_ready = false;
    bool has_hand = false;
    bool dump_pending = false;        // a dump not answered yet (in what it has read)
    std::vector<int> peels_received;  // peel numbers of the tiles sent to it, in order
};

class Sim {
  public:
    Sim(std::uint64_t seed, std::vector<Speaks> speaks, LegacyDialect dialect,
        Broken broken = Broken::no);

    Sim(const Sim&) = delete;
    Sim& operator=(const Sim&) = delete;

    // Player `p` sends these bytes; returns the decisions they led to.
    std::vector<Decision> send(PlayerId p, const std::string& bytes);
    // A timer fires, or a player exits.
    std::vector<Decision> fire(const Arrival& arrival);
    // Player p reads its next `messages` messages that bring tiles (and any others before them).
    void read(PlayerId p, int messages);
    // Player p says it is ready ("r", or "v002R" in v2), once.
    void say_ready(PlayerId p);
    // Player p puts `letter` in a dump: out of what it holds until the reply is read.
    void dumped(PlayerId p, char letter);

    std::uint64_t seed() const { return seed_; }
    LegacyDialect dialect() const { return dialect_; }
    const Game& game() const { return referee_.game(); }
    const std::vector<SimPlayer>& players() const { return players_; }
    const std::vector<Input>& log() const { return log_; }
    const std::vector<Decision>& decisions() const { return decisions_; }
    // Every byte each player was sent, in order.
    const std::vector<std::string>& wire() const { return wire_; }
    // A message went to a player after the decision that put it out.
    bool sent_after_out() const { return sent_after_out_; }

    // The staircase grid of what player p has seen, the legal play of it under two_letter_words().
    std::string staircase_of_seen(PlayerId p) const;

  private:
    std::vector<Decision> take(Arrival arrival);
    void deliver(const Decision& decision, PlayerId to, const std::string& bytes);

    std::uint64_t seed_;
    Broken broken_;
    LegacyDialect dialect_;
    MemoryLog record_;  // what the Referee logged
    Referee referee_;
    std::vector<SimPlayer> players_;
    std::vector<Input> log_;  // the log the (maybe broken) host keeps
    std::vector<Decision> decisions_;
    std::vector<std::string> wire_;
    std::vector<bool> out_;
    bool sent_after_out_ = false;
    int handled_ = 0;
};

// The inputs of a log replayed into a fresh game: its decisions, and every byte it sends.
struct Replay {
    std::vector<Decision> decisions;
    std::vector<std::string> wire;
};
Replay replay(std::uint64_t seed, int players, LegacyDialect dialect,
              const std::vector<Input>& log);

}  // namespace bg::props
