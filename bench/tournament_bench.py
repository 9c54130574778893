#!/usr/bin/env python3
"""Games per second of the tournament runner (many games at once on one loop, in one process)
against the baseline of the same games played by separate host processes, two at a time,
measured in the same run; and the runner's peak RSS.

    tournament_bench.py BUILD_DIR WORDLIST [--games N] [--concurrency N] [--no-sandbox]

The bots are bench/peel_bot's legacy staircase players, which peel at once under a word list of
every two-letter string: the figures are the referee's and the processes' cost, not the bots'.
Both sides play the same games (seed and seating from the tournament's database), sandboxed
unless --no-sandbox.
"""
import argparse
import concurrent.futures
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("wordlist")
    parser.add_argument("--games", type=int, default=512)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--no-sandbox", action="store_true")
    args = parser.parse_args()
    if args.games < 2 or args.games % 2:
        sys.exit("tournament_bench: --games must be even and at least 2")
    bot = "exec %s/bench/peel_bot play" % args.build
    sandbox = ["--no-sandbox"] if args.no_sandbox else []

    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        db = os.path.join(folder, "bench.db")
        command = [os.path.join(args.build, "tournament"), "run", "--db", db,
                   "--dict", args.wordlist, "--bot", "a=" + bot, "--bot", "b=" + bot,
                   "--deals", str(args.games // 2), "--concurrency", str(args.concurrency),
                   "--rating-interval", str(args.games), "--json"] + sandbox
        started = time.monotonic()
        runner = subprocess.run(command, capture_output=True, text=True)
        runner_seconds = time.monotonic() - started
        if runner.returncode != 0:
            sys.exit("tournament_bench: the tournament failed:\n" + runner.stderr)
        # ru_maxrss of the children waited for: the runner's own (it reaps its players).
        rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        games = json.loads(subprocess.run(
            [os.path.join(args.build, "tournament"), "games", "--db", db, "--json"],
            capture_output=True, text=True, check=True).stdout)

    host = os.path.join(args.build, "host")

    def play(game):
        return subprocess.run(
            [host, "--quiet", "--json", "--seed", str(game["seed"]), "--dict", args.wordlist]
            + sandbox + [bot for _ in game["seats"]],
            capture_output=True, text=True).returncode

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        statuses = list(pool.map(play, games))
    hosts_seconds = time.monotonic() - started
    if any(statuses):
        sys.exit("tournament_bench: a host game failed: statuses %s" % sorted(set(statuses)))

    n = len(games)
    print("%d two-player games of staircase bots%s" % (n, " (no sandbox)" if sandbox else ""))
    print("  separate hosts, 2 at a time:   %7.1f games/s (%.2f s)" % (n / hosts_seconds,
                                                                      hosts_seconds))
    print("  tournament, %3d at once:       %7.1f games/s (%.2f s)" % (
        args.concurrency, n / runner_seconds, runner_seconds))
    print("  ratio: %.2fx; the runner's peak RSS: %.1f MiB" % (hosts_seconds / runner_seconds,
                                                              rss_mib))


if __name__ == "__main__":
    main()
