#!/usr/bin/env python3
"""What serving a tournament live costs its games: the same tournament of the reference bot
(protocol v2 against itself in the legacy protocol, on the default word list) played without
--serve and with --serve and five clients that connect to its event stream and never read, in
alternating rounds so that the machine's noise falls on both alike. The games must never wait
for a spectator: the served way should take about as long (issue 23 asks at most 1.2x).

    live_bench.py BUILD_DIR [--rounds N] [--deals N] [--concurrency N] [--clients N]

Prints each way's games per second and the ratio of the times, and what the server said of its
streams (the stalled ones are dropped once their queue is full).
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time


def play(tournament, db, seed, args, bots, serve):
    command = [tournament, "run", "--db", db, "--seed", str(seed), "--deals", str(args.deals),
               "--concurrency", str(args.concurrency), "--rating-interval", "100000",
               "--json"] + bots
    if serve:
        command += ["--serve", "127.0.0.1:0"]
    started = time.monotonic()
    runner = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stalled = []
    if serve:
        said = runner.stderr.readline()
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", said).group(1))
        for _ in range(args.clients):
            s = socket.create_connection(("127.0.0.1", port))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
            stalled.append(s)  # and never read
    out, err = runner.communicate()
    seconds = time.monotonic() - started
    for s in stalled:
        s.close()
    if runner.returncode != 0:
        sys.exit("live_bench: a tournament failed:\n" + err)
    served = re.search(r"the live server sent .*", err)
    return seconds, served.group(0) if served else ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--clients", type=int, default=5)
    args = parser.parse_args()
    tournament = os.path.join(args.build, "tournament")
    bots = ["--bot", "v2=exec %s/reference_bot" % args.build,
            "--bot", "legacy=exec %s/reference_bot --legacy" % args.build]
    seconds = {"plain": 0.0, "served": 0.0}
    said = []
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        for round_ in range(args.rounds):
            order = ["plain", "served"] if round_ % 2 == 0 else ["served", "plain"]
            for way in order:
                db = os.path.join(folder, "%s-%d.db" % (way, round_))
                took, line = play(tournament, db, round_ + 1, args, bots, way == "served")
                seconds[way] += took
                if line:
                    said.append(line)
    games = args.rounds * 2 * args.deals
    print("%d rounds of %d two-player games, %d at once: the reference bot, v2 against legacy"
          % (args.rounds, 2 * args.deals, args.concurrency))
    print("  without --serve                      %6.2f games/s" % (games / seconds["plain"]))
    print("  --serve, %d clients that never read   %6.2f games/s" % (
        args.clients, games / seconds["served"]))
    print("  time with them against without: %.3fx" % (seconds["served"] / seconds["plain"]))
    for line in said:
        print("  the server: " + line)


if __name__ == "__main__":
    main()
