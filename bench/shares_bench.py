#!/usr/bin/env python3
"""What the players' cgroups change for a tournament: the same tournament of the reference bot
(protocol v2) against itself in the legacy protocol, on the default word list, played with each player in a cgroup
(the default) and with per-process limits only (--unfair-per-process-limits, the host before the
cgroups), in alternating rounds so that the machine's noise falls on both alike.

    shares_bench.py BUILD_DIR [--rounds N] [--deals N] [--concurrency N]

Prints, for each way, the games per second and the v2 bot's win rate with its Wilson 95%
interval, then the ratio of the rates and the difference of the win rates with its 95% interval
(Newcombe's, from the two Wilson intervals): they agree when it holds 0. Both ways play the same deals: each round is one tournament seed, played both ways.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

from intervals import wilson


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    tournament = os.path.join(args.build, "tournament")
    bots = ["--bot", "v2=exec %s/reference_bot" % args.build,
            "--bot", "legacy=exec %s/reference_bot --legacy" % args.build]
    ways = {"cgroups": [], "per-process": ["--unfair-per-process-limits"]}
    seconds = {way: 0.0 for way in ways}
    games = {way: 0 for way in ways}
    wins = {way: 0 for way in ways}
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        for round_ in range(args.rounds):
            order = list(ways) if round_ % 2 == 0 else list(reversed(ways))
            for way in order:
                db = os.path.join(folder, "%s-%d.db" % (way, round_))
                started = time.monotonic()
                run = subprocess.run(
                    [tournament, "run", "--db", db, "--seed", str(round_ + 1), "--deals",
                     str(args.deals), "--concurrency", str(args.concurrency), "--rating-interval",
                     "100000", "--json"] + bots + ways[way],
                    capture_output=True, text=True)
                seconds[way] += time.monotonic() - started
                if run.returncode != 0:
                    sys.exit("shares_bench: the %s tournament failed:\n%s" % (way, run.stderr))
                for bot in json.loads(run.stdout)["bots"]:
                    if bot["name"] == "v2":
                        games[way] += bot["games"]
                        wins[way] += bot["wins"]
    print("%d rounds of %d two-player games, %d at once: the reference bot, v2 against legacy"
          % (args.rounds, 2 * args.deals, args.concurrency))
    intervals = {}
    for way in ways:
        low, high = wilson(wins[way], games[way])
        intervals[way] = (wins[way] / games[way], low, high)
        print("  %-12s %6.2f games/s   v2 wins %5.1f%% [%5.1f, %5.1f]" % (
            way, games[way] / seconds[way], 100 * intervals[way][0], 100 * low, 100 * high))
    rate = {way: games[way] / seconds[way] for way in ways}
    (p1, l1, u1), (p2, l2, u2) = intervals["cgroups"], intervals["per-process"]
    difference = p1 - p2
    low = difference - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = difference + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    print("  games per second, cgroups against per-process: %.3fx" % (
        rate["cgroups"] / rate["per-process"]))
    print("  win rate difference %+.1f points [%+.1f, %+.1f]: %s" % (
        100 * difference, 100 * low, 100 * high,
        "they agree" if low <= 0 <= high else "they DISAGREE"))


if __name__ == "__main__":
    main()
