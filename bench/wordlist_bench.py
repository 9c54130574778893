#!/usr/bin/env python3
"""What the default word list changes for the bundled bots: the same tournament (the reference
bot, the Python example and the C++ example, round-robin, two seats) played on the built-in list
of hosts up to 1.0.0 (the lower-case words of Debian's wamerican-large, written to a file and
given to the host and to every bot with --dict) and on this host's (scowl-80), by the same
programs, one after the other.

    wordlist_bench.py BUILD_DIR [--deals N] [--seed S] [--game-timeout SECONDS]

Prints, for each list, every bot's wins, accepted and stale peels a game, dumps a game, the games
in which it had a peel accepted, its think time, and the games' median length and ends.
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile

import bundled_bots

SOURCE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
OLD_DEFAULT = "/usr/share/dict/american-english-large"


def bots(build, words):
    return [(name, bundled_bots.command(build, name, "--dict %s" % words))
            for name in ("ref", "py2", "cpp")]


def play(build, folder, name, host_words, words, args):
    """The tournament on `host_words` (None: the built-in list); the bots are given `words`, a
    copy of the same list (the list the host names in $BANANAGRAMS_WORDLIST is the same one)."""
    db = os.path.join(folder, name + ".db")
    command = [os.path.join(build, "tournament"), "run", "--db", db,
               "--deals", str(args.deals), "--seed", str(args.seed), "--concurrency", "1",
               "--game-timeout", str(args.game_timeout), "--rating-interval", "100000", "--json"]
    if host_words:
        command += ["--dict", host_words]
    for bot, line in bots(build, words):
        command += ["--bot", "%s=%s" % (bot, line)]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("wordlist_bench: the tournament on %s failed:\n%s" % (name, run.stderr))
    listed = subprocess.run([os.path.join(build, "tournament"), "games", "--db", db, "--json"],
                            capture_output=True, text=True, check=True)
    return json.loads(listed.stdout)


def summary(name, games):
    ends = collections.Counter(g["end"] for g in games)
    lengths = [g["duration_ms"] for g in games]
    print("%s: %d games, median %.2f s a game, ends %s" %
          (name, len(games), statistics.median(lengths) / 1000, dict(ends)))
    seats = collections.defaultdict(list)
    for g in games:
        for s in g["seats"]:
            seats[s["bot"]].append(s)
    for bot, played in seats.items():
        n = len(played)
        print("  %-4s wins %2d/%d  accepted peels/game %5.1f  stale/game %4.1f  dumps/game %4.1f"
              "  games with an accepted peel %2d/%d  think %5.0f ms" % (
                  bot, sum(s["outcome"] == "won" for s in played), n,
                  sum(s["peels"] for s in played) / n, sum(s["stale_peels"] for s in played) / n,
                  sum(s["dumps"] for s in played) / n, sum(s["peels"] > 0 for s in played), n,
                  statistics.mean(s["think_ms"] or 0 for s in played)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--game-timeout", type=int, default=120)
    args = parser.parse_args()
    build = os.path.realpath(args.build)
    if not os.path.exists(OLD_DEFAULT):
        sys.exit("wordlist_bench: %s is missing: install wamerican-large" % OLD_DEFAULT)
    # Not under /tmp: the players' sandbox hides it but for the folders their commands name.
    with tempfile.TemporaryDirectory(dir=os.path.join(build)) as folder:
        os.chmod(folder, 0o755)  # as root, the bots run as nobody
        old = [os.path.join(folder, "wamerican-large-lower.%s.txt" % who)
               for who in ("host", "bots")]
        with open(OLD_DEFAULT, encoding="utf-8", errors="replace") as f:
            lower = [w for w in f if w.strip().islower()]
        for path in old:
            with open(path, "w") as out:
                out.writelines(lower)
            os.chmod(path, 0o644)
        new = os.path.join(SOURCE, "wordlist", "scowl-80.txt")
        summary("wamerican-large (hosts up to 1.0.0)",
                play(build, folder, "old", old[0], old[1], args))
        summary("scowl-80 (host 1.1.0)", play(build, folder, "new", None, new, args))


if __name__ == "__main__":
    main()
