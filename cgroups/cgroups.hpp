// Every player's processes as one unit of account: a cgroup of its own (one directory in each
// hierarchy that holds a controller it uses, cgroup v1 or v2; see layout.hpp), with a memory
// total (and swap), a process total, an equal CPU weight, and its CPU time and peak memory read
// at its end. The tree is machine -> games -> players, equal weights at each level:
//
//   <this process's cgroup>/bananagrams/game-<host pid>-<n>/player-<seat>
//
// so that every game started from one cgroup (a tournament's, and separate hosts side by side)
// weighs the same, and so does every player of a game, whatever processes, threads or sessions
// it makes. A game may be pinned to cores of its own (cpuset), handed out machine-wide under a
// lock so that two hosts never pin the same core. Nothing is polled: a v1 memory cgroup reports
// an OOM kill through an eventfd, a v2 one through inotify on memory.events, and a v2 cgroup
// says it is empty in cgroup.events.
//
// Nothing is left behind: a game's cgroups go when it ends; the base goes with the last host
// using it (each holds a shared lock on it); and a host that was killed leaves its games'
// cgroups unlocked (each game's directory is locked by its host for as long as it runs), so
// that the next host or tournament to start here kills what is in them and removes them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cgroups/cpu_wait.hpp"
#include "cgroups/files.hpp"
#include "cgroups/layout.hpp"
#include "cgroups/version.hpp"

namespace bg::cgroups {

// What a player used in its game, read when it is over: its CPU time, user and system, and the
// highest memory its processes held together (nullopt where the kernel does not say).
struct Usage {
    std::optional<std::uint64_t> cpu_ns;
    std::optional<std::uint64_t> memory_peak_bytes;
    friend bool operator==(const Usage&, const Usage&) = default;
};

// How the players share the machine: each in a cgroup of its own (memory and process totals,
// equal CPU weights, its game's cores), or, only where the organiser accepts it, limits on each
// process alone.
struct Shares {
    bool cgroups = true;
    int cpus_per_game = 0;  // 0: games are not pinned
    friend bool operator==(const Shares&, const Shares&) = default;
};

struct PlayerLimits {
    std::uint64_t memory_bytes = 4096ULL << 20;  // all its processes together, swap included
    std::uint64_t processes = 128;               // its processes and threads together
};

class Machine;
class GameCgroup;

// One player's cgroup. Its processes enter it before the first of them runs its command (the
// child writes itself into entry() before exec), so nothing of it runs unaccounted.
class PlayerCgroup {
  public:
    PlayerCgroup(const PlayerCgroup&) = delete;
    PlayerCgroup& operator=(const PlayerCgroup&) = delete;
    // Kills what is left in it and removes it.
    ~PlayerCgroup();

    // The cgroup.procs files (open for writing) that a new process writes "0" into to enter:
    // one a hierarchy. Closed by close_entry() once the process is started.
    std::vector<int> entry() const;
    void close_entry();

    // Readable when something may have happened to it: an OOM kill (v1 and v2) or, in v2, its
    // last process gone. drain() empties them; then oom_kills() and empty() say what happened.
    std::vector<int> notify_fds() const;
    void drain() const;
    // Whether notify_fds() also say when it is empty (v2); in v1 only its processes' ends do.
    bool notifies_empty() const { return notifies_empty_; }

    // How many of its processes the kernel's OOM killer has killed: more than none means it
    // needed more than its memory limit.
    std::uint64_t oom_kills() const;
    // No process is left in it.
    bool empty() const;
    // SIGKILL to every process in it (v2's cgroup.kill where the kernel has it).
    void kill() const;
    // Its CPU time and peak memory so far.
    Usage usage() const;
    // What tells how long its processes have waited for a CPU (cpu_wait.hpp), read in the order
    // that errs toward a lower bound: at a race's beginning its threads before its CPU time, at
    // its end (`closing`) after.
    WaitSample wait_sample(bool closing) const;
    // Its peak memory counted again from now (a process kept for another game): whether the
    // kernel could (cgroup v1; v2's peak is its life's).
    bool reset_memory_peak() const;
    const PlayerLimits& limits() const { return limits_; }
    // Its directory in the first hierarchy, for people.
    const std::string& path() const { return dirs_.front(); }

  private:
    friend class GameCgroup;
    PlayerCgroup() = default;
    // "" or why it could not be made; the directories made so far are removed by the destructor.
    std::string make(const GameCgroup& game, const std::string& name, const PlayerLimits& limits);
    // Its directory in the hierarchy of `c`, and that hierarchy's version.
    const std::string& dir(Controller c) const;
    const Version& version_of(Controller c) const;
    void remove();

