#!/usr/bin/env python3
"""How many concurrent matches of remote bots one arena holds on this machine, and what each
costs it (issue 46; docs/performance.md, "What one arena holds").

    arena_capacity.py BUILD_DIR [--levels 1,10,100,200,400,800,1600] [--seconds S] [--think SEC]
                      [--quick] [--keep]

For each level N, a fresh arena (--concurrency N, two players a table, no house bots) and 2N
remote bots from one load generator (bench/arena_load.py, one process, asyncio): N that peel a
staircase every `think` seconds (0.2, at random from half to one and a half times that) and N
that only sit (ready, never peeling: every tile a peeler is dealt comes of its own peel). Owners
keep them apart: the matchmaker never seats two bots of one owner, so every match is a peeler
against a sitter, and N matches play at once. Over `seconds` (30) after the tables are full:

- the peel's round trip, p50 and p99: from a peeler's peel leaving it to the tile it brings
  arriving, through the WebSocket, the arena's referee and back;
- the baseline, in the same run, from the same peelers: the round trip of a message of a peel's
  size to an echo server (`arena_load.py echo`, a Python process of its own that answers each
  WebSocket message with its bytes and does nothing else), sent twice a second beside the
  game; the ratio peel / echo is what the arena adds over a server that only answers;
- the arena's CPU (its user and system time, from /proc) per game finished, and its share of a
  core; the load generator's share of a core beside it (what saturates first);
- games finished a second (each game's end as its peeler sees it: a match's first rotation
  counts before its second is over);
- that `arena rerate` recomputes every stored rating to the bit afterwards (else it fails);
- the arena's own account of its loop (GET /api/server's loop_lag: how late its 10 ms timer ran
  over the last minute, p99 and max, and its busiest turn with what took most of it), where the
  build has it.

Every bot is taken as checked (its version so marked before the arena serves): the check is
once a version, and the figure is of matches.
"""
import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import arena_load
from arena_bench import cpu_seconds, words
from remote_bench import percentile



