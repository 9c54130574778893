#!/usr/bin/env python3
"""Front nodes seat (docs/arena.md, "Front nodes"), on a PostgreSQL server of the test's own:

    tests/with_postgresql python3 tests/arena_front_seating_test.py BUILD_DIR

- An arena on PostgreSQL (the holder) and a front node (`arena serve --standby` at an address
  of its own). A remote bot behind bananagrams-connect connects to the front, another to the
  holder. The front's bot is checked over its connection at the front, and its matches, with the
  house bots that fill its table, are played at the front ("begins at front node") and rated by
  the holder; the holder's bot plays at the holder; the two never share a table. A person signs
  in at the front (/person) and plays the house bot chosen there.
- The front killed with SIGKILL while it plays a match: the holder voids that match (its lease
  ran out) and plays on with its own bot; the front started again at its address takes its bot
  back (bananagrams-connect comes back to it), which plays there and is rated again.
- The holder killed with SIGKILL: the front takes the database over at its own address (its
  match under way ended, its connections told to come back), and its bot, back, is seated and
  rated by it, the holder now.
- At the end, after SIGTERM: every match rated or void, none left running, none rated twice,
  `arena rerate` agrees.
"""
import os
import re
import signal
import subprocess
import sys
import json

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_support import ArenaRun, free_port, person_plays  # noqa: E402
from remote_host import arena_port  # noqa: E402

t = ArenaRun("arena_front_seating_test", sys.argv[1])
build, work = t.build, t.work
reference = os.path.join(build, "reference_bot")
check, run, wait_until, psql = t.check, t.run, t.wait_until, t.psql


def connect(port, name, token):
    """A remote bot, behind bananagrams-connect, at the arena on `port`: it tries again for
    two minutes however its connection drops (a node killed says nothing)."""
    t.outputs.append(os.path.join(work, name + ".err"))
    return t.start([os.path.join(build, "connect"), "--token-file", t.token_file(name, token),
                    "--words", "from-seat", "--restart-wait", "120", "--grace", "120",
                    "ws://127.0.0.1:%d/bot" % port, "--", reference],
                   stdout=subprocess.DEVNULL, stderr=open(t.outputs[-1], "w"))


