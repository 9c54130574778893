#!/usr/bin/env python3
"""A planned restart of the arena loses nothing (docs/arena.md, "Nothing lost"):

    arena_restart_test.py BUILD_DIR

- SIGTERM with a four-seat match playing (three house bots and a remote bot behind
  bananagrams-connect): no new match begins, the match plays every rotation to its end and is
  rated, and the arena closes; the connected bot is told the arena restarts (1012) and its
  bananagrams-connect keeps trying, while connections meanwhile are refused with 503 and
  Retry-After (never 410, which would end them).
- Started again, the bot behind bananagrams-connect comes back by itself and plays.
- With a stop's grace too short for the match's next game (judged by its games so far), that
  game is not begun: the match is voided at once, saying why, rather than begun and cut.
"""
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import remote_host  # noqa: E402
from arena_support import ArenaRun  # noqa: E402

t = ArenaRun("arena_restart_test", sys.argv[1])
build, db, work = t.build, t.db, t.work
reference = os.path.join(build, "reference_bot")
check, run, said, wait_until, api = t.check, t.run, t.said, t.wait_until, t.api


# A match over: rated, or, where a loaded machine kept a house bot from getting ready, void for
# the machine by the arena's own rule (arena_machine_test's), which is not a match lost.
FINISHED = r"(rated|void: the machine was too slow)"


def serve(port=0, *more):
    return t.serve(*more, "--no-sandbox", port=port)


try:
    for name in ("H1", "H2", "H3"):
        run("bot", "add", name, "--command", reference)
    token = run("bot", "add", "remote").splitlines()[-1]
    token_file = t.token_file("remote", token)
    # The three house bots wait for a fourth (--max-wait, 30 s): the remote bot's first match
    # has four seats, and four rotations.
    served = serve(0)
    port = served.port
    connect_err = os.path.join(work, "connect.err")
    connect = t.start(
        [os.path.join(build, "connect"), "--token-file", token_file, "--words", "from-seat",
         "--restart-wait", "120", "ws://127.0.0.1:%d/bot" % port, "--", reference],
        stdout=subprocess.DEVNULL, stderr=open(connect_err, "w"))

    # ---- SIGTERM with a four-seat match playing: it finishes, and is rated ----
    wait_until(lambda: re.search(r"match (\d+) begins: .*remote", said()), 120,
               "a match of the remote bot")
    match = int(re.search(r"match (\d+) begins: .*remote", said()).group(1))
    check(len(re.search(r"match %d begins: (.*)" % match, said()).group(1).split(", ")) == 4,
          "a four-seat match: %s" % said())
    served.send_signal(signal.SIGTERM)
    check(served.wait(timeout=150) == 0, "the arena after SIGTERM")
    served.said_reader.join(10)
    finished = re.search(r"match %d %s" % (match, FINISHED), said())
    check(finished, "the match playing at SIGTERM not finished")
    if finished.group(1) != "rated":
        print("arena_restart_test: the match at SIGTERM was void for the machine (a loaded "
              "one): its rating not judged")
    check(not re.search(r"match %d begins" % (match + 1), said()),
          "a match begun after SIGTERM")
    wait_until(lambda: "the host is restarting" in open(connect_err).read(), 30,
               lambda: "connect to hear the arena restarts: " + open(connect_err).read())
    check(connect.poll() is None, "connect ended as the arena restarted: %s" %
          open(connect_err).read())

    # ---- started again: the bot comes back by itself and plays ----
    # It has played once a match of it is over (FINISHED).
    def played_after_restart():
        begun = re.findall(r"match (\d+) begins: .*remote", said())
        return [m for m in begun if re.search(r"match %s %s" % (m, FINISHED), said())]

    served = serve(port)
    wait_until(played_after_restart, 180,
               lambda: "the remote bot to play after the restart: " + open(connect_err).read())
    check("bot remote connected" in said(), "the bot's connection: %s" % said())
    if not re.search(r"match \d+ rated: .*remote", said()):
        print("arena_restart_test: the remote bot's match after the restart was void for the "
              "machine (a loaded one): not rated")

    # ---- while it stops, connections are told to come back (503), not that games are over ----
    served.send_signal(signal.SIGTERM)
    status, headers = 0, {}
    deadline = time.monotonic() + 30
    while served.poll() is None and time.monotonic() < deadline:
        try:
            status, headers = remote_host.upgrade(port, "/bot", (
                "Authorization: Bearer " + token, "X-Bananagrams-Session: 1"))
        except OSError:
            break
        if status != 101:
            break
        time.sleep(0.05)
    if served.poll() is None and status:
        check(status == 503 and int(headers.get("retry-after", "0")) > 0,
              "a connection while the arena stops: %d %s" % (status, headers))
    served.wait(timeout=150)

    connect.send_signal(signal.SIGTERM)
    check(connect.wait(timeout=30) == 128 + signal.SIGTERM,
          "connect stopped by SIGTERM: %s" % open(connect_err).read())

    # ---- a grace too short for the next game: it is not begun, and the match voided ----
    # Four bots at a person's pace (the remote bot, checked before, now at it too), whose every
    # game lasts the game's timeout (30 s) and the time its players take to get ready (r: under
    # 2 s alone, 7.5 s beside arena_test on this 2-core machine): SIGTERM a second into the
    # second game, with 45 s of grace. The second game ends within it (30 + r - 1 s later, for
    # r up to 16 s); a third would not (30 + r more), so it is not begun. (With a 3 s timeout
    # and 4 s of grace, a suite's neighbour made r more than the margin had.)
    for name in ("H1", "H2", "H3"):
        run("bot", "disable", name)
    for name in ("S1", "S2", "S3"):
        run("bot", "add", name, "--command", reference + " --level 1")
    served = serve(port, "--game-timeout", "30", "--stop-grace", "45")
    t.start([os.path.join(build, "connect"), "--token-file", token_file, "--words", "from-seat",
             "ws://127.0.0.1:%d/bot" % port, "--", reference + " --level 1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: any(m["games_over"] == 1 for m in api("/api/live")["playing"]), 120,
               "a match's first game over")
    time.sleep(1)
    served.send_signal(signal.SIGTERM)
    check(served.wait(timeout=120) == 0, "the arena after SIGTERM")
    served.said_reader.join(10)
    check(re.search(r"match \d+ void: the arena stopped: its game 3 would not end within the "
                    r"stop's grace", said()),
          "the match playing at a short stop not voided before its third game: %s" % said())
finally:
    t.end()
print("arena_restart_test: all passed")
