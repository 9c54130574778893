"""The staircase grid of the test bots: tile k at column (k+1)//2, row k//2, so every run
across or down is two tiles long and all are joined. Legal for any hand under a word list of
every two-letter string (tests/data/two_letters.txt); the C++ twin is players/staircase.hpp."""


def staircase(letters):
    letters = sorted(letters)
    n = len(letters)
    width, height = n // 2 + 1, (n + 1) // 2
    cells = [["."] * width for _ in range(height)]
    for k, c in enumerate(letters):
        cells[k // 2][(k + 1) // 2] = c
    return "%03d%03d%s" % (width, height, "".join("".join(r) for r in cells))
