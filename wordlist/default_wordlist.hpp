// The word list the host uses when no --dict is given, compiled in at build time, and the lists
// earlier hosts had built in, which their logs and tournaments name by fingerprint.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "core/dictionary.hpp"

namespace bg {

// The words of the list named by BG_WORDLIST at configure time (wordlist/scowl-80.txt
// by default). Built on first use from data linked into the binary: nothing is read or parsed.
const Dictionary& default_wordlist();

// The file the list was compiled from, and the name logs and databases give it ("scowl-80").
const char* default_wordlist_source();
const char* default_wordlist_name();

// A list an earlier host had built in: a game played on it replays (and a tournament begun on
// it resumes) from its file, where this machine has it.
struct FormerDefault {
    const char* name;
    const char* about;  // where the list comes from, for a message
    const char* file;
    DictionaryOptions options;
    std::uint64_t fingerprint;
};
std::span<const FormerDefault> former_defaults();

// The name of the built-in list with this fingerprint (this host's or an earlier one's), if any.
std::optional<std::string> builtin_wordlist_name(std::uint64_t fingerprint);

// The built-in list a game recorded by its fingerprint: this host's, or a former default read
// from its file (kept in `loaded`); else why it cannot be had.
std::variant<const Dictionary*, std::string> builtin_wordlist(std::uint64_t fingerprint,
                                                              std::optional<Dictionary>& loaded);

}  // namespace bg
