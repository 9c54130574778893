// arena worker: plays an arena's matches of its own players (house and hosted bots) on a machine
// of its own (docs/arena.md, "Workers"). It reaches the arena's PostgreSQL store alone, never the
// arena: it says it is there with its cores, claims the oldest queued match it has the cores
// for (arena/jobs.hpp), renews its lease while it plays, fetches each hosted version's archive
// from the store by its SHA-256 (checked, unpacked once into its cache), plays the match as the
// arena would (match_play.hpp: every rotation of one deal, in the players' sandbox and cgroups, a
// core a player), and stores the result with its games' logs, gzipped. A claim it no longer holds
// (its lease ran out while it was cut off, or the arena ended it) is played no further, and its
// result is refused. SIGTERM or SIGINT: no new claim, the matches playing get --stop-grace to
// finish; a second: they end now (void). A lost database is waited for; nothing is lost but the
// matches whose lease ran out meanwhile, which the arena voids.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <boost/program_options.hpp>

#include "arena/settings.hpp"
#include "arena/store.hpp"

namespace bg::arena {

boost::program_options::options_description worker_options();

// What `arena worker` is told on its command line (worker_options).
struct WorkerSettings {
    std::string name;
    int cores = 1;
    std::string logs, cache, dictionary;
    std::uint64_t lease_ms = 30'000, poll_ms = 500, stop_grace_ms = 120'000;
    PlayersMachine players;
};

// Throws boost::program_options::error, with a sentence, for options that cannot be used. With
// --cores, this process (and so its players) runs on those CPUs from now.
WorkerSettings read_worker(const boost::program_options::variables_map& vm);
// This machine's name, as a worker says where it is.
std::string host_name();

int work(Store& store, const boost::program_options::variables_map& vm);

}  // namespace bg::arena