def level(build, folder, n, seconds, think, echo_port):
    db = os.path.join(folder, "capacity-%d.db" % n)
    exe = os.path.join(build, "arena")
    tokens = {}
    for role in ("peel", "sit"):
        for i in range(n):
            name = "%s-%d" % (role, i)
            out = subprocess.run([exe, "bot", "add", "--db", db, name, "--owner", role],
                                 capture_output=True, text=True, check=True).stdout.split()
            tokens[name] = out[-1]
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO entries (bot_id, label, mu, sigma, created, checked) "
                    "SELECT id, 'v1', 25.0, 25.0 / 3, 'bench', 'bench' FROM bots")
    server = subprocess.Popen(
        [exe, "serve", "--db", db, "--listen", "127.0.0.1:0", "--max-players", "2",
         "--max-wait", "1", "--concurrency", str(n), "--connections-per-bot", "1",
         "--connections-a-minute", "1000", "--max-connections", str(2 * n + 16), "--dict",
         os.path.join(folder, "words.txt"),
         "--game-timeout", "600", "--no-sandbox", "--unfair-per-process-limits"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    said = []
    for line in server.stderr:
        said.append(line)
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if found:
            break
    else:
        sys.exit("arena_capacity: the arena did not serve:\n" + "".join(said))
    port = int(found.group(1))
    def keep():
        with open(os.path.join(folder, "arena-%d.log" % n), "w") as kept:
            kept.writelines(said)
            for line in server.stderr:
                kept.write(line)
    threading.Thread(target=keep, daemon=True).start()
    counts = arena_load.Counts()
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    rng = random.Random(n)
    sessions = [arena_load.Session(port, tokens[name], counts, think=think,
                                   timed=name.startswith("peel"), peel=name.startswith("peel"),
                                   rng=random.Random(rng.random()), echo_port=echo_port)
                for name in tokens]
    session_runs = [asyncio.run_coroutine_threadsafe(s.run(), loop) for s in sessions]
    # The tables full: every peeler in a game.
    began = time.monotonic()
    while time.monotonic() - began < 60:
        with sqlite3.connect("file:%s?mode=ro" % db, uri=True) as con:
            running = con.execute("SELECT count(*) FROM matches WHERE state = 'running'")\
                .fetchone()[0]
        if running >= n:
            break
        time.sleep(0.2)
    time.sleep(min(2.0, seconds / 5))
    counts.peel_trips.clear()
    counts.echo_trips.clear()
    me = os.getpid()

    def games():  # every game its peeler saw end (one peeler a game), whatever its match
        return counts.kinds.get("timed games", 0)
    g0, c0, m0, t0 = games(), cpu_seconds(server.pid), cpu_seconds(me), time.monotonic()
    time.sleep(seconds)
    g1, c1, m1, t1 = games(), cpu_seconds(server.pid), cpu_seconds(me), time.monotonic()
    peels, pings = list(counts.peel_trips), list(counts.echo_trips)
    lag = loop_lag(port)

    def stop():
        for s in sessions:
            s.stop()
    loop.call_soon_threadsafe(stop)
    server.terminate()
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
    for session in session_runs:  # each ends once its connection has
        try:
            session.result(timeout=30)
        except Exception:  # noqa: BLE001 (a session that ended badly ends all the same)
            pass
    loop.call_soon_threadsafe(loop.stop)
    if not peels or not pings:
        sys.exit("arena_capacity: no round trip timed at %d matches (%d peels, %d echoes)" % (
            n, len(peels), len(pings)))
    # Every rating as the archive's, to the bit, after the run.
    rerate = subprocess.run([exe, "rerate", "--db", db], capture_output=True, text=True)
    if rerate.returncode != 0:
        sys.exit("arena_capacity: arena rerate disagrees after %d matches at once: %s" % (
            n, rerate.stdout + rerate.stderr))
    wall = t1 - t0
    done = g1 - g0
    return {
        "peel_p50": percentile(peels, 50), "peel_p99": percentile(peels, 99),
        "echo_p50": percentile(pings, 50), "echo_p99": percentile(pings, 99),
        "games": done, "games_s": done / wall,
        "arena_cpu_game": (c1 - c0) / done if done else float("nan"),
        "arena_share": (c1 - c0) / wall, "load_share": (m1 - m0) / wall, "lag": lag,
    }


def loop_lag(port):
    """The arena's loop's lag over the last minute (GET /api/server), or None where its build
    does not say it."""
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/api/server" % port, timeout=30) as r:
            return json.load(r).get("loop_lag")
    except (OSError, ValueError):
        return None


def shown_lag(lag):
    if not lag:
        return "-"
    return "%.1f / %.0f ms (the busiest turn %.0f ms: %.0f ms %s)" % (
        lag["p99_ms"], lag["max_ms"], lag["busiest_turn_ms"], lag["longest_handler_ms"],
        lag["longest_handler"] or "none")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--levels", default="1,10,100,200,400,800,1600")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=0.2)
    parser.add_argument("--quick", action="store_true", help="levels 1 and 10, 3 s each")
    parser.add_argument("--keep", action="store_true",
                        help="keep the run's folder (each arena's database and its log)")
    args = parser.parse_args()
    if args.quick:
        args.levels, args.seconds = "1,10", 3
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    folder = tempfile.mkdtemp(prefix="arena-capacity-")
    # The baseline's server: a process of its own, as the arena is.
    echo = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__),
                                                          "arena_load.py"), "echo"],
                            stdout=subprocess.PIPE, text=True)
    echo_port = int(echo.stdout.readline())
    try:
        words(folder)
        print("| matches at once | peel round trip p50 / p99 | echo round trip p50 / p99 "
              "(baseline) | peel / echo at p50, p99 | games a second | the arena's CPU a game | "
              "the arena's share of a core | the load generator's | the arena's loop lag p99 / "
              "max (its busiest turn: what took most of it) |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for n in (int(x) for x in args.levels.split(",")):
            r = level(args.build, folder, n, args.seconds, args.think, echo_port)
            print("| %d | %.2f / %.2f ms | %.2f / %.2f ms | %.2fx, %.2fx | %.1f | %.2f ms | "
                  "%.0f%% | %.0f%% | %s |" % (
                      n, 1000 * r["peel_p50"], 1000 * r["peel_p99"], 1000 * r["echo_p50"],
                      1000 * r["echo_p99"], r["peel_p50"] / r["echo_p50"],
                      r["peel_p99"] / r["echo_p99"], r["games_s"],
                      1000 * r["arena_cpu_game"], 100 * r["arena_share"],
                      100 * r["load_share"], shown_lag(r["lag"])), flush=True)
    finally:
        echo.kill()
        if args.keep:
            print("kept: %s" % folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
