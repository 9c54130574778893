#!/usr/bin/env python3
"""A remote seat over the loopback against a pipe, in one run (docs/remote.md).

Every game is the host with its server (host --serve 127.0.0.1:0, host-live), two of the
bench's bots (bench/peel_bot: staircase peels, legal under a word list of every two-letter
string), unsandboxed and without cgroups (--no-sandbox --unfair-per-process-limits: the remote
bot, started by bananagrams-connect, has neither, and the pipe's must not be slowed by them
alone). The two kinds of game alternate, so that the machine's noise falls on both.

1. The peel round trip: player 1 is `peel_bot time N`, which peels N times and times each peel
   until its next tile comes, on a pipe or behind bananagrams-connect; player 2 says `r` and
   never peels, so that every tile player 1 is dealt is its own peel's. p50 and p99 of every
   round trip of each kind, and their ratios.
2. A game's length, from the deal to the result (the log's times), between two `peel_bot play`
   with three sets of tiles (a longer game: 432 tiles): both on pipes, or player 1 remote.
   Medians, and their ratio.
3. The same all-pipe game beside 100 idle connections (open, never finishing their request) and
   a stream of refused ones (a wrong token every 10 ms), against the same game without them:
   medians, and their ratio.

    remote_bench.py BUILD_DIR [--games N] [--peels N] [--quick]
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TWO_LETTERS = os.path.join(SOURCE, "tests", "data", "two_letters.txt")
sys.path.insert(0, os.path.join(SOURCE, "tests"))
from ws_client import handshake_bytes  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from served import served_port  # noqa: E402

TOKEN = "remote_bench_token_0000000000"


def game(build, folder, first, second, remote, before_start=None, sets=1):
    """Plays one game; (its length from the deal to the result in seconds, the host's port)."""
    log = os.path.join(folder, "game.jsonl")
    argv = [os.path.join(build, "host"), "--serve", "127.0.0.1:0", "--dict", TWO_LETTERS,
            "--sets", str(sets),
            "--no-sandbox", "--unfair-per-process-limits", "--quiet", "--log", log,
            "remote:" + TOKEN if remote else first, second]
    host = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = served_port(host.stderr, "remote_bench", "host")
    if before_start:
        before_start(port)
    bot = None
    if remote:
        bot = subprocess.Popen([os.path.join(build, "connect"), "--retry", "5",
                                "ws://127.0.0.1:%d/seat/%s" % (port, TOKEN), "--", first],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    host.stderr.read()
    host.wait()
    if bot:
        bot.wait()
    if host.returncode != 0:
        sys.exit("remote_bench: the host exited %d" % host.returncode)
    dealt = end = None
    with open(log) as f:
        for line in f:
            record = json.loads(line)
            decision = record.get("decision", {})
            if decision.get("type") == "hands_dealt" and dealt is None:
                dealt = record["t"]
            if "result" in record:
                end = record["t"]
    return (end - dealt) / 1e9, port


class Crowd:
    """100 idle connections, and a wrong token every 10 ms, at a port, until stopped."""

    def __init__(self, port):
        self.port, self.stopping, self.refused = port, False, 0
        self.idle = []
        for _ in range(100):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /seat/" + TOKEN.encode() + b" HTTP/1.1\r\nHost: x\r\n")
            self.idle.append(s)
        self.thread = threading.Thread(target=self.refusals, daemon=True)
        self.thread.start()

    def refusals(self):
        while not self.stopping:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                    s.sendall(handshake_bytes("127.0.0.1", self.port, "/seat/wrong_token_%016d"
                                              % self.refused))
                    s.recv(64)
                    self.refused += 1
            except OSError:
                return
            time.sleep(0.01)

    def stop(self):
        self.stopping = True
        self.thread.join()
        for s in self.idle:
            s.close()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--peels", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 games of each")
    args = parser.parse_args()
    if args.quick:
        args.games, args.peels = 2, 10
    peel_bot = os.path.join(args.build, "bench", "peel_bot")
    folder = tempfile.mkdtemp(prefix="remote-bench-")
    play = "exec %s play" % peel_bot
    idle = "exec sh -c 'printf r; exec sleep 600'"

    # 1. The peel round trip.
    trips = {"pipe": [], "remote": []}
    for i in range(args.games):
        for kind in ("pipe", "remote") if i % 2 == 0 else ("remote", "pipe"):
            out = os.path.join(folder, "trips-%s" % kind)
            game(args.build, folder, "exec %s time %d %s" % (peel_bot, args.peels, out), idle,
                 kind == "remote")
            with open(out) as f:
                trips[kind] += [int(line) / 1e3 for line in f if line.strip()]
    print("peel round trip, %d peels of each, microseconds:" % len(trips["pipe"]))
    for p in (50, 99):
        pipe, remote = percentile(trips["pipe"], p), percentile(trips["remote"], p)
        print("  p%d: pipe %.0f, remote %.0f, remote / pipe %.2fx" % (p, pipe, remote,
                                                                       remote / pipe))

    # 2. A game's length.
    lengths = {"pipe": [], "remote": []}
    for i in range(args.games):
        for kind in ("pipe", "remote") if i % 2 == 0 else ("remote", "pipe"):
            lengths[kind].append(game(args.build, folder, play, play, kind == "remote",
                                      sets=3)[0])
    pipe, remote = statistics.median(lengths["pipe"]), statistics.median(lengths["remote"])
    print("a game's length, 3 sets, deal to result, %d games of each: pipe %.1f ms, player 1 remote "
          "%.1f ms, remote / pipe %.2fx" % (args.games, pipe * 1e3, remote * 1e3, remote / pipe))

    # 3. Beside idle and refused connections.
    crowds = []

    def crowd(port):
        crowds.append(Crowd(port))

    lengths = {"quiet": [], "crowded": []}
    for i in range(args.games):
        for kind in ("quiet", "crowded") if i % 2 == 0 else ("crowded", "quiet"):
            length, _ = game(args.build, folder, play, play, False,
                             crowd if kind == "crowded" else None, sets=3)
            lengths[kind].append(length)
            while crowds:
                crowds.pop().stop()
    quiet, crowded = statistics.median(lengths["quiet"]), statistics.median(lengths["crowded"])
    print("a game, 3 sets, beside 100 idle connections and a refused one every 10 ms, %d games of each: "
          "%.1f ms, alone %.1f ms, beside / alone %.2fx" % (args.games, crowded * 1e3,
                                                            quiet * 1e3, crowded / quiet))


if __name__ == "__main__":
    main()
