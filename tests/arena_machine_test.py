#!/usr/bin/env python3
"""The machine's fault is no one's (docs/arena.md, "Nothing lost"):

    arena_machine_test.py BUILD_DIR

An arena of two house bots (the anchor among them, and one too slow to start on this machine
within the ready timeout) and a remote bot behind bananagrams-connect plays while CPU spinners
outside it take the machine's cores. A match in which a house bot was not ready, or any player
was not ready in a contended race (its players waited for a CPU past the host's bar), decides
nothing: it is voided, saying so, and counts towards no one's pause. Afterwards no bot is
paused, matches were voided for the machine, the slow house bot was rated in none, no rated
match has a player out before it was ready in a contended game, and `arena rerate` agrees.

Then the arena's own loop stalls (the arena stopped for 2 s, as a machine that stops it would)
in a game in which a player was not ready: that match is void, the loop's stall said.
"""
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_support import ArenaRun  # noqa: E402

# Its folder under the build tree, which the sandbox shows its players.
t = ArenaRun("arena_machine_test", sys.argv[1], parent=os.path.abspath(sys.argv[1]))
build, db, work, arena = t.build, t.db, t.work, t.arena
reference = os.path.join(build, "reference_bot")
check, run, said, api = t.check, t.run, t.said, t.api

try:
    run("bot", "add", "A", "--command", reference, "--anchor", "25")
    # B takes 3 s to start, past the ready timeout (1 s): as a house bot would on a machine too
    # slow for it.
    run("bot", "add", "B", "--command", "sleep 3; exec " + reference)
    token = run("bot", "add", "remote").splitlines()[-1]
    token_file = t.token_file("remote", token)
    served = t.serve("--max-wait", "1", "--ready-timeout", "1", "--game-timeout", "20", "--logs",
                     os.path.join(work, "logs"))
    connect_said = os.path.join(work, "connect.err")
    t.outputs.append(connect_said)
    t.start([os.path.join(build, "connect"), "--token-file", token_file, "--words", "from-seat",
             "ws://127.0.0.1:%d/bot" % served.port, "--", reference],
            stdout=subprocess.DEVNULL, stderr=open(connect_said, "w"))
    deadline = time.monotonic() + 60
    while "bot remote passed its check" not in said() and time.monotonic() < deadline:
        time.sleep(0.2)
    check("bot remote passed its check" in said(), "the remote bot's check")
    # A spinner for every core but one, outside the arena: the players wait for CPUs (on every
    # core, the games crawl: a match takes minutes on this 2-core machine).
    for _ in range(max(1, (os.cpu_count() or 2) - 1)):
        t.start([sys.executable, "-c", "while True: pass"])
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        over = re.findall(r"match \d+ (rated|void)", said())
        if len(over) >= 6 and len(re.findall(r"house bot B was not ready", said())) >= 3:
            break
        time.sleep(0.5)
    for process in t.started[2:]:
        process.kill()
    check(len(re.findall(r"void: the machine was too slow: house bot B was not ready", said()))
          >= 3, "three matches of B voided for the machine")
    bots = {b["name"]: b for b in api("/api/leaderboard")["leaderboard"]}
    check(all(not bots[name]["paused"] for name in ("A", "B", "remote")),
          "a bot paused for the machine: %s" % bots)
    check(bots["A"]["rating"] == {"mu": 25.0, "sigma": 0.0}, "the anchor moved: %s" % bots["A"])
    check(bots["B"]["matches"] == 0, "B rated though it never started: %s" % bots["B"])
    served.send_signal(signal.SIGTERM)
    served.wait(timeout=150)
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT m.id, g.result FROM matches m JOIN games g ON g.match_id = m.id "
                           "WHERE m.state = 'rated'").fetchall()
    for match, result in rows:
        result = json.loads(result)
        check(not (result.get("contended") and any(p.get("code") == "not_ready"
                                                   for p in result["players"])),
              "rated match %d has a player not ready in a contended game" % match)
    rerated = subprocess.run([arena, "rerate", "--db", db, "--json"], capture_output=True,
                             text=True, timeout=60)
    check(rerated.returncode == 0 and json.loads(rerated.stdout)["agree"], rerated.stdout)

    # ---- the arena's own loop stalled (SIGSTOP, as a machine that stops it would) in a game
    # in which a player was not ready: the machine's fault too ----
    run("bot", "disable", "B")
    served = t.serve("--max-wait", "1", "--ready-timeout", "3", "--game-timeout", "20")
    # The remote bot gets ready after 5 s, past the ready timeout; only the stall tells its
    # match from one it lost for its own fault.
    t.start([os.path.join(build, "connect"), "--token-file", token_file, "--words", "from-seat",
             "ws://127.0.0.1:%d/bot" % served.port, "--", "sleep 5; exec " + reference],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t.wait_until(lambda: re.search(r"match (\d+) begins: .*remote", said()), 60,
                 "a match of the remote bot")
    match = int(re.search(r"match (\d+) begins: .*remote", said()).group(1))
    time.sleep(0.3)
    served.send_signal(signal.SIGSTOP)
    time.sleep(2)
    served.send_signal(signal.SIGCONT)
    t.wait_until(lambda: re.search(r"match %d (rated|void)" % match, said()), 60,
                 "the stalled match's end")
    check(re.search(r"match %d void: the machine was too slow: the arena's loop stalled for "
                    r"\d+\.\d s in game 1, in which \S+ was not ready" % match, said()),
          "the stalled match not voided for the loop: %s" % said())
    served.send_signal(signal.SIGTERM)
    served.wait(timeout=150)
finally:
    t.end()
print("arena_machine_test: all passed")
