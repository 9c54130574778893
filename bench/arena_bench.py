#!/usr/bin/env python3
"""The arena against the tournament, in one run: the same two trivial remote bots (bench/peel_bot
play through bananagrams-connect, one session each: staircase peels, legal under a word list of
every two-letter string), unsandboxed and without cgroups, playing the same number of games,
one at a time: in a tournament (--deals N, 2N games) and in an arena (N matches of two seat
rotations: 2N games). Each run prints games per second and the server's own CPU time per game
(its user and system time, from /proc, over the games: the arena's or the tournament runner's,
not the bots'); the summary, the medians and the ratio arena / tournament of the time a game
takes. The bots are taken as checked (their entries so marked in the arena's database before it
serves): a check is made once a version, and the figure is of matches.

    arena_bench.py BUILD_DIR [--games N] [--runs N] [--quick]
"""
import argparse
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TWO_LETTERS = os.path.join(SOURCE, "tests", "data", "two_letters.txt")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from served import served_port  # noqa: E402
TOKENS = ["arena_bench_token_one_00000000", "arena_bench_token_two_00000000"]
UNFAIR = ["--no-sandbox", "--unfair-per-process-limits"]


def words(folder):
    """Every two-letter string, and the words the arena's conformance check deals (without them
    it does not serve)."""
    path = os.path.join(folder, "words.txt")
    with open(TWO_LETTERS) as two, open(path, "w") as out:
        out.write(two.read() + "cat\ncats\n")
    return path


def cpu_seconds(pid):
    """The process's user and system time so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bot(build, url, token_file=None):
    play = "exec %s play" % os.path.join(build, "bench", "peel_bot")
    args = [os.path.join(build, "connect"), "--retry", "5"]
    args += ["--token-file", token_file] if token_file else ["--games", "0"]
    return subprocess.Popen(args + [url, "--", play], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def tournament(build, folder, games):
    """(games per second, the runner's CPU seconds a game)."""
    db = os.path.join(folder, "t.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    runner = subprocess.Popen(
        [os.path.join(build, "tournament"), "run", "--db", db, "--deals", str(games // 2),
         "--concurrency", "1", "--serve", "127.0.0.1:0", "--dict", words(folder), *UNFAIR,
         "--bot", "a=remote:" + TOKENS[0], "--bot", "b=remote:" + TOKENS[1]],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = served_port(runner.stderr, "arena_bench", "tournament")
    began, cpu = time.monotonic(), cpu_seconds(runner.pid)
    bots = [bot(build, "ws://127.0.0.1:%d/seat/%s" % (port, t)) for t in TOKENS]
    # Its last CPU figure before it exits: read while its stderr still flows.
    last = [cpu]

    def watch():
        while runner.poll() is None:
            try:
                last[0] = cpu_seconds(runner.pid)
            except OSError:
                break
            time.sleep(0.05)
    threading.Thread(target=watch, daemon=True).start()
    runner.stderr.read()
    runner.wait()
    elapsed = time.monotonic() - began
    for b in bots:
        b.wait(timeout=30)
    if runner.returncode != 0:
        sys.exit("arena_bench: the tournament exited %d" % runner.returncode)
    return games / elapsed, (last[0] - cpu) / games


def arena(build, folder, games):
    """(games per second, the arena's CPU seconds a game), over its first games // 2 matches."""
    exe = os.path.join(build, "arena")
    db = os.path.join(folder, "a.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    files = []
    for name in ("one", "two"):
        added = subprocess.run([exe, "bot", "add", "--db", db, name], capture_output=True,
                               text=True, check=True)
        files.append(os.path.join(folder, name + ".token"))
        with open(files[-1], "w") as f:
            f.write(added.stdout)
    with sqlite3.connect(db) as con:  # checked (the version "" each connects as)
        con.execute("INSERT INTO entries (bot_id, label, mu, sigma, created, checked) "
                    "SELECT id, '', 25.0, 25.0 / 3, 'bench', 'bench' FROM bots")
    server = subprocess.Popen(
        [exe, "serve", "--db", db, "--listen", "127.0.0.1:0", "--max-players", "2",
         "--concurrency", "1", "--dict", words(folder), *UNFAIR], stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    line = server.stderr.readline()
    port = int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))
    bots = [bot(build, "ws://127.0.0.1:%d/bot" % port, f) for f in files]
    rated, began, cpu = 0, None, None
    said = [line]
    # A run that never gets its matches rated (bots that never come, matches void) ends as a
    # failure with what the arena said, not as a wait without end.
    stuck = threading.Timer(60 + games, server.kill)
    stuck.start()
    for line in server.stderr:
        said.append(line)
        if began is None and "begins" in line:
            began, cpu = time.monotonic(), cpu_seconds(server.pid)
        if " rated: " in line:
            rated += 1
            if rated == games // 2:
                break
    stuck.cancel()
    if rated < games // 2:
        for b in bots:
            b.kill()
        sys.exit("arena_bench: %d of %d matches rated in %d s; the arena said:\n%s" %
                 (rated, games // 2, 60 + games, "".join(said)))
    elapsed, used = time.monotonic() - began, cpu_seconds(server.pid) - cpu
    server.terminate()
    server.communicate(timeout=60)
    for b in bots:  # told the arena restarts (1012), each would wait for it to come back
        b.terminate()
        b.wait(timeout=30)
    # The figure counts only if every game was played to its end by both bots: a byte of one
    # game's bot given to the next (a session's race at a game's end) puts a bot out of it.
    with sqlite3.connect(db) as con:
        for (result,) in con.execute("SELECT result FROM games"):
            out = [p["reason"] for p in json.loads(result)["players"] if p["reason"]]
            if out:
                sys.exit("arena_bench: a bot was out of a game: %s" % out)
    return games / elapsed, used / games


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 games, 1 run")
    args = parser.parse_args()
    if args.quick:
        args.games, args.runs = 4, 1
    folder = tempfile.mkdtemp(prefix="arena-bench-")
    rates = {"arena": [], "tournament": []}
    cpus = {"arena": [], "tournament": []}
    for run in range(args.runs):
        for name in ("arena", "tournament") if run % 2 == 0 else ("tournament", "arena"):
            rate, cpu = (arena if name == "arena" else tournament)(args.build, folder, args.games)
            rates[name].append(rate)
            cpus[name].append(cpu)
            print("run %d, %s: %.1f games/s, its own CPU %.2f ms a game" % (
                run + 1, name, rate, 1000 * cpu), flush=True)
    a, t = statistics.median(rates["arena"]), statistics.median(rates["tournament"])
    print("%d games each, %d runs, medians: arena %.1f games/s (%.1f matches/s), tournament %.1f "
          "games/s; a game's time, arena / tournament: %.2fx; the server's CPU a game: arena "
          "%.2f ms, tournament %.2f ms" % (
              args.games, args.runs, a, a / 2, t, t / a, 1000 * statistics.median(cpus["arena"]),
              1000 * statistics.median(cpus["tournament"])))


if __name__ == "__main__":
    main()
