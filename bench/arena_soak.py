#!/usr/bin/env python3
"""The arena for a long evening, under load, faults and hostile clients, and then the proof that
nothing was lost (issue 46; docs/performance.md, "The arena under faults").

    arena_soak.py BUILD_DIR [--games N] [--kills K] [--concurrency C] [--seed S] [--quick]

An arena (sandboxed house bots in cgroups, as an organiser runs it) plays until N games (10,000)
are rated, with:
- house bots: `peel_bot stay` (v004), `peel_bot play`, and a hostile one;
- remote bots through bananagrams-connect: two good ones (two connections each) and a hostile
  one; and, from one process (bench/arena_load.py), eight good bots and one whose connection a
  failing network cuts mid-game now and then;
- a hostile bot, each time it is started, is one time in two one of: a crash mid-game, a flood,
  a bot that never reads, garbage bytes, one that ignores SIGTERM, one that forks a child and
  leaves it, a v004 bot that never answers G; it is paused after three faulty matches in a row
  and, remote, checked again as it comes back; the organiser enables the house one again;
- at the network, in rounds: wrong tokens in bursts from another address, handshakes held open,
  an oversized message, a reconnect storm (every connection of the load generator cut at once);
- the arena killed with SIGKILL at K random moments (5) in the first half of the games, and
  started again on its address;
- the disk (a tmpfs of the run's own, where the database and the logs are: hence root) filled
  once, for fifteen seconds, while the matches go on; then a quarter of the games in quiet.

Then it checks, and prints, failing if any does not hold:
- every match is rated exactly once or void: none left running; each rated match's entrants'
  ratings follow on from their previous match's, with one game each rotation;
- the ratings equal `arena rerate`'s;
- every stored game replays (`host --replay LOG --json`) to its stored result;
- no process of the run is left, nor any cgroup of the arena's;
- the arena's memory and descriptors were flat over the last life's games, but for the stream's
  history (kept by design, up to 32 MiB): from the second fifth of its quiet samples to the
  last, memory grew by no more than 1.5 bytes a byte the history grew, and 2 MiB; and, its bots
  gone at the end and nothing playing, its descriptors were back to what they were as its last
  life began (they come and go with the matches playing, by tens: a house bot's pipes, a
  game's cgroup files);
- every refusal is counted by kind: the arena's counts (GET /api/server) of its last life equal
  what the attackers were told.

--quick is the suite's short form: 1,000 games, 2 kills, the disk filled once, every attack.
The arena's lines go to BUILD_DIR/arena-soak.log, its samples to arena-soak-samples.json.
"""
import argparse
import asyncio
import atexit
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import arena_load
from arena_bench import words

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST_BOT = os.path.join(SOURCE, "tests", "bots", "test_bot.py")
V004_BOT = os.path.join(SOURCE, "tests", "bots", "v004_bot.py")
HOSTILE_MODES = ["crash-mid-game", "flood-stdout", "never-read", "garbage", "ignore-term",
                 "fork-and-exit"]

failures = []


def check(condition, what):
    print(("ok:   " if condition else "FAIL: ") + what, flush=True)
    if not condition:
        failures.append(what)


class Run:
    """The run's folder, its tmpfs, its processes; everything ended and unmounted at exit."""

    def __init__(self, build, quick):
        self.build = os.path.abspath(build)
        # Under the build tree: the sandbox shows its players the machine's files but for /tmp.
        self.work = os.path.join(self.build, "arena-soak-%d" % os.getpid())
        self.data = os.path.join(self.work, "data")
        os.makedirs(self.data)
        self.mounted = False
        atexit.register(self.clean)
        size = "256m" if quick else "2g"
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, "soak",
                                  self.data], capture_output=True, text=True)
        if mounted.returncode != 0:
            sys.exit("arena_soak: a tmpfs of the run's own (to fill its disk) cannot be mounted "
                     "(run as root): " + mounted.stderr.strip())
        self.mounted = True
        self.db = os.path.join(self.data, "arena.db")
        self.logs = os.path.join(self.data, "logs")
        self.words = words(self.work)
        # The run's players are found by a tag in their command lines (which the bots ignore;
        # not a path, which the sandbox would take for a file of the player's own).
        self.tag = os.path.basename(self.work)
        self.peel_bot = os.path.join(self.build, "bench", "peel_bot")
        self.hostile = os.path.join(self.work, "hostile.sh")
        with open(self.hostile, "w") as f:
            f.write(hostile_script(self))
        self.log = open(os.path.join(self.build, "arena-soak.log"), "w")
        self.processes = []

    def clean(self):
        for p in self.processes:
            if p.poll() is None:
                p.kill()
        if self.mounted:
            subprocess.run(["umount", "-l", self.data])
            self.mounted = False
        shutil.rmtree(self.work, ignore_errors=True)


