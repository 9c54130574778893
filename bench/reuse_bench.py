#!/usr/bin/env python3
"""Bots that stay for a match (protocol v004) against bots started for every game, in one run.

1. The bench's trivial bots (bench/peel_bot stay: v004, staircase peels, legal under a word list
   of every two-letter string) in a tournament of --games games, one at a time: games a second
   with v004 reuse, and with --fresh-bots; sandboxed with cgroups (the default), and with
   neither (--no-sandbox --unfair-per-process-limits). Beside them the floor that no host which
   starts processes for every game can pass: spawning and reaping the same two processes for
   each game (sh -c "exec peel_bot stay", its input ended at once), and nothing else; in the
   host's sandbox (bwrap's command line as the host runs it, read from /proc, but no cgroup:
   a floor still), and bare.
2. The bundled bots, asking for v004, on the default word list, games at once as many as CPUs,
   the same deals with and without --fresh-bots:
   a. speed: the reference bot against itself at full strength, --speed-deals deals (both
      seatings): games a second;
   b. fairness: the reference bot at --level against the Python example (a level where both
      win games), --deals deals: each mode's win rate of the reference bot (Wilson 95%), and the
      difference of the two with its 95% interval (a paired bootstrap over deals: the same
      deals in both).

    reuse_bench.py BUILD_DIR [--games N] [--speed-deals D] [--deals D] [--level L] [--quick]

--speed-deals 0 or --deals 0 leaves that part out.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from bundled_bots import command
from intervals import wilson

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TWO_LETTERS = os.path.join(SOURCE, "tests", "data", "two_letters.txt")


def tournament(build, folder, name, bots, deals, options):
    """Plays a tournament; (its games as games --json lists them, seconds it took)."""
    db = os.path.join(folder, name + ".db")
    argv = [os.path.join(build, "tournament"), "run", "--db", db, "--deals", str(deals),
            "--rating-interval", "1000000", "--json"] + options
    for bot_name, bot in bots:
        argv += ["--bot", "%s=%s" % (bot_name, bot)]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        sys.exit("reuse_bench: the tournament %s failed:\n%s" % (name, done.stderr))
    games = json.loads(subprocess.run(
        [os.path.join(build, "tournament"), "games", "--db", db, "--json"],
        capture_output=True, text=True, check=True).stdout)
    return games, seconds


def spawn_floor(argv, games):
    """Games a second of spawning and reaping two processes of `argv` a game, nothing else."""
    started = time.monotonic()
    for _ in range(games):
        pair = [subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, close_fds=False) for _ in range(2)]
        for child in pair:
            if child.wait() != 0:
                sys.exit("reuse_bench: %s exited with status %d" % (argv, child.returncode))
    return games / (time.monotonic() - started)


def sandboxed_argv(build, bot):
    """The command line the host starts a player with in its sandbox (bwrap's, read from /proc
    while a game of sleepers runs), for `bot`; without bwrap's --info-fd, which reports to the
    host alone."""
    host = subprocess.Popen([os.path.join(build, "host"), "--quiet", "--dict", TWO_LETTERS,
                             "--game-timeout", "20", "exec sleep 10", "exec sleep 10"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(500):
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open("/proc/%s/stat" % pid) as stat:
                        parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                    with open("/proc/%s/cmdline" % pid, "rb") as cmdline:
                        argv = cmdline.read().decode().split("\0")[:-1]
                except (OSError, IndexError, ValueError):
                    continue
                if parent == host.pid and argv and argv[0].endswith("bwrap"):
                    at = argv.index("--info-fd")
                    return argv[:at] + argv[at + 2:-1] + [bot]
            time.sleep(0.01)
        sys.exit("reuse_bench: the host's sandboxed players were not found")
    finally:
        host.terminate()
        host.wait()


def wins_by_deal(games, bot):
    """For each deal: (games of it, the games `bot` won)."""
    deals = {}
    for game in games:
        won = game["winner_seat"] is not None and game["seats"][game["winner_seat"]]["bot"] == bot
        n, w = deals.get(game["deal"], (0, 0))
        deals[game["deal"]] = (n + 1, w + int(won))
    return deals


def paired_difference(reused, fresh, rounds=4000):
    """The difference of win rates, reused minus fresh, and its 95% bootstrap interval over the
    deals both played."""
    deals = sorted(set(reused) & set(fresh))
    rng = random.Random(1)

    def rate(table, sample):
        n = sum(table[d][0] for d in sample)
        return sum(table[d][1] for d in sample) / n

    point = rate(reused, deals) - rate(fresh, deals)
    spread = sorted(
        rate(reused, s) - rate(fresh, s)
        for s in ([rng.choice(deals) for _ in deals] for _ in range(rounds)))
    return point, spread[int(0.025 * rounds)], spread[int(0.975 * rounds) - 1]


def trivial(build, folder, games):
    bot = "exec %s/bench/peel_bot stay" % build
    bots = [("a", bot), ("b", bot)]
    print("1. %d games of bench/peel_bot stay against itself, one at a time (build %s)"
          % (games, build))
    rates = {}
    for sandboxed in (True, False):
        extra = [] if sandboxed else ["--no-sandbox", "--unfair-per-process-limits"]
        for fresh in (False, True):
            name = "trivial-%s-%s" % ("sandbox" if sandboxed else "bare",
                                      "fresh" if fresh else "reuse")
            played, seconds = tournament(
                build, folder, name, bots, games // 2,
                ["--dict", TWO_LETTERS, "--concurrency", "1"] + extra
                + (["--fresh-bots"] if fresh else []))
            # Kept: a process plays the first rotations of up to 16 deals, then fresh ones the
            # next rotations (no process plays a deal twice, since 1.7.0).
            kept = [s["process_game"] for game in played for s in game["seats"]]
            if (fresh and set(kept) != {1}) or (not fresh and max(kept) < min(16, games // 2)):
                sys.exit("reuse_bench: %s did not keep (or start afresh) its bots" % name)
            rates[(sandboxed, fresh)] = len(played) / seconds
    floors = {True: spawn_floor(sandboxed_argv(build, bot), games),
              False: spawn_floor(["sh", "-c", bot], games)}
    for sandboxed in (True, False):
        label = "sandbox and cgroups" if sandboxed else "no sandbox, no cgroups"
        reused, fresh = rates[(sandboxed, False)], rates[(sandboxed, True)]
        print("  %-24s v004 reuse %7.1f games/s, --fresh-bots %6.1f games/s: %5.2fx; spawn"
              " floor %6.1f games/s: reuse %.2fx it" % (label, reused, fresh, reused / fresh,
                                                       floors[sandboxed],
                                                       reused / floors[sandboxed]))
    print("  (the floor: two processes spawned and reaped a game, and nothing else; the sandboxed"
          " one without cgroups)")


def bundled_speed(build, folder, deals):
    bots = [("ref1", command(build, "ref")), ("ref2", command(build, "ref"))]
    print("2a. the reference bot against itself, %d deals (%d games) a mode, games at once as"
          " many as CPUs, default word list" % (deals, 2 * deals))
    rates = []
    for fresh in (False, True):
        played, seconds = tournament(build, folder, "speed-%d" % fresh, bots, deals,
                                     ["--seed", "7"] + (["--fresh-bots"] if fresh else []))
        rates.append(len(played) / seconds)
        print("  %-12s %6.2f games/s" % ("--fresh-bots" if fresh else "v004 reuse", rates[-1]))
    print("  reuse against --fresh-bots: %.2fx" % (rates[0] / rates[1]))


def bundled(build, folder, deals, level):
    reference = command(build, "ref", "--level %d" % level)
    example = command(build, "py2")
    bots = [("reference", reference), ("python", example)]
    print("2b. the reference bot (--level %d) against the Python example, %d deals (%d games) a"
          " mode, games at once as many as CPUs, default word list" % (level, deals, 2 * deals))
    results = {}
    for fresh in (False, True):
        name = "bundled-%s" % ("fresh" if fresh else "reuse")
        played, seconds = tournament(build, folder, name, bots, deals,
                                     ["--seed", "7"] + (["--fresh-bots"] if fresh else []))
        results[fresh] = (played, seconds)
    for fresh in (False, True):
        played, seconds = results[fresh]
        won = sum(n_w[1] for n_w in wins_by_deal(played, "reference").values())
        low, high = wilson(won, len(played))
        python = sum(n_w[1] for n_w in wins_by_deal(played, "python").values())
        print("  %-12s %6.2f games/s; reference wins %3d of %d (%.1f%% [%.1f, %.1f]), python %d"
              % ("--fresh-bots" if fresh else "v004 reuse", len(played) / seconds, won,
                 len(played), 100 * won / len(played), 100 * low, 100 * high, python))
    ratio = (len(results[False][0]) / results[False][1]) / (len(results[True][0]) /
                                                            results[True][1])
    point, low, high = paired_difference(wins_by_deal(results[False][0], "reference"),
                                         wins_by_deal(results[True][0], "reference"))
    print("  reuse against --fresh-bots: %.2fx the games a second; the reference bot's win rate"
          " differs by %+.1f points [%+.1f, %+.1f] (reuse minus fresh)"
          % (ratio, 100 * point, 100 * low, 100 * high))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--speed-deals", type=int, default=50)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--level", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="a smoke run: a few games each")
    args = parser.parse_args()
    if args.quick:
        args.games, args.speed_deals, args.deals = 8, 2, 1
    if args.games < 2 or args.games % 2:
        sys.exit("reuse_bench: --games must be even and at least 2")
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        trivial(args.build, folder, args.games)
        if args.speed_deals > 0:  # 0: not measured
            bundled_speed(args.build, folder, args.speed_deals)
        if args.deals > 0:
            bundled(args.build, folder, args.deals, args.level)


if __name__ == "__main__":
    main()
