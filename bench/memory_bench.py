#!/usr/bin/env python3
"""What a bot gains by remembering a deal it has played, when a match plays the deal's rotations.

A match plays one deal in every seat rotation; a remote bot can keep what it saw of the deal
however it is told to start fresh. What it saw is its own seat's tiles: its hand, each peel's
tile, each dump's three. Each later rotation seats it where it has never sat, so none of that is
its new hand or its new peel tiles; it is its opponents' tiles, and where in the bunch's order
each lay, which foretells some of the tiles a dump will bring. The reference bot's --remember
uses exactly that (docs/arena.md): it keeps where in the bunch each tile it drew was, and, in a
later rotation, dumps the letter that lays out best with the tiles it foresees a dump bringing.

For each deal and each seat the cheat starts from, it plays the deal's rotations in a row,
remembering (its sightings in a file that every rotation adds to), against reference bots that
start fresh; then each later rotation again with the same bot forgetting (the same file option,
empty): the same deal, seats, opponents and seeds, only the memory differs. Its gain is its
score (first 1, last 0) remembering minus forgetting, paired per rotation, with a 95% interval;
beside it, how many of those games it foresaw a dump's tiles at all, changed its dump, and
foresaw right. First it checks the sightings: one deal played twice with every seat
remembering, a seat sees the same places hold the same tiles both times, and two seats never
the same place.

    memory_bench.py BUILD_DIR [--deals N] [--players P] [--level L] [--quick]

Release build, one game at a time (games are races: the bots' speed decides them).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

FORESAW = re.compile(r"\[player (\d+)\] reference_bot: foresaw (\w+), dumped (\w) "
                     r"\((changed|as usual)\), drew (\w+) \((right|wrong)\)")


def play(build, seed, bots):
    """One game with `bots` (command lines) in seat order: (places, foresight lines by seat)."""
    argv = [os.path.join(build, "host"), "--no-sandbox", "--json", "--seed", str(seed)] + bots
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode not in (0, 3):
        sys.exit("memory_bench: host failed (%d):\n%s" % (done.returncode, done.stderr[-2000:]))
    result = json.loads(done.stdout)
    places = [player.get("rank") or None for player in result["players"]]
    foresight = {}
    for match in FORESAW.finditer(done.stderr):
        foresight.setdefault(int(match.group(1)) - 1, []).append(match.groups()[1:])
    return places, foresight


def score(place, players):
    """First 1, last 0, between evenly; out of the game (no place) 0."""
    return 0.0 if place is None else (players - place) / (players - 1)


def seats_for(rotation, start, players):
    """The seat the cheat takes in `rotation`: each rotation one further, as the arena's."""
    return (start + rotation) % players


def lineup(build, level, players, cheat_seat, cheat):
    """Command lines in seat order: the cheat (its own command) and fresh reference bots."""
    bot = os.path.join(build, "reference_bot")
    commands = []
    for seat in range(players):
        if seat == cheat_seat:
            commands.append(cheat)
        else:
            commands.append("%s --level %d --seed %d" % (bot, level, 7 + seat))
    return commands


def remembering(build, level, players, seat, path):
    return "%s --level %d --seed 3 --remember %s --seat %d --players %d" % (
        os.path.join(build, "reference_bot"), level, path, seat, players)


def check_sightings(build, level, players, folder):
    """Every seat remembering, one deal twice: a place holds one tile, seen from one seat."""
    seen = []
    for run in range(2):
        paths = [os.path.join(folder, "check-%d-%d" % (run, seat)) for seat in range(players)]
        play(build, 99, [remembering(build, level, players, seat, paths[seat])
                         for seat in range(players)])
        places = []
        for path in paths:
            with open(path) as lines:
                places.append({int(line.split()[1]): line.split()[2]
                               for line in lines if line.startswith("T ")})
        seen.append(places)
    for seat in range(players):
        first, second = seen[0][seat], seen[1][seat]
        both = set(first) & set(second)
        # Before any dump the same seat draws the same places; a dump moves the rest.
        agree = sum(first[p] == second[p] for p in both)
        if not first or agree < min(len(first), len(second)) // 2:
            sys.exit("memory_bench: seat %d's sightings disagree between two plays of one deal "
                     "(%d of %d places agree)" % (seat, agree, len(both)))
        for other in range(seat + 1, players):
            if set(first) & set(seen[0][other]):
                sys.exit("memory_bench: seats %d and %d both saw places %s" % (
                    seat, other, sorted(set(first) & set(seen[0][other]))[:5]))
    print("sightings: %s places a seat in one deal, the same tiles when it is played again" %
          "/".join(str(len(places)) for places in seen[0]))


def mean_interval(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1 deal")
    args = parser.parse_args()
    deals = 1 if args.quick else args.deals
    players = args.players
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="memory-bench-") as folder:
        check_sightings(args.build, args.level, players, folder)
        differences = []      # per later rotation: remembering's score less forgetting's
        games = {"foresaw": 0, "changed": 0, "dumps_foreseen": 0, "right": 0}
        first_rotation = []   # the cheat's score where it remembers nothing yet
        for deal in range(1, deals + 1):
            for start in range(players):
                memory = os.path.join(folder, "deal-%d-%d" % (deal, start))
                for rotation in range(players):
                    seat = seats_for(rotation, start, players)
                    cheat = remembering(args.build, args.level, players, seat, memory)
                    places, foresight = play(args.build, deal,
                                             lineup(args.build, args.level, players, seat, cheat))
                    with_memory = score(places[seat], players)
                    if rotation == 0:
                        first_rotation.append(with_memory)
                        continue
                    empty = os.path.join(folder, "empty-%d-%d-%d" % (deal, start, rotation))
                    cheat = remembering(args.build, args.level, players, seat, empty)
                    places_fresh, _ = play(args.build, deal,
                                           lineup(args.build, args.level, players, seat, cheat))
                    differences.append(with_memory - score(places_fresh[seat], players))
                    lines = foresight.get(seat, [])
                    games["foresaw"] += bool(lines)
                    games["changed"] += any(line[2] == "changed" for line in lines)
                    games["dumps_foreseen"] += len(lines)
                    games["right"] += sum(line[4] == "right" for line in lines)
    gain, half = mean_interval(differences)
    later = len(differences)
    print("%d deals, %d players, reference bot level %d, %d later rotations, %.0f s" % (
        deals, players, args.level, later, time.monotonic() - started))
    print("first rotation (nothing remembered yet): mean score %.3f over %d games" % (
        sum(first_rotation) / len(first_rotation), len(first_rotation)))
    print("later rotations: foresaw a dump's tiles in %d games (%.1f%%), changed its dump in %d;"
          " %d dumps foreseen, %d of them right" % (
              games["foresaw"], 100.0 * games["foresaw"] / later, games["changed"],
              games["dumps_foreseen"], games["right"]))
    print("gain from remembering: %+.3f of a game's score (95%% interval %+.3f to %+.3f)" % (
        gain, gain - half, gain + half))


if __name__ == "__main__":
    main()
