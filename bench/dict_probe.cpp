// Exits after one lookup in the default word list: its run time, next to an empty program's,
// is how long the list takes to be ready from process start.
#include <cstring>

#include "wordlist/default_wordlist.hpp"

int main(int argc, char**) {
    if (argc > 1)
        return 0;  // the baseline: the same binary, doing nothing
    return bg::default_wordlist().contains("BANANA") ? 0 : 1;
}
