"""The crossword play both Python example players share: the word list, and laying a hand out
as one connected crossword of dictionary words, the hardest letters first.

A module of its own, not a part of either player: the host's sandbox hides each player's own
files from the others, so a player that imported another player's file could not start beside it.
"""
import collections
import os
import sys

# The host's built-in list (its file, beside this folder in the source tree and once installed).
DEFAULT_DICT = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "wordlist",
                            "scowl-80.txt")
HARDEST_FIRST = "QZXJKVWYBFHGMPCUDLOTNSRAIE"


def word_list():
    """The path of the word list the game is judged by: --dict FILE if given; else the one the
    host names in $BANANAGRAMS_WORDLIST; else the built-in list, for running a player by hand."""
    if "--dict" in sys.argv[1:]:
        at = sys.argv.index("--dict", 1) + 1
        if at == len(sys.argv):
            sys.exit("%s: --dict needs a file" % os.path.basename(sys.argv[0]))
        return sys.argv[at]
    return os.environ.get("BANANAGRAMS_WORDLIST") or DEFAULT_DICT


def load_words(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        words = {w.strip().upper() for w in f if w.strip().isascii() and w.strip().isalpha()}
    return sorted((w for w in words if len(w) >= 2), key=len, reverse=True)


def read_words():
    """The words of the game's list, longest first. When it cannot be read: one line on stderr
    saying which file and why, and exit 1, before the player has sent the host anything."""
    path = word_list()
    try:
        words = load_words(path)
        why = "it holds no words of two letters or more" if not words else None
    except OSError as error:
        why = error.strerror or str(error)
    if why:
        sys.exit("%s: cannot read the word list %s: %s"
                 % (os.path.basename(sys.argv[0]), path, why))
    return words


def fits(word, hand):
    """How many letters of `word` the hand lacks."""
    need = collections.Counter(word)
    return sum(max(0, n - hand[c]) for c, n in need.items())


def usable(hand, words):
    """The words that could be laid with the hand and at most one letter already on the grid."""
    size, have = sum(hand.values()), set(+hand)
    return [w for w in words
            if len(w) <= size + 1 and len(set(w) - have) <= 1 and fits(w, hand) <= 1]


def build(hand, words):
    """A crossword of as much of the hand as it can place: (cells dict, leftover Counter)."""
    candidates = usable(hand, words)
    start = next((w for w in candidates if fits(w, hand) == 0), None)
    if start is None:
        return {}, hand
    cells = {(i, 0): c for i, c in enumerate(start)}
    return cells, grow(cells, hand - collections.Counter(start), candidates)


def extend(cells, new, short):
    """The crossword `cells` with the tiles `new` laid onto it too, each word (of `short`, a few
    thousand words of up to four letters) crossing a tile already there; None if some tile finds
    no place. Much quicker than building again: a peel that comes before the next player's is
    one that counts."""
    cells = dict(cells)
    left = grow(cells, +new, usable(new, short))
    return None if sum(left.values()) else cells


def arrange(hand, cells, words, short):
    """A crossword of the hand: the one of the last peel (`cells`, or None) with the new tiles
    laid onto it, where they fit; built again otherwise. (cells, leftover Counter)."""
    laid = collections.Counter(cells.values()) if cells else None
    grown = extend(cells, hand - laid, short) if laid and not laid - hand else None
    return (grown, collections.Counter()) if grown else build(hand, words)


def short_words(words):
    """The words of up to four letters, for extend()."""
    return [w for w in words if len(w) <= 4]


def grow(cells, left, candidates):
    """Lays words of `candidates` across the tiles of `cells` (adding to it) until `left` is
    used up or no tile can be crossed; what is left."""
    by_letter = collections.defaultdict(list)
    for w in candidates:
        for c in set(w):
            by_letter[c].append(w)
    # The hand only shrinks and the grid only fills, so a tile that could not be crossed once
    # never can be: each is tried once, in the order they were laid.
    anchors = list(cells)
    for x, y in anchors:
        if not sum(left.values()):
            break
        anchor, have = cells[(x, y)], set(+left)
        for word in by_letter[anchor]:
            if len(word) > sum(left.values()) + 1 or not set(word) - have <= {anchor}:
                continue
            spot = None
            for i in (i for i, c in enumerate(word) if c == anchor):
                for dx, dy in ((1, 0), (0, 1)):
                    spot = spot or lay(cells, word, x - dx * i, y - dy * i, dx, dy, left)
            if spot:
                cells.update(spot)
                anchors.extend(spot)
                left -= collections.Counter(spot.values())
                break
    return left


def lay(cells, word, x, y, dx, dy, left):
    """The new tiles for `word` at (x, y), if it crosses only what it shares and the hand has
    the rest; None otherwise."""
    if (x - dx, y - dy) in cells or (x + dx * len(word), y + dy * len(word)) in cells:
        return None
    new = {}
    for k, c in enumerate(word):
        at = (x + dx * k, y + dy * k)
        if at in cells:
            if cells[at] != c:
                return None
            continue
        if (at[0] + dy, at[1] + dx) in cells or (at[0] - dy, at[1] - dx) in cells:
            return None  # a new tile may not touch anything sideways
        new[at] = c
    if not new or collections.Counter(new.values()) - left:
        return None
    return new


def grid_text(cells):
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    rows = ("".join(cells.get((x, y), ".") for x in range(min(xs), max(xs) + 1))
            for y in range(min(ys), max(ys) + 1))
    return "%03d%03d%s" % (width, height, "".join(rows))
