#!/usr/bin/env python3
"""A Bananagrams player to start from: standard library only, legacy protocol (the spec's).

It says r, then keeps every letter the host sends as a tile in its hand (the hand, each
peel's tile and each dump's three tiles are all just letters), lays the hand out as a
crossword (new tiles onto the last one, where they fit), peels when every tile is down, and
dumps a tile it could not place otherwise.

    example_player.py [--dict WORDLIST]

The word list must be the game's: --dict WORDLIST if given; else the file the host names in
$BANANAGRAMS_WORDLIST (the list the game is judged by, the host's own or the organiser's); else,
run by hand, the host's built-in list ../wordlist/scowl-80.txt (beside this folder, in the
source tree and once installed). If it cannot be read, the player says which file and why in one
line on stderr and exits 1, before sending anything.
"""
import collections
import os
import select

from example_grids import HARDEST_FIRST, arrange, build, grid_text, read_words, short_words


def read_letters(timeout=None):
    """The letters the host has sent (None at end of input); '.' terminators are skipped."""
    if not select.select([0], [], [], timeout)[0]:
        return ""
    data = os.read(0, 65536)
    return None if not data else "".join(c for c in data.decode() if "A" <= c <= "Z")


def main():
    words = read_words()
    short = short_words(words)
    hand = collections.Counter()
    cells = None  # the crossword of our last peel, onto which new tiles are laid
    os.write(1, b"r")
    refused = False
    while True:
        letters = read_letters()
        while letters is not None and (more := read_letters(0)):
            letters += more
        if letters is None:
            return
        hand.update(letters)
        if len(letters) >= 3:
            refused = False
        cells, left = arrange(hand, cells, words, short)
        # Dump until every tile is down, or a dump is refused (the bunch is short).
        while sum(left.values()) and not refused:
            tile = next(c for c in HARDEST_FIRST if left[c])
            hand[tile] -= 1
            os.write(1, ("d" + tile).encode())
            # Three tiles come back, or the same one when the bunch is short.
            reply = read_letters()
            while reply and len(reply) < 3 and (more := read_letters(0.2)):
                reply += more
            if reply is None:
                return
            refused = len(reply) < 3 and tile in reply
            hand.update(reply)
            cells, left = build(hand, words)
        if not sum(left.values()):
            os.write(1, ("p" + grid_text(cells)).encode())
        else:
            cells = None


if __name__ == "__main__":
    main()
