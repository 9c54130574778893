// Everything that happens in a game, as data. Inputs come from outside the core (player
// messages, timers, process exits, the host's own signals); decisions are what the core makes
// of them. The event log is the sequence of both; the game state is a fold of the inputs, and
// replaying them must give back the same decisions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/out_code.hpp"

namespace bg {

using PlayerId = int;

// Protocol versions a player can speak (protocol-v2.md, "Versions"): the legacy protocol of the
// original spec, v002 as first published, v003 (v002, with the seat and the number of seats in
// V) and v004 (v003 a game, the process staying for the games of a match). A published version
// never changes: a new message format is a new version.
inline constexpr int protocol_legacy = 1;
inline constexpr int protocol_v2 = 2;
inline constexpr int protocol_v3 = 3;
inline constexpr int protocol_v4 = 4;
inline constexpr int protocol_newest = protocol_v4;
// Whether a player speaking `version` may stay for the next game: after its E comes G (the next
// game) or B (none).
constexpr bool stays_for_match(int version) {
    return version >= protocol_v4;
}
// The version a v2 handshake asking for `asked` is answered in by a host that speaks up to
// `newest`: the one asked for, and one the host does not know in the newest that plays one game
// a process. Staying for a match (v004) changes what a process is for: it is given only to a bot
// that asks for it. (Below v002: v002, to say the refusal in.)
constexpr int answered_version(int asked, int newest) {
    if (asked > newest)
        return newest < protocol_v3 ? newest : protocol_v3;
    return asked < protocol_v2 ? protocol_v2 : asked;
}
// Whether a player speaking `version` speaks the sequenced protocol (v002 or later).
constexpr bool sequenced(int version) {
    return version >= protocol_v2;
}

namespace input {
struct Ready {
    PlayerId player = 0;
    friend bool operator==(const Ready&, const Ready&) = default;
};
struct Peel {
    PlayerId player = 0;
    std::string grid;  // the grid text after 'p', not yet parsed
    // Protocol v2: the number of the newest peel whose tile the grid holds. Legacy peels say
    // nothing; the host infers it from the tiles.
    std::optional<int> reflects;
    friend bool operator==(const Peel&, const Peel&) = default;
};
struct Dump {
    PlayerId player = 0;
    char letter = 0;
    friend bool operator==(const Dump&, const Dump&) = default;
};
// A v2 handshake: the version the player asked for (2 or more).
struct Hello {
    PlayerId player = 0;
    int version = 0;
    friend bool operator==(const Hello&, const Hello&) = default;
};
// A byte stream the protocol does not allow, found by a framer.
struct Violation {
    PlayerId player = 0;
    std::string reason;
    friend bool operator==(const Violation&, const Violation&) = default;
};
// The player can no longer play: it exited, closed its output, could not start, or stopped
// reading what the host sends: why, as a code and in words.
struct Gone {
    PlayerId player = 0;
    OutCode code = OutCode::other;
    std::string reason;
    friend bool operator==(const Gone&, const Gone&) = default;
};
struct ReadyTimeout {
    friend bool operator==(const ReadyTimeout&, const ReadyTimeout&) = default;
};
struct GameTimeout {
    friend bool operator==(const GameTimeout&, const GameTimeout&) = default;
};
// The game has stalled: the bunch cannot serve a dump, and no peel has been accepted for the
// stall timeout (docs/host.md, "Rules").
struct StallTimeout {
    friend bool operator==(const StallTimeout&, const StallTimeout&) = default;
};
// The host was told to stop (SIGINT, SIGTERM).
struct Abort {
    std::string reason;
    friend bool operator==(const Abort&, const Abort&) = default;
};
}  // namespace input

using Input = std::variant<input::Hello, input::Ready, input::Peel, input::Dump, input::Violation,
                           input::Gone, input::ReadyTimeout, input::GameTimeout, input::Abort,
                           input::StallTimeout>;

// `stalled`: ended by the stall timeout, ranked as `game_timeout` is (fewest tiles wins).
enum class End { bananas, last_player_standing, everyone_out, game_timeout, aborted, stalled };
std::string_view to_string(End end);
std::optional<End> end_from_string(std::string_view text);

namespace decision {
// The answer to a v2 handshake: the version the host will speak with the player, the highest
// both know.
struct Greeted {
    PlayerId player = 0;
    int version = 0;
    friend bool operator==(const Greeted&, const Greeted&) = default;
};
// Every hand goes out at once; hands[i] is player i's, in alphabetical order ("" when out).
struct HandsDealt {
    std::vector<std::string> hands;
    friend bool operator==(const HandsDealt&, const HandsDealt&) = default;
};
// A valid peel, the number-th of the game. tiles[i] is the tile dealt to player i, '.' for a
// player out (and for everyone when the peel is bananas).
struct PeelAccepted {
    PlayerId player = 0;
    int number = 0;
    std::string tiles;
    int bunch = 0;  // tiles left in the bunch after the deal
    friend bool operator==(const PeelAccepted&, const PeelAccepted&) = default;
};
// A peel made before the player could see the newest tiles it was dealt: dropped, no penalty.
struct PeelStale {
    PlayerId player = 0;
    std::string unseen;  // the tiles its grid lacks, dealt after its last move
    int number = 0;      // the last peel whose tiles its grid holds
    int current = 0;     // the newest peel
    friend bool operator==(const PeelStale&, const PeelStale&) = default;
};
struct Dumped {
    PlayerId player = 0;
    char letter = 0;
    std::string tiles;  // three, in alphabetical order
    friend bool operator==(const Dumped&, const Dumped&) = default;
};
// Fewer than three tiles in the bunch: the letter stays in the hand.
struct DumpRefused {
    PlayerId player = 0;
    char letter = 0;
    int bunch = 0;
    friend bool operator==(const DumpRefused&, const DumpRefused&) = default;
};
struct Disqualified {
    PlayerId player = 0;
    OutCode code = OutCode::other;
    std::string reason;
    friend bool operator==(const Disqualified&, const Disqualified&) = default;
};
struct GameOver {
    End end = End::aborted;
    std::optional<PlayerId> winner;
    friend bool operator==(const GameOver&, const GameOver&) = default;
};
}  // namespace decision

using Decision = std::variant<decision::Greeted, decision::HandsDealt, decision::PeelAccepted,
                              decision::PeelStale, decision::Dumped, decision::DumpRefused,
                              decision::Disqualified, decision::GameOver>;

}  // namespace bg
