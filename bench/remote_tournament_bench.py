#!/usr/bin/env python3
"""A tournament with a remote bot (bananagrams-connect --games 0) against the same tournament
with both bots local, in one run; and, given another build (a baseline commit's), the same for
it, the builds alternating, so that the machine's noise falls on each.

Every tournament is two of the bench's bots (bench/peel_bot play: staircase peels, legal under a
word list of every two-letter string), --deals N (2N games), --concurrency 2, unsandboxed and
without cgroups (the remote bot, started by bananagrams-connect, has neither). The remote bot
connects through a relay on the loopback that counts its TCP connections: a host with sessions
(1.6.0) is connected to once for all of the bot's games, one before them once a game (told to
try again between games). Each run prints its games per second, remote and local, and the
connections; the summary, for each build, the medians and the ratio remote / local.

    remote_tournament_bench.py BUILD_DIR [--baseline OTHER_BUILD] [--deals N] [--runs N] [--quick]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TWO_LETTERS = os.path.join(SOURCE, "tests", "data", "two_letters.txt")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from served import served_port  # noqa: E402
sys.path.insert(0, os.path.join(SOURCE, "tests"))
from remote_host import Proxy  # noqa: E402
TOKEN = "remote_tournament_bench_000000"


class Relay(Proxy):
    """Forwards every connection to `upstream` on the loopback, counting them."""

    def __init__(self, upstream):
        self.connections = 0
        super().__init__(upstream)

    def take(self, client):
        self.connections += 1
        super().take(client)

    def close(self):
        self.listener.close()


def tournament(build, folder, deals, remote):
    """One tournament: (games per second, the remote bot's TCP connections or None, whether its
    bananagrams-connect had to be stopped)."""
    play = "exec %s play" % os.path.join(build, "bench", "peel_bot")
    db = os.path.join(folder, "t.db")
    if os.path.exists(db):
        os.remove(db)
    argv = [os.path.join(build, "tournament"), "run", "--db", db, "--deals", str(deals),
            "--concurrency", "2", "--dict", TWO_LETTERS, "--no-sandbox",
            "--unfair-per-process-limits", "--serve", "127.0.0.1:0",
            "--bot", ("far=remote:" + TOKEN) if remote else "far=" + play, "--bot", "near=" + play]
    began = time.monotonic()
    runner = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    relay = bot = None
    if remote:
        relay = Relay(served_port(runner.stderr, "remote_tournament_bench", "tournament"))
        bot = subprocess.Popen([os.path.join(build, "connect"), "--games", "0", "--retry", "5",
                                "ws://127.0.0.1:%d/seat/%s" % (relay.port, TOKEN), "--", play],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    runner.stderr.read()
    runner.wait()
    elapsed = time.monotonic() - began
    stuck = False
    if bot:
        # A bananagrams-connect before sessions may try again for a game after the last, until
        # --retry, and 1.5.0's may then not heed SIGTERM: it is not waited for, and killed.
        try:
            bot.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            stuck = True
            bot.terminate()
            try:
                bot.communicate(timeout=5)
            except subprocess.TimeoutExpired:
                bot.kill()
                bot.communicate()
    if relay:
        relay.close()
    if runner.returncode != 0:
        sys.exit("remote_tournament_bench: the tournament exited %d" % runner.returncode)
    return 2 * deals / elapsed, relay.connections if relay else None, stuck


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--baseline", help="another build, measured in the same run")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 deals, 1 run")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.runs = 2, 1
    builds = [("this", args.build)] + ([("baseline", args.baseline)] if args.baseline else [])
    folder = tempfile.mkdtemp(prefix="remote-tournament-bench-")
    rates = {name: {"remote": [], "local": []} for name, _ in builds}
    connections = {name: [] for name, _ in builds}
    for run in range(args.runs):
        order = builds if run % 2 == 0 else builds[::-1]
        for name, build in order:
            for remote in (True, False) if run % 2 == 0 else (False, True):
                rate, made, stuck = tournament(build, folder, args.deals, remote)
                rates[name]["remote" if remote else "local"].append(rate)
                if remote:
                    connections[name].append(made)
                print("run %d, %s build, %s: %.1f games/s%s" % (
                    run + 1, name, "remote" if remote else "local", rate,
                    ", %d connections for %d games" % (made, 2 * args.deals) if remote else ""),
                    flush=True)
                if stuck:
                    print("  (its bananagrams-connect did not stop by itself within 10 s of the "
                          "end: stopped)", flush=True)
    print("%d games a tournament, %d runs, medians:" % (2 * args.deals, args.runs))
    for name, _ in builds:
        remote = statistics.median(rates[name]["remote"])
        local = statistics.median(rates[name]["local"])
        print("  %s build: remote %.1f games/s, local %.1f, remote / local %.2fx; connections %s"
              % (name, remote, local, remote / local, connections[name]))
    if args.baseline:
        this = statistics.median(rates["this"]["remote"])
        base = statistics.median(rates["baseline"]["remote"])
        print("  remote games/s, this build / baseline: %.2fx" % (this / base))


if __name__ == "__main__":
    main()
