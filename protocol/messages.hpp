// Protocol v2's host messages (protocol-v2.md, "Messages"), each written whole, its '.'
// included: the one place their bytes are spelled, for the outbox (a game's decisions) and the
// conformance checker (its scripted scenarios) alike.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/events.hpp"

namespace bg::v2 {

// V: the version; from v003 on, then the player's seat (from 0 here, from 01 on the wire) and
// the number of seats. v002 stays as first published.
std::string version(int version, PlayerId seat, int seats);
// H: the hand, dealt as of peel `peel` (0000).
std::string hand(int peel, std::string_view letters);
// P: peel `peel` dealt the player `tile`; `bunch` tiles are left.
std::string tile(int peel, char tile, int bunch);
// A: its peel was accepted as peel `peel`.
std::string ack(int peel);
// N: its peel was stale: the newest peel is `current`, its grid reflects `reflects` and lacks
// `lacked` (any order: sent alphabetical).
std::string nak(int current, int reflects, std::string lacked);
// D: a dump's three new tiles (in alphabetical order).
std::string dumped(std::string_view tiles);
// X: its dump of `letter` was refused: `bunch` tiles are in the bunch.
std::string refused(char letter, int bunch);
// E: the game is over for it: W, L or Q; its standing (0 when disqualified); the winner's seat
// (from 0 here), or none; the reason, length first so that its '.' cannot end the message,
// spaces as '_'.
std::string end(char outcome, int standing, std::optional<PlayerId> winner, std::string reason);
// G (v004): the next game begins; the player's seat in it (from 0 here) and the number of seats.
std::string next_game(PlayerId seat, int seats);
// B (v004): there is no next game.
std::string bye();

}  // namespace bg::v2