    const Layout* layout_ = nullptr;
    std::vector<std::string> dirs_;  // one a hierarchy, in the layout's order; "" where not made
    PlayerLimits limits_;
    std::vector<UniqueFd> entry_;
    std::vector<Watch> watches_;
    bool notifies_empty_ = false;
};

// One game's cgroup: its players' parent, pinned to its cores when it has some. Its directory is
// locked (flock) by its host for as long as it exists.
class GameCgroup {
  public:
    GameCgroup(const GameCgroup&) = delete;
    GameCgroup& operator=(const GameCgroup&) = delete;
    // Removes it; its players must be gone first (each PlayerCgroup removes itself).
    ~GameCgroup();

    // A cgroup for the player in `seat` (from 0), or why not: player-<seat>, and for a player's
    // later process (`life` 2 or more, a process kept from game to game that was started
    // afresh) player-<seat>-<life>, beside what is left of the one before.
    std::variant<std::unique_ptr<PlayerCgroup>, std::string> player(int seat,
                                                                    const PlayerLimits& limits,
                                                                    int life = 1);
    // The cores it is pinned to, or none.
    const std::vector<int>& cpus() const { return cpus_; }
    const std::string& name() const { return name_; }

  private:
    friend class Machine;
    friend class PlayerCgroup;
    GameCgroup() = default;
    // Makes its directories under the base; "" or why not.
    std::string make(int cpus);
    // Pins it to `count` cores no other game holds; "" or why not (`no_free_cores` when none).
    std::string pin(int count, bool& no_free_cores);

    const Machine* machine_ = nullptr;
    std::string name_;
    std::vector<std::string> dirs_;  // one a hierarchy; "" for cpuset when not pinned
    std::vector<int> cpus_;
    UniqueFd lock_;
};

// The host's place in the machine's cgroups: the hierarchies, the base all its games go under,
// and the locks that share it with every other host and tournament here.
// This process's cgroup hierarchies for games, each hierarchy's `own` the cgroup a host's
// games go under (Version::games_parent); or why they cannot be had. With `pin`, the cpuset
// controller is needed too.
std::variant<Layout, std::string> games_layout(bool pin);

class Machine {
  public:
    // The base, made if missing, and what killed hosts left in it removed; or why cgroups cannot
    // be had here, saying what to do. With `pin`, the cpuset controller is needed too.
    static std::variant<std::unique_ptr<Machine>, std::string> open(bool pin);
    Machine(const Machine&) = delete;
    Machine& operator=(const Machine&) = delete;
    // Removes the base when no other host uses it and no game is in it.
    ~Machine();

    // Why a game's cgroup could not be made: no cores free for it (others hold them now), or
    // something else.
    struct GameError {
        std::string message;
        bool no_free_cores = false;
    };
    // A new game's cgroup, pinned to `cpus` cores of its own (0: not pinned), or why not (for
    // cores: the message says who holds them).
    std::variant<std::unique_ptr<GameCgroup>, GameError> game(int cpus);
    // The cores games here may be pinned to, and how many of them games of other hosts hold now.
    std::vector<int> cpus() const;
    int cpus_pinned_elsewhere() const;
    // The games left by killed hosts that open() removed, and those it could not empty.
    int swept() const { return swept_; }
    const std::vector<std::string>& left_over() const { return left_over_; }
    // "cgroup v1", "cgroup v2", or "cgroup v1 and v2", for the log.
    std::string kind() const;
    const Layout& layout() const { return layout_; }
    const std::vector<std::string>& base() const { return base_; }

  private:
    friend class GameCgroup;
    friend class PlayerCgroup;
    Machine() = default;
    std::string prepare();
    std::string make_base();
    void sweep();
    // The cores the games in the base hold, but for `except`'s.
    std::vector<int> pinned(const std::string& except) const;
    // Runs `what` holding the machine-wide lock of the base's parent.
    template <class F>
    auto locked(F&& what) const;

    Layout layout_;
    bool pin_ = false;
    std::vector<std::string> base_;  // one a hierarchy
    UniqueFd mutex_;                 // the base's parent, in the first hierarchy
    UniqueFd presence_;              // the base itself: a shared lock while this host uses it
    mutable int next_game_ = 0;
    int swept_ = 0;
    std::vector<std::string> left_over_;
};

// Removes game `dir`'s cgroups (in every hierarchy, players first) after killing what is in
// them; false when something would not go.
bool remove_game_tree(const Layout& layout, const std::vector<std::string>& dirs);

}  // namespace bg::cgroups
