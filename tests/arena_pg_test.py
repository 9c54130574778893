#!/usr/bin/env python3
"""The arena on PostgreSQL (docs/arena.md, "On PostgreSQL"), run under pg_virtualenv (a server
of the test's own, libpq's environment pointing at it):

    tests/with_postgresql python3 tests/arena_pg_test.py BUILD_DIR

- `arena bot add --db dbname=...` makes the arena in an empty database; a second `arena serve`
  on it while one serves is refused; `arena serve` on it
  plays and rates matches of a remote bot and house bots; killed with SIGKILL mid-match,
  started again, it voids that match and plays on; PostgreSQL stopped under it (meanwhile what
  needs the database is answered 503, Retry-After) and started again, it plays on; `arena rerate` finds every stored rating to the bit.
- Every game's event log is kept in the database (gzipped) as its match is rated.
- `arena copy` to an SQLite file and from it to a second PostgreSQL database: the same
  standings, the same matches and the same rerate at each step; a copy into an arena that has
  one is refused and changes nothing.
- A password on the command line is refused before anything connects, and never echoed; a
  database that is not there, or holds no arena, is said so.
"""
import gzip
import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_support import ArenaRun  # noqa: E402

t = ArenaRun("arena_pg_test", sys.argv[1])
build, work = t.build, t.work
reference = os.path.join(build, "reference_bot")
check, run, said, wait_until = t.check, t.run, t.said, t.wait_until


def psql(statement, database="postgres"):
    done = subprocess.run(["psql", "-v", "ON_ERROR_STOP=1", "-qAt", "-d", database, "-c",
                           statement], capture_output=True, text=True, timeout=60)
    check(done.returncode == 0, "psql %s: %s" % (statement, done.stderr))
    return done.stdout.strip()


