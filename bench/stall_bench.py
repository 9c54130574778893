#!/usr/bin/env python3
"""What the stall timeout must wait for: in games of the bundled bots (the reference bot, the
Python v2, C++, JavaScript and Go examples, round-robin, both seatings, one game at a time, on
the default word list, --stall-timeout 0 so that no game is cut short), the longest time a bot
took to have a peel accepted once the bunch could no longer serve a dump: from the moment the
bunch fell below three tiles, or from the last peel accepted since, to the next accepted peel.
A stall timeout longer than every such wait ends no game that would have gone on; the games
that instead ran to their clock are those it ends early.

    stall_bench.py BUILD_DIR [--deals N] [--seed S] [--game-timeout SECONDS] [--bots ref,py2,...]

Prints each bot's waits (count, median, 99th percentile, longest, the game of the longest) and
the games that ran to the clock with the bunch short. Measure the Release build.
"""
import argparse
import collections
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

import bundled_bots


def waits(log):
    """(player, wait in seconds) for each accepted peel once the bunch could not serve a dump;
    and whether the game ran to its clock with the bunch short. The bunch is followed from the
    decisions: a peel says what it left, a dump served takes two, a refusal says it (a player
    put out gives its tiles back: the bundled bots are never put out here)."""
    records = [json.loads(line) for line in open(log)]
    start = records[0]["start"]
    bunch = None
    since = None  # when the bunch fell short, or the last accepted peel since
    found = []
    clock = False
    for record in records:
        decision = record.get("decision")
        if decision is None:
            continue
        t = record["t"] / 1e9
        kind = decision["type"]
        if kind == "hands_dealt":
            bunch = 144 * max(start["sets"], 1) - sum(len(h) for h in decision["hands"])
        elif kind == "peel_accepted":
            if since is not None:
                found.append((decision["player"], t - since))
            bunch = decision["bunch"]
        elif kind == "dumped":
            bunch -= 2
        elif kind == "dump_refused":
            bunch = decision["bunch"]
        elif kind == "game_over":
            clock = decision["end"] == "game_timeout" and since is not None
        if bunch is not None and bunch < 3 and (since is None or kind == "peel_accepted"):
            since = t
    return found, clock


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game-timeout", type=int, default=300)
    parser.add_argument("--bots", default="ref,py2,cpp,js,go")
    args = parser.parse_args()
    build = os.path.realpath(args.build)
    names = args.bots.split(",")
    with tempfile.TemporaryDirectory(dir=build) as folder:
        os.chmod(folder, 0o755)  # as root, the bots run as nobody, who must reach the logs' folder
        db = os.path.join(folder, "stall.db")
        logs = os.path.join(folder, "logs")
        command = [os.path.join(build, "tournament"), "run", "--db", db, "--logs", logs,
                   "--deals", str(args.deals), "--seed", str(args.seed), "--concurrency", "1",
                   "--game-timeout", str(args.game_timeout), "--stall-timeout", "0",
                   "--rating-interval", "1000000", "--json"]
        for name in names:
            command += ["--bot", "%s=%s" % (name, bundled_bots.command(build, name))]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("stall_bench: the tournament failed:\n%s" % run.stderr)
        listed = json.loads(subprocess.run(
            [os.path.join(build, "tournament"), "games", "--db", db, "--json"],
            capture_output=True, text=True, check=True).stdout)
        seats = {g["id"]: [s["bot"] for s in g["seats"]] for g in listed}
        by_bot = collections.defaultdict(list)
        clocked = []
        for log in sorted(glob.glob(os.path.join(logs, "*.jsonl"))):
            game = int(os.path.basename(log).split("-")[1].split(".")[0])
            found, clock = waits(log)
            for player, wait in found:
                by_bot[seats[game][player]].append((wait, game))
            if clock:
                clocked.append(game)
    print("%d games (%s, round-robin, %d deals in both seatings), --stall-timeout 0" %
          (len(listed), ",".join(names), args.deals))
    longest = 0.0
    for bot in names:
        found = sorted(by_bot[bot])
        if not found:
            print("  %-4s no accepted peel with the bunch short" % bot)
            continue
        values = [w for w, _ in found]
        p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
        longest = max(longest, values[-1])
        print("  %-4s %3d waits: median %.2f s, 99th percentile %.2f s, longest %.2f s (game %d)"
              % (bot, len(values), statistics.median(values), p99, values[-1], found[-1][1]))
    print("longest wait for an accepted peel with the bunch short: %.2f s" % longest)
    print("games that ran to the clock with the bunch short (a stall timeout ends them early): "
          "%d of %d %s" % (len(clocked), len(listed), clocked))


if __name__ == "__main__":
    main()