def hostile_script(run):
    """A bot that, each time it is started, is one time in two a hostile one (at random). Its
    arguments: peel_bot's path (named in its command, so that its sandbox shows it) and the tag."""
    cases = "".join('  %d) exec python3 %s %s --tag "$2" ;;\n' % (i, TEST_BOT, mode)
                    for i, mode in enumerate(HOSTILE_MODES))
    cases += '  %d) exec python3 %s hang-after-1 "$2" ;;\n' % (len(HOSTILE_MODES), V004_BOT)
    n = len(HOSTILE_MODES) + 1
    return ("#!/bin/sh\n# one start in two hostile: %d kinds, each one in %d\n"
            "n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')\n"
            'case $((n %% %d)) in\n%s  *) exec "$1" play "$2" ;;\nesac\n' % (
                n, 2 * n, 2 * n, cases))


def commands(run):
    """The good bot's command, and the hostile one's."""
    return ("%s play %s" % (run.peel_bot, run.tag),
            "sh %s %s %s" % (run.hostile, run.peel_bot, run.tag))


class Arena:
    """The arena serving, restarted on its address after each SIGKILL; its lines kept."""

    def __init__(self, run, concurrency):
        self.run, self.concurrency = run, concurrency
        self.port = 0
        self.lives = []  # each life's pid
        self.lines = []
        self.process = None

    def start(self):
        args = [os.path.join(self.run.build, "arena"), "serve", "--db", self.run.db, "--listen",
                "127.0.0.1:%d" % self.port, "--logs", self.run.logs, "--dict", self.run.words,
                "--max-players", "4", "--max-wait", "1", "--concurrency", str(self.concurrency),
                "--house-seats", "2", "--connections-per-bot", "4", "--max-connections", "256",
                "--game-timeout", "30", "--ready-timeout", "10", "--stop-grace", "10"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True)
        self.run.processes.append(self.process)
        self.lives.append(self.process.pid)
        first = self.process.stderr.readline()
        self.lines.append(first)
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", first)
        while not found and first:
            first = self.process.stderr.readline()
            self.lines.append(first)
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", first)
        if not found:
            sys.exit("arena_soak: the arena did not serve:\n" + "".join(self.lines[-20:]))
        self.port = int(found.group(1))
        threading.Thread(target=self.read, args=(self.process,), daemon=True).start()
        # Its descriptors before any bot comes back (the few that may have: their connections
        # taken off).
        begun = self.server()
        self.idle_descriptors = begun["descriptors"] - begun["connections"]

    def read(self, process):
        for line in process.stderr:
            self.lines.append(line)
            self.run.log.write(line)
            self.run.log.flush()

    def kill(self):
        self.process.kill()
        self.process.wait()

    def server(self):
        with urllib.request.urlopen("http://127.0.0.1:%d/api/server" % self.port,
                                    timeout=10) as r:
            return json.loads(r.read())


def add_bots(run, arena_exe, quick):
    """The accounts: {name: token} of the remote ones; house bots by command."""
    def add(name, owner, command=None):
        args = [arena_exe, "bot", "add", "--db", run.db, name, "--owner", owner]
        if command:
            args += ["--command", command]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout.split()
        return out[-1] if out else None
    good, hostile = commands(run)
    add("house-stay", "house", "%s stay %s" % (run.peel_bot, run.tag))
    add("house-play", "house", good)
    add("house-hostile", "house", hostile)
    tokens = {}
    for name in ["connect-1", "connect-hostile"] + ([] if quick else ["connect-2"]):
        tokens[name] = add(name, name)
    loads = ["load-%d" % i for i in range(1, 5 if quick else 9)] + ["load-cutter"]
    for name in loads + ["load-oversized"]:
        tokens[name] = add(name, name)
    return tokens, loads


