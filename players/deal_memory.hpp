// What a bot can remember of a deal it played before, for bench/memory_bench.py, which measures
// what that memory is worth. A deal's bunch is one shuffled order, drawn from its end; a bot
// that keeps which tile it drew at which place in that order (its peels' tiles, its dumps'
// three) knows, in the deal's next rotation, some of the tiles a dump would bring. A place is
// counted in draws: the bunch's count, with the peel numbers, says how many tiles were drawn
// before (every peel draws one for each player, every dump three, others' dumps too); a tile a
// dump sends back goes to a random place, most often deep, and moves the order only when it
// is drawn. The host
// never asks a bot for this: it is how a remote bot that ignores "fresh" could cheat, written
// down so that the gain is a figure, not a guess (docs/arena.md, docs/performance.md).
#pragma once

#include <fstream>
#include <map>
#include <optional>
#include <string>

namespace bg {

class DealMemory {
  public:
    // `seat` of `players`, all still in (a place in the bunch depends on who draws before it).
    DealMemory(int seat, int players) : seat_(seat), players_(players) {}

    // What earlier rotations saw (nothing when the file is missing); this game's sightings are
    // added to the file as they come (a game's end may be a SIGTERM before the bot reads it).
    bool open(const std::string& path, std::string& error);

    void hand(int tiles, int tiles_in_deal, int peel);  // H: the bunch is the deal less hands
    void peel(int peel, char tile, int bunch_after);    // P: its tile, the bunch once all drew
    void dumped(const std::string& three);              // D: the three it drew
    void refused(int bunch) { count_dumps(bunch); }     // X: the bunch as it is

    // The tiles a dump now would bring, where they are known (fewer than three when some are
    // not; empty when none).
    std::string foreseen() const;
    // A dump goes, with `foreseen()` then.
    void dump_sent(const std::string& foreseen) { foreseen_ = foreseen; }
    // After a dump whose tiles were foreseen: whether they all came.
    std::optional<bool> foreseen_right() const { return foreseen_right_; }

  private:
    int seat_;
    int players_;
    int initial_ = 0;  // the bunch once the hands were dealt
    int peels_ = 0;    // the newest peel it knows of
    int dumps_ = 0;    // dumps served that it knows of, anyone's
    int draws() const { return peels_ * players_ + 3 * dumps_; }
    void count_dumps(int bunch) { dumps_ = (initial_ - peels_ * players_ - bunch) / 2; }
    // A place is the number of draws before the tile's. A dump's three are known together
    // (D sorts them): by the place of the first.
    struct Sightings {
        std::map<int, char> tiles;
        std::map<int, std::string> threes;
    };
    void note(char kind, int place, const std::string& tiles);

    Sightings recalled_;    // earlier rotations'
    std::ofstream file_;    // where this game's go
    std::string foreseen_;  // for the dump in flight
    std::optional<bool> foreseen_right_;
};

}  // namespace bg
