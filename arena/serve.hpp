// arena serve: the arena itself, on one libuv loop. Remote bots connect to /bot and wait in the
// lobby's queue; house bots are started by the arena, in the sandbox and cgroups a tournament
// uses; the matchmaker seats whoever waits every turn of its clock; each match plays one deal in
// every seat rotation and is rated, or voided, in one transaction. The API (/api/...) and the
// stream of the matches (/events) answer scripts; the pages (arena/web.hpp) answer people. SIGTERM
// or SIGINT: no new match, the running ones get --stop-grace to finish (then voided), and the
// server closes; a second signal voids them at once. SIGHUP: the bots read again from the database.
// A match left running by an arena that was killed is voided when the next one starts.
#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "arena/store.hpp"

namespace bg::arena {

boost::program_options::options_description serve_options();
int serve(Store& store, const std::string& db_path,
          const boost::program_options::variables_map& vm);

}  // namespace bg::arena
