// What a bot's author alone reads, with the bot's token (Authorization: Bearer; docs/arena.md,
// "Hosting a bot"):
//   GET /api/bots/NAME/hosted                         its hosted versions: each one's state
//                                                     (checking, failed, playing, retired) and
//                                                     its check's report with the bot's stderr
//   GET /api/bots/NAME/games/MATCH-ROTATION/log       a game of its rated match: the event log
//   GET /api/bots/NAME/games/MATCH-ROTATION/stderr    what the bot wrote to stderr in that game
// A game's, once its match is rated (ROTATION from 1, as the match's page numbers its games).
// Refused as the door refuses a token (401, 403, 429 past the address's wrong guesses); 404 for
// a game the bot did not play, or whose file the arena did not keep.
#pragma once

#include <optional>
#include <string>

#include "arena/door.hpp"
#include "arena/store.hpp"
#include "serve/server.hpp"

namespace bg::arena {

// The answer to `path` where it is one of the above; none where it is not.
std::optional<serve::Server::Content::Owned> owned_answer(const std::string& path,
                                                          const std::string& authorization,
                                                          const std::string& peer,
                                                          const Store& store, const Door& door);

// The state of each of a bot's hosted versions, as GET /api/bots/NAME/hosted says it.
nlohmann::json hosted_json(const Store& store, const Bot& bot);

}  // namespace bg::arena
