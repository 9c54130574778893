// Why a player is out of its game: a code from one closed list, which the figures count (the
// standings, a tournament's database, the pages), beside a sentence, which people read. A
// sentence may be reworded at will; a code never changes its meaning, and a new way out is a new
// code (docs/host.md, "Why a player is out").
#pragma once

#include <optional>
#include <string_view>

namespace bg {

enum class OutCode {
    protocol_error,   // bytes the grammar does not allow, a message out of place, a peel from the
                      // future, a dump letter that is not a letter
    illegal_peel,     // a grid that is not a legal play of its hand
    illegal_dump,     // a dump of a letter its hand does not hold
    not_ready,        // not ready before the ready timeout
    could_not_start,  // its command could not be started
    exited,           // its process exited
    killed,           // its process was killed by a signal
    closed_output,    // it closed its output
    stopped_reading,  // it stopped reading its input (what the host sent it piled up, or could
                      // not be written)
    flooded,          // more messages, or more bytes of grids, than a game allows
    out_of_memory,    // its processes together needed more than their memory total
    left,             // a remote player that closed its connection, or did not come back to it
    other,            // only in a log or database from before codes, whose sentence says none
};

// Its name in logs, results and databases ("protocol_error"), and for people ("protocol
// error"); the code a name stands for.
std::string_view to_string(OutCode code);
std::string_view label(OutCode code);
std::optional<OutCode> out_code_from_string(std::string_view name);

// The code of a sentence written before codes were (log version 8, tournament schema 4), by its
// first words: read once, where such a log or database is read.
OutCode out_code_of(std::string_view reason);

// Every code, in the list's order.
inline constexpr OutCode all_out_codes[] = {
    OutCode::protocol_error,  OutCode::illegal_peel, OutCode::illegal_dump,  OutCode::not_ready,
    OutCode::could_not_start, OutCode::exited,       OutCode::killed,        OutCode::closed_output,
    OutCode::stopped_reading, OutCode::flooded,      OutCode::out_of_memory, OutCode::left,
    OutCode::other,
};

}  // namespace bg
