#!/usr/bin/env python3
"""The example player in protocol v2 (protocol-v2.md): the same crossword play as
example_player.py, but every host message says what it is, so the bot always knows which peel
its hand reflects and when its move has been answered. New tiles are laid onto the crossword of
its last peel when they fit, which is quick; only when they do not is the crossword built again.
It asks for v004: it stays for the games of a match, its word list read once (after E, G
begins its next game and B. says there is none).

    example_player_v2.py [--dict WORDLIST]

The word list, as example_player.py's: --dict WORDLIST if given; else the file the host names in
$BANANAGRAMS_WORDLIST; else, run by hand, the host's built-in list ../wordlist/scowl-80.txt. If it
cannot be read, one line on stderr says which file and why, and the player exits 1.
"""
import collections
import os

from example_grids import HARDEST_FIRST, arrange, grid_text, read_words, short_words


def messages(stream):
    """Yields each host message, without its '.'. An E message's reason may hold '.': its
    length comes first (E, outcome, standing, winner, then 4 digits)."""
    pending = ""
    while True:
        end = pending.find(".")
        if pending.startswith("E") and len(pending) >= 10:
            end = 10 + int(pending[6:10])
        if 0 <= end < len(pending):
            message, pending = pending[:end], pending[end + 1:]
            yield message
            continue
        data = os.read(stream, 65536)
        if not data:
            return
        pending += data.decode()


def main():
    words = read_words()
    short = short_words(words)
    hand = collections.Counter()
    seen = 0          # the newest peel whose tile is in our hand
    waiting = True    # for the hand, or the answer to our last move
    refused = False   # a dump was refused: none again until a new tile comes
    cells = None      # the crossword of our last peel, onto which new tiles are laid
    os.write(1, b"v004R")
    for m in messages(0):
        kind = m[0]
        if kind == "H":                   # H nnnn letters
            seen, waiting = int(m[1:5]), False
            hand.update(m[5:])
        elif kind == "P":                 # P nnnn tile bunch
            seen, refused = int(m[1:5]), False
            hand[m[5]] += 1
        elif kind in "AD":                # our peel accepted; our dump's three tiles
            waiting = False
            hand.update(m[1:] if kind == "D" else "")
        elif kind == "N":                 # stale: the tiles we lacked came in P messages
            seen, waiting = max(seen, int(m[1:5])), False
        elif kind == "X":                 # dump refused: the tile stays ours
            hand[m[1]] += 1
            waiting, refused = False, True
        elif kind == "E":                 # the game is over; the next may follow
            hand, seen, waiting, refused, cells = collections.Counter(), 0, True, False, None
        elif kind == "G":                 # G seat seats: our next game; its hand comes at R
            os.write(1, b"R")
        elif kind == "B":                 # no next game
            return
        if waiting:
            continue
        cells, left = arrange(hand, cells, words, short)
        if not sum(left.values()):
            os.write(1, ("P%04d%s" % (seen, grid_text(cells))).encode())
            waiting = True
            continue
        cells = None
        if not refused:
            tile = next(c for c in HARDEST_FIRST if left[c])
            hand[tile] -= 1
            os.write(1, ("D" + tile).encode())
            waiting = True


if __name__ == "__main__":
    main()
