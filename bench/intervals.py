"""What the benchmarks share of statistics: a share's 95% Wilson score interval."""
import math


def wilson(wins, n, z=1.959964):
    """The Wilson score interval of a share of `wins` in `n` (95% by default), within [0, 1]."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
