#!/usr/bin/env python3
"""The README's first command, as a newcomer runs it: scripts/demo plays a game between bundled
bots that the machine runs fairly, and says so; what it says of the race is what the game's
log holds.

    demo_test.py SOURCE_DIR

It plays up to three demos (another program may take a CPU from one): each says what its log's
result holds, and one at least was a fair race.
"""
import json
import os
import subprocess
import sys

source = sys.argv[1]
build = os.path.join(source, "build")


def check(condition, what):
    if not condition:
        sys.exit("demo_test: " + what)


fair = 0
for attempt in range(3):
    run = subprocess.run([os.path.join(source, "scripts", "demo"), "--quiet"],
                         capture_output=True, text=True, timeout=600)
    check(run.returncode == 0, "scripts/demo exited %d: %s" % (run.returncode, run.stderr))
    said = run.stdout.strip().splitlines()[-1]
    with open(os.path.join(build, "demo-game.jsonl")) as f:
        result = json.loads(f.readlines()[-1])["result"]
    check(result["end"] == "bananas" and os.path.exists(os.path.join(build, "demo-game.html")),
          "the demo's game: %s" % result)
    check(len(result["players"]) == min(3, max(2, os.cpu_count())),
          "%d bots on %d cores" % (len(result["players"]), os.cpu_count()))
    if result["contended"] is False:
        check(said.startswith("demo: a fair race: "), "a fair race said as: " + said)
        fair += 1
        break
    check(said.startswith("demo: not a fair race: ") if result["contended"]
          else said.startswith("demo: whether the race was fair is not known"),
          "contended %s said as: %s" % (result["contended"], said))
check(fair == 1, "no fair race in three demos")
print("demo_test: all passed")