def front_node(port, logs):
    process = t.start([t.arena, "serve", "--db", t.db, "--listen", "127.0.0.1:%d" % port,
                       "--standby", "--logs", os.path.join(work, logs), *options],
                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    process.port = arena_port(process)
    check(process.port == port, "the front said no address: %s" % "".join(process.said_lines))
    return process


def matches_of(bot):
    """Each match `bot` played in, with its state: {id: state}."""
    rows = psql("SELECT m.id, m.state FROM matches m JOIN match_entries me ON me.match_id = m.id "
                "JOIN entries e ON e.id = me.entry_id JOIN bots b ON b.id = e.bot_id WHERE "
                "b.name = '%s' UNION SELECT j.match_id, m.state FROM jobs j JOIN matches m ON "
                "m.id = j.match_id WHERE j.plan LIKE '%%\"name\":\"%s\"%%'" % (bot, bot),
                "arena_front_seating")
    return {int(r.split("|")[0]): r.split("|")[1] for r in rows.splitlines() if r}


def at_front(lines):
    """The matches the holder began at a front node."""
    return [int(m) for m in re.findall(r"match (\d+) begins at front node", "".join(lines))]


t.use_postgresql("arena_front_seating")
options = ["--no-sandbox", "--max-wait", "1", "--max-players", "2"]

try:
    for name in ("H1", "H2"):
        run("bot", "add", name, "--command", reference)
    tokens = {name: run("bot", "add", name).splitlines()[-1] for name in ("far", "near")}
    pat = run("person", "add", "pat").splitlines()[-1]
    holder = t.serve(*options, "--logs", os.path.join(work, "logs-a"))
    front_port = free_port()
    front = front_node(front_port, "logs-b")
    connect(front.port, "far", tokens["far"])
    near_bot = connect(holder.port, "near", tokens["near"])

    # The far bot is checked at the front, plays there, and is rated by the holder.
    # (Its check's games run over its connection, which only the front has.)
    wait_until(lambda: "bot far passed its check" in "".join(holder.said_lines), 180,
               "the far bot checked at the front")
    check("bot far" in "".join(front.said_lines), "the front said nothing of the far bot: %s" %
          "".join(front.said_lines))
    wait_until(lambda: list(matches_of("far").values()).count("rated") >= 2, 240,
               "two matches of the far bot rated")
    wait_until(lambda: list(matches_of("near").values()).count("rated") >= 2, 240,
               "two matches of the near bot rated")
    placed = set(at_front(holder.said_lines))
    far, near = matches_of("far"), matches_of("near")
    check(set(far) <= placed, "a match of the far bot not at the front: %s, %s" % (far, placed))
    check(not set(near) & placed, "a match of the near bot at the front: %s" % near)
    check(not set(far) & set(near), "the far and near bots at one table: %s %s" % (far, near))
    said = "".join(front.said_lines)
    for match in [m for m, state in far.items() if state == "rated"]:
        check("match %d played here" % match in said, "match %d not played at the front" % match)

    # A person at the front: signed in by its door, plays the house bot chosen, there.
    games, code, why = person_plays(front.port, "pat", pat, "H1", reference, t.started)
    check(games == 2 and code == 1000, "the person's match at the front: %d games, closed %s %r"
          % (games, code, why))
    pats = matches_of("pat")
    check(len(pats) == 1 and set(pats) <= set(at_front(holder.said_lines)),
          "the person's match not at the front: %s" % pats)
    wait_until(lambda: list(matches_of("pat").values()) == ["rated"], 60,
               "the person's match rated")

    # ---- the front killed while it plays a match of its bot ----
    def playing_at_front():
        running = [m for m, state in matches_of("far").items() if state == "running"]
        return running and psql("SELECT state FROM jobs WHERE match_id = %d" % running[0],
                                "arena_front_seating") == "claimed" and running[0]
    wait_until(playing_at_front, 240, "a match of the far bot playing at the front")
    killed_in = playing_at_front()
    front.send_signal(signal.SIGKILL)
    front.wait(timeout=30)
    wait_until(lambda: matches_of("far").get(killed_in) == "void", 60,
               "the match the front was playing void")
    check("front node" in psql("SELECT why FROM matches WHERE id = %d" % killed_in,
                               "arena_front_seating"), "why the match was void")
    near_before = list(matches_of("near").values()).count("rated")
    wait_until(lambda: list(matches_of("near").values()).count("rated") > near_before, 180,
               "the holder's bot plays on without the front")

    # ---- the front again, at its address: its bot back, playing there ----
    far_before = list(matches_of("far").values()).count("rated")
    front = front_node(front_port, "logs-c")
    wait_until(lambda: list(matches_of("far").values()).count("rated") > far_before, 240,
               lambda: "the far bot rated again, back at the front; the front said:\n%s" %
               "".join(front.said_lines)[-3000:])
    check("match %d played here" % max(m for m, s in matches_of("far").items() if s == "rated")
          in "".join(front.said_lines), "the far bot's last match not played at the new front")

    # ---- the holder killed: the front takes over, and seats its bot as the holder ----
    near_bot.kill()
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    far_before = list(matches_of("far").values()).count("rated")
    wait_until(lambda: "taking over" in "".join(front.said_lines), 60, "the front to take over")
    wait_until(lambda: list(matches_of("far").values()).count("rated") > far_before, 240,
               lambda: "the far bot rated by the front, the holder now; it said:\n%s" %
               "".join(front.said_lines)[-3000:])
    last = max(m for m, s in matches_of("far").items() if s == "rated")
    check(re.search(r"match %d begins: " % last, "".join(front.said_lines)),
          "the far bot's match at the new holder: %s" % "".join(front.said_lines)[-2000:])

    # ---- the end: SIGTERM; nothing running, nothing rated twice, rerate agrees ----
    front.send_signal(signal.SIGTERM)
    check(front.wait(timeout=120) == 0, "the new holder after SIGTERM")
    check(psql("SELECT count(*) FROM matches WHERE state = 'running'", "arena_front_seating")
          == "0", "a match left running")
    check(psql("SELECT count(*) FROM (SELECT rated_order FROM matches WHERE rated_order IS NOT "
               "NULL GROUP BY rated_order HAVING count(*) > 1) x", "arena_front_seating") == "0",
          "a rating order given twice")
    status = subprocess.run([t.arena, "rerate", "--db", t.db, "--json"], capture_output=True,
                            text=True, timeout=120)
    check(status.returncode == 0 and json.loads(status.stdout)["agree"],
          "rerate: %s %s" % (status.stdout[:2000], status.stderr))
finally:
    t.end()
print("arena_front_seating_test: ok")