def arena(*args):
    """An `arena` command as it is: (exit status, stdout, stderr)."""
    done = subprocess.run([t.arena, *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def settled(db):
    """What an arena holds that a copy must keep: its standings, matches and rerate."""
    status, standings, err = arena("standings", "--db", db, "--json")
    check(status == 0, "standings on %s: %s" % (db, err))
    status, rerate, err = arena("rerate", "--db", db, "--json")
    check(status == 0, "rerate on %s disagrees (%d): %s %s" % (db, status, rerate[:2000], err))
    check(json.loads(rerate)["agree"], "rerate on %s: %s" % (db, rerate[:2000]))
    return json.loads(standings), json.loads(rerate)


check(os.environ.get("PGHOST") and os.environ.get("PGPORT"),
      "run under pg_virtualenv: no PostgreSQL server in the environment")
for name in ("arena_first", "arena_back"):
    psql("DROP DATABASE IF EXISTS %s" % name)
    psql("CREATE DATABASE %s" % name)
t.db = "dbname=arena_first"
logs = os.path.join(work, "logs")

try:
    # ---- a database that holds no arena, or is not there ----
    status, _, err = arena("standings", "--db", t.db)
    check(status == 1 and "holds no arena" in err and "arena bot add" in err,
          "standings on an empty database (%d): %s" % (status, err))
    status, _, err = arena("bot", "add", "x", "--db", "dbname=no_such_database")
    check(status == 1 and "cannot connect" in err and "no_such_database" in err,
          "a database that is not there (%d): %s" % (status, err))
    # ---- a password on the command line: refused, never echoed ----
    for db in ("postgresql://postgres:s3cret-pw@localhost/arena_first",
               "host=localhost dbname=arena_first password=s3cret-pw"):
        status, out, err = arena("standings", "--db", db)
        check(status == 1 and "holds a password" in err and "s3cret-pw" not in err + out,
              "a password on the command line (%d): %s" % (status, err))
    check(psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
               "arena_first") == "0", "a refused command wrote to the database")

    # ---- made by bot add; served; killed mid-match; served again ----
    for name in ("H1", "H2", "H3"):
        run("bot", "add", name, "--command", reference)
    token = run("bot", "add", "remote").splitlines()[-1]
    check(psql("SELECT version FROM arena_schema", "arena_first") == "11", "the schema's version")
    check(token not in psql("SELECT string_agg(t::text, ' ') FROM bots t", "arena_first"),
          "the token itself kept")
    # House bots fill the tables of others: a remote bot behind bananagrams-connect, which
    # comes back by itself after the arena is killed.
    served = t.serve("--no-sandbox", "--logs", logs, "--max-wait", "1", "--max-players", "2")
    port = served.port
    t.outputs.append(os.path.join(work, "connect.err"))
    t.start([os.path.join(build, "connect"), "--token-file", t.token_file("remote", token),
             "--words", "from-seat", "--restart-wait", "120", "ws://127.0.0.1:%d/bot" % port,
             "--", reference], stdout=subprocess.DEVNULL, stderr=open(t.outputs[-1], "w"))
    wait_until(lambda: len(re.findall(r"match \d+ rated", said())) >= 3, 180,
               "three matches rated on PostgreSQL")
    # A second arena on the same database is refused before it writes anything (it would void
    # the first's matches playing): one arena serves a database.
    status, _, err = arena("serve", "--db", t.db, "--listen", "127.0.0.1:0", "--no-sandbox")
    check(status == 1 and "another arena serves this database" in err,
          "a second arena on the database (%d): %s" % (status, err))
    check(served.poll() is None and "voided" not in said(), "the first arena after the second")
    rated = len(re.findall(r"match \d+ rated", said()))
    wait_until(lambda: re.search(r"match %d begins" % (rated + 1), said()) or
               len(re.findall(r"match \d+ rated", said())) > rated, 60, "a match begun")
    running = psql("SELECT id FROM matches WHERE state = 'running'", "arena_first")
    served.send_signal(signal.SIGKILL)
    served.wait(timeout=30)
    before = said()
    served = t.serve("--no-sandbox", "--logs", logs, "--max-wait", "1", "--max-players", "2", port=port)
    wait_until(lambda: len(re.findall(r"match \d+ rated", said())) >= 2, 180,
               "two more matches rated after the restart")
    # ---- PostgreSQL itself stopped for a while, then started: the arena plays on ----
    cluster = [os.environ["PGVERSION"], "regress"]
    subprocess.run(["pg_ctlcluster", *cluster, "stop", "-m", "fast"], check=True, timeout=60)
    wait_until(lambda: "cannot be written" in said() or "could not" in said(), 60,
               "the arena to find its database gone")
    # Meanwhile what needs the database is answered 503, to come back; the arena serves on.
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/api/bots/H1" % port, timeout=30):
            status, retry = 200, None
    except urllib.error.HTTPError as e:
        status, retry = e.code, e.headers.get("Retry-After")
    check(status == 503 and retry == "5", "a bot's document without its database: %s %s" %
          (status, retry))
    check(served.poll() is None, "the arena ended without its database")
    subprocess.run(["pg_ctlcluster", *cluster, "start"], check=True, timeout=60)
    wait_until(lambda: t.api("/api/bots/H1")["name"] == "H1", 60, "the bot's document again")
    rated = len(re.findall(r"match \d+ rated", said()))
    wait_until(lambda: len(re.findall(r"match \d+ rated", said())) >= rated + 2, 180,
               "two matches rated after PostgreSQL came back")
    served.send_signal(signal.SIGTERM)
    check(served.wait(timeout=120) == 0, "the arena after SIGTERM")
    states = psql("SELECT state, count(*) FROM matches GROUP BY state ORDER BY state",
                  "arena_first")
    check("running" not in states, "a match left running: %s" % states)
    if running:
        check(psql("SELECT state FROM matches WHERE id = %s" % running, "arena_first") == "void",
              "the match killed mid-way (%s) not void: %s" % (running, states))
    check(len(before) > 0, "the first arena said nothing")
    # Every game's log kept in the database as its match was rated, as its file says.
    check(psql("SELECT count(*) FROM games WHERE log_gz IS NULL", "arena_first") == "0" and
          int(psql("SELECT count(*) FROM games", "arena_first")) > 0, "a game's log not kept")
    some = psql("SELECT log FROM games ORDER BY id LIMIT 1", "arena_first")
    with open(some, "rb") as f:
        check(gzip.decompress(bytes.fromhex(psql(
            "SELECT encode(log_gz, 'hex') FROM games ORDER BY id LIMIT 1", "arena_first"))) ==
            f.read(), "the kept log differs from its file")
    first = settled(t.db)
    check(first[1]["matches"] >= 5, "rated matches: %s" % first[1]["matches"])

    # ---- copied to a file, and from it to a second PostgreSQL database ----
    file_db = os.path.join(work, "copied.db")
    status, out, err = arena("copy", "--from", t.db, "--to", file_db, "--json")
    check(status == 0, "copy to a file (%d): %s" % (status, err))
    rows = json.loads(out)["rows"]
    check(rows["matches"] == int(psql("SELECT count(*) FROM matches", "arena_first")),
          "rows copied: %s" % out)
    check(settled(file_db) == first, "the file's standings or rerate differ from PostgreSQL's")
    status, out, err = arena("copy", "--from", file_db, "--to", "dbname=arena_back")
    check(status == 0 and "copied" in out, "copy back (%d): %s %s" % (status, out, err))
    check(settled("dbname=arena_back") == first, "the copy back differs")
    for table in ("bots", "entries", "matches", "match_entries", "games"):
        query = "SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM %s t" % table
        check(psql(query, "arena_first") == psql(query, "arena_back"),
              "%s differ after SQLite and back" % table)
    # The copy lets the same bot in with the same token, and draws new ids past the copied.
    check(psql("SELECT name FROM bots WHERE token_hash = '%s'" %
               psql("SELECT token_hash FROM bots WHERE name = 'remote'", "arena_first"),
               "arena_back") == "remote", "the token's hash not copied")
    run_back = ArenaRun("arena_postgresql_back", build)
    run_back.db = "dbname=arena_back"
    run_back.run("bot", "add", "late")
    check(psql("SELECT id FROM bots WHERE name = 'late'", "arena_back") ==
          str(int(psql("SELECT max(id) FROM bots", "arena_first")) + 1), "a new id after the copy")
    run_back.end()
    # Into an arena that has one: refused, nothing written.
    count = psql("SELECT count(*) FROM matches", "arena_back")
    status, _, err = arena("copy", "--from", t.db, "--to", "dbname=arena_back")
    check(status == 1 and "holds an arena already" in err, "a copy over an arena (%d): %s" %
          (status, err))
    check(psql("SELECT count(*) FROM matches", "arena_back") == count, "the refused copy wrote")
    status, out, _ = arena("serve", "--help")
    check(status == 0 and "serve's options" in out and "--listen" in out and "copy" in out,
          "arena serve --help: %s" % out[-500:])
    status, _, err = arena("copy", "--from", t.db)
    check(status == 2 and "--to" in err, "copy without --to (%d): %s" % (status, err))
finally:
    t.end()
print("arena_pg_test: ok")
