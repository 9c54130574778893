// The word list the host uses when no --dict is given, compiled in at build time.
#pragma once

#include "core/dictionary.hpp"

namespace bg {

// The words of the list named by BG_DEFAULT_WORDLIST at configure time (wamerican-large by
// default, without its capitalised entries). Built on first use from data linked into the
// binary: nothing is read or parsed.
const Dictionary& default_wordlist();

// The file the list was compiled from (its lower-case entries), for --help and the log.
const char* default_wordlist_source();

}  // namespace bg
