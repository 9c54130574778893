// arena serve: the arena itself, on one libuv loop, a shell around its core (arena/core/
// arena_core.hpp, which decides everything). Remote bots connect to /bot and people to /person
// (the lobby); house bots are started by the arena, in the sandbox and cgroups a tournament
// uses; each match plays one deal in every seat rotation (match_play.hpp) and is rated, or
// voided, in one write. The API (/api/...) and the stream of the matches (/events) answer
// scripts; the pages (arena/web.hpp) answer people. SIGTERM or SIGINT: no new match, the running
// ones get --stop-grace to finish (then voided), and the server closes; a second signal voids
// them at once. SIGHUP: the bots read again from the database. A match left running by an arena
// that was killed is voided when the next one starts.
#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "arena/settings.hpp"
#include "arena/store.hpp"
#include "serve/server.hpp"

namespace bg::arena {

int serve(Store& store, const boost::program_options::variables_map& vm);

// What the arena's players may read (GET /rules, the word list): its tables seat 2 to
// --max-players. The holder's and every front node's.
serve::ForPlayers rules_for_players(const Settings& settings, const Dictionary& dictionary);

}  // namespace bg::arena
