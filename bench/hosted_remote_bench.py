#!/usr/bin/env python3
"""What racing from afar costs (docs/arena.md, "Hosting a bot"): the same bot against itself in
an arena, one copy hosted (its binary submitted, run in the arena's sandbox) and one remote (the
same binary behind bananagrams-connect, reaching the arena through a proxy on the loopback that
holds every byte for a one-way delay of D ms each way). Every game of their matches is a race
between the two; the remote copy's share of the wins, with its 95% Wilson interval, says what
the delay costs it. At delay 0 the share is the loopback's and the sandbox's cost alone.

Both copies are the reference bot at full strength (build/reference_bot), on this machine
(--cores 2: the arena runs one hosted player; the remote copy's process is this machine's too).
Printed: for each delay, the games, the remote copy's wins and share with its interval, and the
round trip the arena measured over its connection (the median of its games' medians).

    hosted_remote_bench.py BUILD_DIR [--delays 0,1,5,20] [--matches N] [--quick]
"""
import argparse
import io
import json
import os
import queue
import shutil
import socket
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SOURCE, "tests"))
from intervals import wilson  # noqa: E402
from remote_host import arena_port  # noqa: E402


class DelayProxy:
    """Forwards each connection to `upstream` on the loopback, every chunk of either direction
    held `delay_ms` before it is sent on (in order)."""

    def __init__(self, upstream, delay_ms):
        self.upstream, self.delay = upstream, delay_ms / 1000.0
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream))
            for s in (client, server):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            for source, sink in ((client, server), (server, client)):
                held = queue.Queue()
                threading.Thread(target=self.read, args=(source, held), daemon=True).start()
                threading.Thread(target=self.write, args=(sink, held), daemon=True).start()

    def read(self, source, held):
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            held.put((time.monotonic() + self.delay, data))
            if not data:
                return

    def write(self, sink, held):
        while True:
            due, data = held.get()
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                if not data:
                    sink.shutdown(socket.SHUT_WR)
                    return
                sink.sendall(data)
            except OSError:
                return


def arena_cmd(build, db, *args):
    done = subprocess.run([os.path.join(build, "arena"), *args, "--db", db], capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout.strip()


def race(build, delay_ms, matches):
    """(games, the remote copy's wins, its round trip's median in ms or None)."""
    work = tempfile.mkdtemp(prefix="hosted-remote-bench-", dir=build)
    os.chmod(work, 0o755)
    db = os.path.join(work, "arena.db")
    started = []
    try:
        far = arena_cmd(build, db, "bot", "add", "far").splitlines()[-1]
        near = arena_cmd(build, db, "bot", "add", "near").splitlines()[-1]
        far_file = os.path.join(work, "far.token")
        with open(far_file, "w") as f:
            f.write(far + "\n")
        served = subprocess.Popen(
            [os.path.join(build, "arena"), "serve", "--db", db, "--listen", "127.0.0.1:0",
             "--hosted", os.path.join(work, "hosted"), "--max-players", "2", "--concurrency",
             "1", "--cores", "2", "--logs", os.path.join(work, "logs")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        started.append(served)
        port = arena_port(served)
        proxy = DelayProxy(port, delay_ms)
        started.append(subprocess.Popen(
            [os.path.join(build, "connect"), "--token-file", far_file, "--words", "from-seat",
             "ws://127.0.0.1:%d/bot" % proxy.port, "--", os.path.join(build, "reference_bot")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        data = io.BytesIO()
        with tarfile.open(fileobj=data, mode="w:gz") as tar:
            for name, content, mode in (
                    ("reference_bot", open(os.path.join(build, "reference_bot"), "rb").read(),
                     0o755),
                    ("bananagrams.json", json.dumps({"command": "./reference_bot",
                                                     "label": "ref"}).encode(), 0o644)):
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(content), mode
                tar.addfile(info, io.BytesIO(content))
        request = urllib.request.Request(
            "http://127.0.0.1:%d/api/bots/near/versions" % port, data=data.getvalue(),
            method="POST", headers={"Content-Type": "application/gzip",
                                    "Authorization": "Bearer " + near})
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.status == 202, answer.read()
        deadline = time.monotonic() + 120 + matches * 30
        rated = 0
        while time.monotonic() < deadline and rated < matches:
            time.sleep(1)
            with sqlite3.connect(db) as con:
                rated = con.execute("SELECT COUNT(*) FROM matches WHERE state = 'rated'"
                                    ).fetchone()[0]
        with sqlite3.connect(db) as con:
            far_entries = {row[0] for row in con.execute(
                "SELECT e.id FROM entries e JOIN bots b ON b.id = e.bot_id WHERE b.name = 'far'")}
            rows = con.execute(
                "SELECT g.rotation, g.result, me.entry_id, me.seat FROM games g JOIN "
                "match_entries me ON me.match_id = g.match_id JOIN matches m ON m.id = "
                "g.match_id WHERE m.state = 'rated'").fetchall()
        games, wins, trips = 0, 0, []
        for rotation, result, entry, seat in rows:
            if entry not in far_entries:
                continue
            players = json.loads(result)["players"]
            # Entrant e sits in seat (e - r) mod K of rotation r.
            own = players[(seat - rotation) % len(players)]
            games += 1
            wins += 1 if own.get("rank") == 1 else 0
            if (own.get("remote") or {}).get("rtt_ms") is not None:
                trips.append(own["remote"]["rtt_ms"])
        trips.sort()
        return games, wins, trips[len(trips) // 2] if trips else None
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=150)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--delays", default="0,1,5,20")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="one delay, two matches: a smoke run")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    delays = [0] if args.quick else [float(d) for d in args.delays.split(",")]
    matches = 2 if args.quick else args.matches
    kind = "unknown"
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as cache:
            for line in cache:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    kind = line.split("=", 1)[1].strip()
    except OSError:
        pass
    print("the reference bot against itself: hosted, and remote behind a one-way delay; %d "
          "matches (2 games each) a delay, the %s build at %s" % (matches, kind, build))
    for delay in delays:
        games, wins, trip = race(build, delay, matches)
        low, high = wilson(wins, games)
        print("one-way delay %4g ms: round trip %s, remote won %d of %d games: %.0f%% [%.0f%%, "
              "%.0f%%]" % (delay, "%.1f ms" % trip if trip is not None else "not measured",
                           wins, games, 100.0 * wins / games if games else 0, 100 * low,
                           100 * high), flush=True)
        if games == 0:
            sys.exit("hosted_remote_bench: no game was played at delay %g ms" % delay)


if __name__ == "__main__":
    main()
