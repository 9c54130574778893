#!/usr/bin/env python3
"""Front nodes (docs/arena.md, "Front nodes"), on a PostgreSQL server of the test's own:

    tests/with_postgresql python3 tests/arena_front_test.py BUILD_DIR

- An arena on PostgreSQL plays (house bots, a remote bot behind bananagrams-connect) while a
  second `arena serve --standby`, at an address of its own, is a front node: it answers
  /api/server as a front, and the API's documents and the pages as the holder answers them
  (read at a moment when the holder's did not change), and lets no one without a token sit; its
  event stream sends the holder's
  events under the same ids with the same data, and a reader that comes to it with a
  Last-Event-ID the holder gave is sent what it missed, not a snapshot.
- The holder killed with SIGKILL: the front takes the database over at its own address,
  voids the match left running and plays on; a reader that comes back to it with the last id
  it had is sent what came since, not a snapshot; SIGTERM ends it; `arena rerate` agrees.
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_support import ArenaRun, free_port  # noqa: E402
from live_client import Stream  # noqa: E402
from remote_host import arena_port, upgrade  # noqa: E402

t = ArenaRun("arena_front_test", sys.argv[1])
build, work = t.build, t.work
reference = os.path.join(build, "reference_bot")
check, run, wait_until, psql = t.check, t.run, t.wait_until, t.psql


def get(port, path):
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=30) as r:
        return r.read()


def rated(lines):
    return len(re.findall(r"match \d+ rated", "".join(lines)))


class Reader(threading.Thread):
    """A stream read on its own thread: every event it sends, as (id, name, data text)."""

    def __init__(self, port, last_id=None):
        super().__init__(daemon=True)
        self.stream = Stream(port, last_id)
        self.events = []
        self.start()

    def run(self):
        try:
            while (event := self.stream.next()) is not None:
                self.events.append((event[0], event[1], self.stream.data))
        except OSError:
            pass

    def close(self):
        try:
            self.stream.close()
        except OSError:
            pass


def connect(port, name):
    """The remote bot, behind bananagrams-connect, at the arena on `port`."""
    t.outputs.append(os.path.join(work, name + ".err"))
    return t.start([os.path.join(build, "connect"), "--token-file", t.token_file("remote", token),
                    "--words", "from-seat", "--restart-wait", "120",
                    "ws://127.0.0.1:%d/bot" % port, "--", reference],
                   stdout=subprocess.DEVNULL, stderr=open(t.outputs[-1], "w"))


t.use_postgresql("arena_front")
options = ["--no-sandbox", "--max-wait", "1", "--max-players", "2"]

try:
    for name in ("H1", "H2"):
        run("bot", "add", name, "--command", reference)
    token = run("bot", "add", "remote").splitlines()[-1]
    holder = t.serve(*options, "--logs", os.path.join(work, "logs-a"))
    first_connect = connect(holder.port, "connect-a")
    wait_until(lambda: rated(holder.said_lines) >= 2, 180, "two matches rated by the holder")

    # ---- a front node beside it ----
    front = t.start([t.arena, "serve", "--db", t.db, "--listen", "127.0.0.1:%d" % free_port(),
                     "--standby", "--logs", os.path.join(work, "logs-b"), *options],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    front.port = arena_port(front)
    check(front.port, "the front said no address: %s" % "".join(front.said_lines))
    check("as a front node" in "".join(front.said_lines), "not a front: %s" %
          "".join(front.said_lines))
    check(json.loads(get(front.port, "/api/server"))["role"] == "front", "the front's role")
    check(json.loads(get(holder.port, "/api/server"))["role"] == "holder", "the holder's role")
    at_holder, at_front = Reader(holder.port), Reader(front.port)
    wait_until(lambda: len([e for e in at_holder.events if e[1] == "match"]) >= 3, 180,
               "three more matches rated beside the front")

    # The holder's stream's events since the front's reader began (its snapshot's id), on the
    # front: the same ids, the same data.
    def relayed():
        if not at_front.events:
            return False
        check(at_front.events[0][1] == "snapshot", "the front's stream began with %s" %
              (at_front.events[0],))
        since = at_front.events[0][0]
        kept = {e[0]: e for e in at_front.events[1:]}
        ours = [e for e in at_holder.events if e[1] != "snapshot" and e[0] > since]
        return ours and all(kept.get(e[0]) == e for e in ours)
    wait_until(relayed, 30, lambda: "the holder's events on the front: %s\n%s" % (
        at_holder.events[-5:], at_front.events[-5:]))
    matches = [e for e in at_holder.events if e[1] == "match"]

    # A reader that comes to the front with an id the holder gave: what it missed, no snapshot.
    resumed_from = matches[0][0]
    resumed = Stream(front.port, resumed_from)
    event = resumed.next()
    check(event[1] != "snapshot" and event[0] > resumed_from and
          event[0] == min(e[0] for e in at_holder.events if e[0] > resumed_from),
          "resumed at the front from %d: %s" % (resumed_from, event))
    resumed.close()

    # The documents and pages the same from both, read while the holder's did not change.
    paths = ["/api/leaderboard", "/api/people", "/api/config", "/api/bots/H1",
             "/api/bots/remote", "/api/matches/1", "/api/matches/1/games/1", "/api/live",
             "/api/hosting", "/", "/bots/H1", "/matches/1", "/matches/1/games/1", "/live"]

    def same(path):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            a, b, c = get(holder.port, path), get(front.port, path), get(holder.port, path)
            if a == b == c:
                return True
            time.sleep(0.05)
        check(False, "%s differs:\nholder %s\nfront  %s" % (path, a[:3000], b[:3000]))
    for path in paths:
        same(path)

    # What waits and plays, and the counts of the holder's core, the same but for the clock.
    def state_of(port):
        queue = json.loads(get(port, "/api/queue"))
        for waiting in queue["waiting"]:
            waiting.pop("waiting_ms")
        server = json.loads(get(port, "/api/server"))
        return queue, [server[k] for k in ("playing", "checking", "queued", "unrecorded",
                                           "database_writable")]
    wait_until(lambda: state_of(holder.port) == state_of(front.port) == state_of(holder.port),
               60, lambda: "the queue and counts: %s %s" % (state_of(holder.port),
                                                            state_of(front.port)))
    try:
        get(front.port, "/api/bots/nobody")
        check(False, "a bot there is not: answered by the front")
    except urllib.error.HTTPError as e:
        check(e.code == 404, "a bot there is not, at the front: %d" % e.code)
    # A front's own door (its seating: tests/arena_front_seating_test.py): no token, no seat.
    for path in ("/bot", "/person"):
        status, _ = upgrade(front.port, path)
        check(status in (400, 401), "an upgrade to %s at the front: %d" % (path, status))

    # ---- the holder killed: the front takes over at its own address ----
    last_seen = at_front.events[-1][0]
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    first_connect.kill()
    wait_until(lambda: "taking over" in "".join(front.said_lines), 60, "the front to take over")
    wait_until(lambda: len(re.findall(r"listening on http://127\.0\.0\.1:%d/" % front.port,
                                      "".join(front.said_lines))) >= 2, 60,
               "the front to listen again as the holder")
    check(json.loads(get(front.port, "/api/server"))["role"] == "holder", "the new holder's role")
    check("left running by an arena that stopped voided" in "".join(front.said_lines) or
          psql("SELECT count(*) FROM matches WHERE state = 'running'", "arena_front") == "0",
          "the match the holder left running")
    connect(front.port, "connect-b")
    wait_until(lambda: rated(front.said_lines) >= 2, 180, "two matches rated by the new holder")
    # A reader back with the last id it had: what came since, from both holders, no snapshot.
    back = Stream(front.port, last_seen)
    event = back.next()
    following = int(psql("SELECT min(id) FROM stream_events WHERE id > %d" % last_seen,
                         "arena_front"))
    check(event[1] != "snapshot" and event[0] == following,
          "resumed at the new holder from %d: %s, not %d" % (last_seen, event, following))
    back.close()
    at_holder.close()
    at_front.close()
    front.send_signal(signal.SIGTERM)
    check(front.wait(timeout=120) == 0, "the new holder after SIGTERM")
    check(psql("SELECT count(*) FROM matches WHERE state = 'running'", "arena_front") == "0",
          "a match left running")
    status = subprocess.run([t.arena, "rerate", "--db", t.db, "--json"], capture_output=True,
                            text=True, timeout=120)
    check(status.returncode == 0 and json.loads(status.stdout)["agree"],
          "rerate: %s %s" % (status.stdout[:2000], status.stderr))
finally:
    t.end()
print("arena_front_test: ok")