class Connects:
    """bananagrams-connect processes, each started again when it exits, until stop()."""

    def __init__(self, run, arena):
        self.run, self.arena = run, arena
        self.stopping = False
        self.exits = {}
        self.threads = []

    def start(self, name, token, command):
        token_file = os.path.join(self.run.work, name + ".token")
        with open(token_file, "w") as f:
            f.write(token + "\n")
        thread = threading.Thread(target=self.keep, args=(token_file, command), daemon=True)
        thread.start()
        self.threads.append(thread)

    def keep(self, token_file, command):
        while not self.stopping:
            p = subprocess.Popen(
                [os.path.join(self.run.build, "connect"), "--token-file", token_file, "--retry",
                 "30", "--grace", "60", "ws://127.0.0.1:%d/bot" % self.arena.port, "--",
                 command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.run.processes.append(p)
            status = p.wait()
            self.exits[status] = self.exits.get(status, 0) + 1
            time.sleep(1 + random.random())

    def stop(self):
        self.stopping = True
        for p in self.run.processes:
            if p.poll() is None and "connect" in os.path.basename(p.args[0]):
                p.terminate()
        for t in self.threads:
            t.join(timeout=30)


class Load:
    """The load generator, on an asyncio loop of its own thread."""

    def __init__(self, arena, tokens, loads, rng):
        self.arena, self.tokens, self.rng = arena, tokens, rng
        self.counts = arena_load.Counts()
        self.attacks = arena_load.Counts()  # what the attackers were told, in the last life
        self.loop = asyncio.new_event_loop()
        self.sessions = []
        for name in loads:
            for _ in range(1 if name == "load-cutter" else 2):
                self.sessions.append(arena_load.Session(
                    0, tokens[name], self.counts, cut=0.01 if name == "load-cutter" else 0.0,
                    backoff=0.5, rng=random.Random(rng.random())))
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        for s in self.sessions:
            s.port = arena.port
            asyncio.run_coroutine_threadsafe(s.run(), self.loop)

    def attack(self, counts):
        """One round of every attack, begun now (a future): what each was told, into counts."""
        port = self.arena.port

        async def round_():
            await arena_load.wrong_tokens(port, counts, 15, "127.0.0.2")
            await asyncio.gather(*(arena_load.held_handshake(port, counts, hold=20)
                                   for _ in range(20)),
                                 arena_load.oversized(port, self.tokens["load-oversized"],
                                                      counts))
        return asyncio.run_coroutine_threadsafe(round_(), self.loop)

    def storm(self):
        """Every connection of the generator cut at once: they all connect again at once."""
        def cut():
            for s in self.sessions:
                s.drop()
        self.loop.call_soon_threadsafe(cut)
        self.counts.add("storms")

    def stop(self):
        def stop_all():
            for s in self.sessions:
                s.stop()
        self.loop.call_soon_threadsafe(stop_all)
        time.sleep(1)
        self.loop.call_soon_threadsafe(self.loop.stop)


def games_rated(db):
    try:
        with sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10) as con:
            return con.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return None


def fill_disk(run, seconds, arena, said):
    """The run's tmpfs filled to its last byte for `seconds`, then emptied again."""
    filler = os.path.join(run.data, "filler")
    with open(filler, "wb") as f:
        try:
            while True:
                f.write(b"\0" * (1 << 20))
        except OSError:
            pass
    stat = os.statvfs(run.data)
    said.append("the disk filled (%d bytes free)" % (stat.f_bavail * stat.f_frsize))
    pid = arena.process.pid
    time.sleep(seconds)
    os.remove(filler)
    return arena.process.poll() is None and arena.process.pid == pid


def processes_of(tag):
    """Processes whose command line holds `tag` (not this one)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                line = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if tag in line:
            found.append("%s %s" % (pid, line[:120]))
    return found


def cgroups_of(pids):
    """The game cgroups left of the arena's lives (<cgroup>/bananagrams/game-<pid>-<n>)."""
    names = tuple("game-%d-" % pid for pid in pids)
    left = []
    for top, dirs, _ in os.walk("/sys/fs/cgroup"):
        for d in dirs:
            if d.startswith(names):
                left.append(os.path.join(top, d))
        dirs[:] = [d for d in dirs if not d.startswith("player-")]
    return left


def check_database(run, arena_exe, host_exe):
    con = sqlite3.connect(run.db)
    states = dict(con.execute("SELECT state, count(*) FROM matches GROUP BY state").fetchall())
    check(states.get("running", 0) == 0, "no match left running (%s)" % states)
    rated = [m for (m,) in con.execute("SELECT id FROM matches WHERE state = 'rated'")]
    orders = [o for (o,) in con.execute("SELECT rated_order FROM matches WHERE state = 'rated'")]
    check(None not in orders and len(set(orders)) == len(orders),
          "every rated match has its own place in the order of rating (%d)" % len(rated))
    void_rows = con.execute("SELECT count(*) FROM games JOIN matches ON matches.id = match_id "
                            "WHERE state != 'rated'").fetchone()[0]
    check(void_rows == 0, "no void match has a game stored (%d)" % void_rows)
    bad_rotations = con.execute(
        "SELECT count(*) FROM matches m WHERE state = 'rated' AND "
        "(SELECT count(DISTINCT rotation) FROM games WHERE match_id = m.id) != "
        "(SELECT count(*) FROM games WHERE match_id = m.id) OR state = 'rated' AND "
        "(SELECT count(*) FROM games WHERE match_id = m.id) != "
        "(SELECT count(*) FROM match_entries WHERE match_id = m.id)").fetchone()[0]
    check(bad_rotations == 0, "every rated match has one game a rotation (%d do not)" %
          bad_rotations)
    # Each entry's ratings follow on from match to match, in the order they were rated: none
    # counted twice, none lost; its stored rating is its last match's.
    broken = 0
    entries = {e: (mu, sigma, n) for e, mu, sigma, n in
               con.execute("SELECT id, mu, sigma, matches FROM entries")}
    chain = {}
    for entry, before, s_before, after, s_after in con.execute(
            "SELECT entry_id, mu_before, sigma_before, mu_after, sigma_after FROM match_entries "
            "JOIN matches ON matches.id = match_id WHERE state = 'rated' ORDER BY rated_order"):
        last = chain.get(entry)
        if last and last != (before, s_before):
            broken += 1
        chain[entry] = (after, s_after)
    counted = dict(con.execute(
        "SELECT entry_id, count(*) FROM match_entries JOIN matches ON matches.id = match_id "
        "WHERE state = 'rated' GROUP BY entry_id").fetchall())
    for entry, (mu, sigma, n) in entries.items():
        if entry in chain and (chain[entry] != (mu, sigma) or counted[entry] != n):
            broken += 1
    check(broken == 0, "every entry's ratings follow on from match to match, and end at its "
          "stored rating and count (%d breaks)" % broken)
    rerate = subprocess.run([arena_exe, "rerate", "--db", run.db, "--json"], capture_output=True,
                            text=True)
    check(rerate.returncode == 0 and json.loads(rerate.stdout).get("agree") is True,
          "the ratings equal arena rerate's")
    games = con.execute("SELECT games.id, log, result FROM games JOIN matches ON "
                        "matches.id = match_id WHERE state = 'rated'").fetchall()
    con.close()
    return len(rated), states.get("void", 0), games


def replay_all(host_exe, games):
    def replay(game):
        gid, log, result = game
        if not log or not os.path.exists(log):
            return "game %d: no log (%s)" % (gid, log)
        r = subprocess.run([host_exe, "--replay", log, "--json", "--quiet"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return "game %d: %s" % (gid, r.stderr.strip()[:200])
        got, stored = json.loads(r.stdout), json.loads(result)
        if got["winner"] != stored["winner"] or \
                [p["rank"] for p in got["players"]] != [p["rank"] for p in stored["players"]]:
            return "game %d replays to another result" % gid
        return None
    with ThreadPoolExecutor(2) as pool:
        wrong = [w for w in pool.map(replay, games) if w]
    check(not wrong, "every stored game (%d) replays to its result%s" % (
        len(games), (": " + "; ".join(wrong[:5])) if wrong else ""))


def flat(samples, what, key, slack):
    """Over the last life's quiet samples (none while its disk was full, an attack was under way
    or a storm's connections came back) after their first fifth: the last fifth's median against
    the second fifth's, as the games went on. slack(early, late): whether late is flat."""
    samples = [s for s in samples if not s["busy"]]
    if len(samples) < 10:
        check(False, "%s: too few quiet samples in the last life (%d)" % (what, len(samples)))
        return
    fifth = len(samples) // 5
    early = {k: statistics.median(s[k] for s in samples[fifth:2 * fifth]) for k in samples[0]
             if isinstance(samples[0][k], (int, float))}
    late = {k: statistics.median(s[k] for s in samples[-fifth:]) for k in early}
    games = samples[-1]["games"] - samples[fifth]["games"]
    check(slack(early, late), "the arena's %s flat over the last life's %d games: %s then %s" %
          (what, games, early[key], late[key]))
    return early[key], late[key]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--quick", action="store_true",
                        help="the suite's short form: 1,000 games, 2 kills, concurrency 4")
    args = parser.parse_args()
    if args.quick:
        args.games, args.kills, args.concurrency = 1000, 2, 4
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    print("arena_soak: %d games, %d kills, concurrency %d, seed %d" % (
        args.games, args.kills, args.concurrency, seed), flush=True)
    began = time.monotonic()
    # SIGTERM and SIGINT end the run as an exception does: its processes ended, its tmpfs gone.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: sys.exit("arena_soak: stopped by a signal"))
    run = Run(args.build, args.quick)
    arena_exe, host_exe = (os.path.join(run.build, "arena"), os.path.join(run.build, "host"))
    tokens, loads = add_bots(run, arena_exe, args.quick)
    arena = Arena(run, args.concurrency)
    arena.start()
    connects = Connects(run, arena)
    for name in tokens:
        if name.startswith("connect-"):
            hostile = name == "connect-hostile"
            command = commands(run)[1 if hostile else 0]
            for _ in range(1 if hostile else 2):
                connects.start(name, tokens[name], command)
    load = Load(arena, tokens, loads, rng)
    # The faults' moments, by games rated: the kills and the full disk within the first half,
    # the last life's attacks after them (its refusals are counted against what they were told).
    # The last quarter of the games is quiet: the arena's memory and descriptors are read there
    # against the last life's second fifth, with no attack's handshakes held open meanwhile.
    kills = sorted(int(args.games * rng.uniform(0.05, 0.5)) for _ in range(args.kills))
    fill_at = int(args.games * rng.uniform(0.1, 0.5))
    attacks_at = [int(args.games * f) for f in (0.3, 0.55, 0.65)]
    storm_at = [int(args.games * f) for f in (0.4, 0.6)]
    said, samples, killed, attacks = [], [], 0, []
    filled = []
    deadline = began + (900 if args.quick else 4 * 3600)
    last_games, last_progress = 0, time.monotonic()
    quiet_from, quiet_samples = None, 0
    stormed = kills_done_at = 0
    while True:
        games = games_rated(run.db)
        if games is None:
            games = last_games
        if games > last_games:
            last_games, last_progress = games, time.monotonic()
        pending = kills or attacks_at or storm_at or not filled or filled == [None] or \
            not all(a.done() for a in attacks)
        # A quiet quarter after the last fault, and 30 quiet samples (15 s) at least: the last
        # fifth of the samples holds no fault.
        if not pending and quiet_from is None:
            quiet_from = games
        if games >= args.games and not pending and games - quiet_from >= args.games // 4 and \
                quiet_samples >= 30:
            break
        if time.monotonic() > deadline or time.monotonic() - last_progress > 120:
            check(False, "games went on being rated (%d of %d; the arena said last:\n%s)" % (
                games, args.games, "".join(arena.lines[-30:])))
            break
        # Never while the disk is full: the arena is to live through it as one process.
        if kills and games >= kills[0] and filled != [None]:
            kills.pop(0)
            arena.kill()
            killed += 1
            arena.start()
            kills_done_at = games
            said.append("killed at %d games, started again" % games)
        if not filled and games >= fill_at:
            filled.append(None)

            def fill(at=games):
                filled[0] = fill_disk(run, 15, arena, said)
                said.append("the disk filled at %d games, emptied at %d" % (
                    at, games_rated(run.db) or 0))
            threading.Thread(target=fill, daemon=True).start()
        final_life = not kills
        if attacks_at and games >= attacks_at[0]:
            attacks_at.pop(0)
            attacks.append(load.attack(load.attacks if final_life else arena_load.Counts()))
        if storm_at and games >= storm_at[0]:
            storm_at.pop(0)
            load.storm()
            stormed = time.monotonic()
        # Enabled again by the organiser when paused: the hostile house bot goes on playing.
        if rng.random() < 0.1:
            listed = subprocess.run([arena_exe, "bot", "list", "--db", run.db, "--json"],
                                    capture_output=True, text=True)
            if listed.returncode == 0 and any(b["name"] == "house-hostile" and b.get("paused")
                                              for b in json.loads(listed.stdout)):
                subprocess.run([arena_exe, "bot", "enable", "--db", run.db, "house-hostile"],
                               capture_output=True)
                arena.process.send_signal(signal.SIGHUP)
                said.append("house-hostile enabled again at %d games" % games)
        try:
            server = arena.server()
            busy = filled == [None] or not all(a.done() for a in attacks) or \
                time.monotonic() - stormed < 10
            quiet_samples += quiet_from is not None and not busy
            samples.append({"life": len(arena.lives), "games": games, "busy": busy,
                            "rss": server["rss_bytes"], "fds": server["descriptors"],
                            "history": server["stream_history_bytes"],
                            "connections": server["connections"],
                            "fds_less_connections":
                                server["descriptors"] - server["connections"],
                            "refusals": server["refusals"]})
        except (OSError, ValueError):
            pass
        time.sleep(0.5)
    filled = filled[0] if filled else None
    played_s = time.monotonic() - began
    # The attackers' last round is counted once the arena has closed every held handshake.
    time.sleep(2)
    final = arena.server()
    # Every bot gone, the arena idle again: its descriptors as they were when this life began.
    load.stop()
    connects.stop()
    idle, waited = None, time.monotonic()
    while time.monotonic() - waited < 90:
        now = arena.server()
        if now["playing"] == now["checking"] == now["connections"] == 0:
            idle = now["descriptors"]
            break
        time.sleep(0.5)
    check(idle is not None and idle <= arena.idle_descriptors + 2,
          "the arena's descriptors, idle again after %d games of its last life: %s, as it had "
          "begun with %d" % (samples[-1]["games"] - kills_done_at, idle, arena.idle_descriptors))
    arena.process.send_signal(signal.SIGTERM)
    try:
        arena.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        check(False, "the arena closed within a minute of SIGTERM")
        arena.kill()
    check(arena.process.returncode == 0, "the arena closed with status 0 after SIGTERM (%s)" %
          arena.process.returncode)
    time.sleep(2)
    lines = "".join(arena.lines)
    print("\n".join(said))
    print("played %d games in %.0f s; the arena's lives: %d (killed %d times)" % (
        games_rated(run.db), played_s, len(arena.lives), killed), flush=True)

    # Nothing lost, nobody seated in another's place.
    begun = re.findall(r"match (\d+) begins: (.*)", lines)
    unnamed = [m for m, names in begun if "" in [n.strip() for n in names.split(",")]]
    check(begun and not unnamed, "every match (%d) began with its entrants named%s" % (
        len(begun), ": not %s" % unnamed[:5] if unnamed else ""))
    n_rated, n_void, games = check_database(run, arena_exe, host_exe)
    replay_all(host_exe, games)
    voided_at_start = sum(int(n) for n in re.findall(r"(\d+) match(?:es)? left running by an "
                                                      r"arena that stopped voided", lines))
    check(killed == 0 or voided_at_start >= 1,
          "each start after a kill voided what was left running (%d matches)" % voided_at_start)
    check(filled is True, "the arena lived through its full disk (the same process after it)")
    full_lines = [l for l in arena.lines if "cannot be written" in l or "could not be" in l]
    print("while the disk was full the arena said:\n  " + "  ".join(full_lines[:6]))
    database_failed = sum("the database cannot be written" in l for l in arena.lines)
    check(database_failed == sum("the database can be written again" in l for l in arena.lines),
          "each time the arena said the database could not be written (%d), it said later that "
          "it could" % database_failed)
    # Nothing left running.
    time.sleep(3)
    left = processes_of(run.tag)
    check(not left, "no process of the run left%s" % (": " + "; ".join(left[:5]) if left else ""))
    groups = cgroups_of(arena.lives)
    check(not groups, "no cgroup of the arena's left%s" % (
        ": " + "; ".join(groups[:5]) if groups else ""))
    # Flat over the last life.
    last = [s for s in samples if s["life"] == len(arena.lives)]
    # The stream keeps its newest events (up to 32 MiB) for clients that reconnect: memory by
    # design, which grows with the matches until that bound (about 1.2 bytes of memory a byte
    # kept). The rest must not grow: memory no faster than 1.5 bytes a byte of the history's
    # growth, and 2 MiB. (Descriptors: idle again, above.)
    mem = flat(last, "memory (resident bytes, growing with the stream's history alone)", "rss",
               lambda e, l: l["rss"] - e["rss"] <= 1.5 * (l["history"] - e["history"]) + (2 << 20))
    if last:
        print("the stream's history kept, at the end: %d bytes (at most 32 MiB, by design)" %
              last[-1]["history"])
    with open(os.path.join(run.build, "arena-soak-samples.json"), "w") as f:
        json.dump(samples, f)
    # Refusals by kind, in the last life: what the attackers were told, as the arena counts it.
    told, counted = load.attacks.kinds, final["refusals"]
    print("the attackers were told (last life): %s" % json.dumps(told, sort_keys=True))
    print("the arena counted (last life): %s" % json.dumps(counted, sort_keys=True))
    for kind, theirs in (("wrong-token", "wrong token 401"),
                         ("address-failures", "wrong token 429"),
                         ("handshake-timeout", "held handshake closed"),
                         ("message-too-large", "oversized closed 1009")):
        check(told.get(theirs, 0) > 0 and counted.get(kind, 0) == told.get(theirs, 0),
              "the arena counted %d %s, as the attackers were told %d" % (
                  counted.get(kind, 0), kind, told.get(theirs, 0)))
    print("the generator's bots: %s" % json.dumps(load.counts.kinds, sort_keys=True))
    print("bananagrams-connect's exits, by status: %s" % json.dumps(connects.exits))
    outs = {}
    con = sqlite3.connect(run.db)
    for (result,) in con.execute("SELECT result FROM games"):
        for p in json.loads(result)["players"]:
            if p.get("reason"):
                code = p.get("code") or p["reason"].split(":")[0][:40]
                outs[code] = outs.get(code, 0) + 1
    paused = len(re.findall(r"paused", lines))
    print("out of rated games, by code: %s" % json.dumps(outs, sort_keys=True))
    print("summary: %d games rated in %d matches, %d matches void; %d kills; %d lines said "
          "paused; memory %s, descriptors idle at the end %s; %.0f s in all" % (
              len(games), n_rated, n_void, killed, paused, mem, idle,
              time.monotonic() - began))
    if failures:
        print("arena_soak: %d checks failed; the arena's lines: %s" % (
            len(failures), os.path.join(run.build, "arena-soak.log")))
        sys.exit(1)
    print("arena_soak: every check holds")


if __name__ == "__main__":
    main()
