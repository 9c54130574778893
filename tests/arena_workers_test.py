#!/usr/bin/env python3
"""An arena whose matches of house and hosted bots are played by workers (docs/arena.md,
"Workers"), as a small cluster on one machine, run under pg_virtualenv:

    tests/with_postgresql python3 tests/arena_workers_test.py BUILD_DIR SOURCE_DIR

`arena serve --workers` on PostgreSQL with house bots, a hosted bot (its archive fetched by the
workers from the database) and a remote bot behind bananagrams-connect; three `arena worker`s,
each on the machine's cores with a short lease. Then, while it plays:
- a worker killed with SIGKILL mid-match: its lease runs out, its match is void, the others
  play on;
- the arena killed with SIGKILL: a standby (`serve --standby`, waiting on the same database)
  takes over, voids what it left running (the workers' results for those refused), and the
  workers play its next matches;
- PostgreSQL stopped and started: the arena and the workers wait for it and play on.
Afterwards: every match rated once or void, none running, no job left claimed; the remote bot's
matches played by the arena, the others by the workers (by each of them); every game's log
kept in the database and the match's seed in it; `arena rerate` agrees to the bit; the workers
gone from the database; no process of the test left. A worker with --no-sandbox is refused.
"""
import gzip
import io
import json
import os
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_support import ArenaRun  # noqa: E402
from remote_host import arena_port  # noqa: E402

t = ArenaRun("arena_workers_test", sys.argv[1], parent=os.path.abspath(sys.argv[1]))
source = os.path.abspath(sys.argv[2])
build, work = t.build, t.work
reference = os.path.join(build, "reference_bot")
check, run, said, wait_until = t.check, t.run, t.said, t.wait_until
database = "arena_workers"


def psql(statement):
    done = subprocess.run(["psql", "-v", "ON_ERROR_STOP=1", "-qAt", "-d", database, "-c",
                           statement], capture_output=True, text=True, timeout=60)
    check(done.returncode == 0, "psql %s: %s" % (statement, done.stderr))
    return done.stdout.strip()


def count(statement):
    return int(psql(statement) or 0)


def rated():
    return count("SELECT count(*) FROM matches WHERE state = 'rated'")


def by_workers():
    return count("SELECT count(*) FROM jobs j JOIN matches m ON m.id = j.match_id "
                 "WHERE m.state = 'rated'")


def archive(files, manifest):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        files = dict(files, **{"bananagrams.json": json.dumps(manifest).encode()})
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(content), 0o644
            tar.addfile(info, io.BytesIO(content))
    return data.getvalue()


def read(path):
    with open(path, "rb") as f:
        return f.read()


workers = {}


def worker(name):
    """`arena worker` NAME: its output in a file the failure shows."""
    out = os.path.join(work, name + ".err")
    t.outputs.append(out)
    workers[name] = t.start([t.arena, "worker", "--db", t.db, "--name", name, "--lease", "3",
                             "--poll", "0.2", "--logs", os.path.join(work, name, "logs"),
                             "--cache", os.path.join(work, name, "cache"), "--stop-grace", "60"],
                            stdout=subprocess.DEVNULL, stderr=open(out, "w"))
    return workers[name]


def worker_said(name):
    with open(os.path.join(work, name + ".err"), errors="replace") as f:
        return f.read()


check(os.environ.get("PGHOST") and os.environ.get("PGPORT"),
      "run under pg_virtualenv: no PostgreSQL server in the environment")
subprocess.run(["psql", "-qc", "DROP DATABASE IF EXISTS %s" % database, "postgres"], check=True)
subprocess.run(["psql", "-qc", "CREATE DATABASE %s" % database, "postgres"], check=True)
t.db = "dbname=" + database
logs = os.path.join(work, "logs")
hosted_dir = os.path.join(work, "hosted")
options = ["--workers", "--hosted", hosted_dir, "--logs", logs, "--max-wait", "1",
           "--max-players", "2", "--concurrency", "8", "--house-seats", "2", "--cores", "2"]

try:
    for name, level in (("H1", "5"), ("H2", "5"), ("H3", "4")):
        run("bot", "add", name, "--command", "%s --level %s" % (reference, level))
    remote_token = run("bot", "add", "remote").splitlines()[-1]
    hosted_token = run("bot", "add", "pybot").splitlines()[-1]

    # On a file, --workers is refused: the workers reach the store from other machines.
    subprocess.run([t.arena, "bot", "add", "x", "--db", os.path.join(work, "file.db")],
                   check=True, capture_output=True, timeout=60)
    done = subprocess.run([t.arena, "serve", "--db", os.path.join(work, "file.db"), "--listen",
                           "127.0.0.1:0", "--workers", "--no-sandbox"], capture_output=True,
                          text=True, timeout=60)
    check(done.returncode == 2 and "PostgreSQL" in done.stderr,
          "--workers on a file (%d): %s" % (done.returncode, done.stderr))

    # A worker runs hosted bots' code: never unsandboxed.
    done = subprocess.run([t.arena, "worker", "--db", t.db, "--no-sandbox"], capture_output=True,
                          text=True, timeout=60)
    check(done.returncode == 2 and "sandbox" in done.stderr,
          "a worker with --no-sandbox (%d): %s" % (done.returncode, done.stderr))
    # An address in use: said, and it ends (nothing of its workers' side keeps it waiting).
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    done = subprocess.run([t.arena, "serve", "--db", t.db, "--listen",
                           "127.0.0.1:%d" % taken.getsockname()[1], *options],
                          capture_output=True, text=True, timeout=60)
    taken.close()
    check(done.returncode == 1 and "in use" in done.stderr,
          "serve --workers at an address in use (%d): %s" % (done.returncode, done.stderr))
    served = t.serve(*options)
    port = served.port
    # No worker yet: nothing of the house bots begins.
    for name in ("w1", "w2", "w3"):
        worker(name)
    wait_until(lambda: "the workers have 6 cores" in said(), 60, "three workers seen")

    # A hosted bot's version, checked by the arena, then played by the workers from the archive
    # they fetch from the database.
    # It says a word on stderr as it starts, which its author reads of a game a worker played.
    noisy = (b"import os, sys\n"
             b"sys.stderr.write('pybot starts on stderr\\n')\n"
             b"sys.stderr.flush()\n"
             b"os.execvp('python3', ['python3', 'example_player.py'])\n")
    example = {"example_player.py": read(os.path.join(source, "players", "example_player.py")),
               "example_grids.py": read(os.path.join(source, "players", "example_grids.py")),
               "noisy.py": noisy}
    path = os.path.join(work, "pybot.tar.gz")
    with open(path, "wb") as f:
        f.write(archive(example, {"command": "python3 noisy.py", "protocol": "v1",
                                  "label": "py-1"}))
    done = subprocess.run([t.arena, "bot", "submit", "--token-file",
                           t.token_file("pybot", hosted_token),
                           "http://127.0.0.1:%d/bots/pybot" % port, path],
                          capture_output=True, text=True, timeout=120)
    check(done.returncode == 0, "bot submit: %s %s" % (done.stdout, done.stderr))
    # A remote bot: its matches are the arena's own.
    t.outputs.append(os.path.join(work, "connect.err"))
    t.start([os.path.join(build, "connect"), "--token-file", t.token_file("remote", remote_token),
             "--words", "from-seat", "--restart-wait", "120", "ws://127.0.0.1:%d/bot" % port,
             "--", reference], stdout=subprocess.DEVNULL, stderr=open(t.outputs[-1], "w"))
    wait_until(lambda: by_workers() >= 4, 240, "four matches played by the workers and rated")
    wait_until(lambda: "hosted bot pybot plays version py-1" in said(), 240,
               "the hosted version checked")
    # What it wrote to stderr in a game a worker played: its author reads it from the arena.
    pybot_at_worker = ("SELECT j.match_id FROM jobs j JOIN matches m ON m.id = j.match_id JOIN "
                       "match_entries e ON e.match_id = m.id JOIN entries n ON n.id = e.entry_id "
                       "JOIN bots b ON b.id = n.bot_id WHERE b.name = 'pybot' AND m.state = "
                       "'rated' ORDER BY j.match_id LIMIT 1")
    wait_until(lambda: psql(pybot_at_worker), 240, "a match of the hosted bot at a worker")
    request = urllib.request.Request("http://127.0.0.1:%d/api/bots/pybot/games/%s-1/stderr"
                                     % (port, psql(pybot_at_worker)))
    request.add_header("Authorization", "Bearer " + hosted_token)
    with urllib.request.urlopen(request, timeout=60) as r:
        told = r.read().decode()
    check("pybot starts on stderr" in told, "its stderr of a worker's game: %r" % told)

    # ---- a worker killed mid-match: its lease runs out, its match is void ----
    wait_until(lambda: psql("SELECT worker FROM jobs WHERE state = 'claimed' LIMIT 1"), 120,
               "a match claimed")
    victim = psql("SELECT worker FROM jobs WHERE state = 'claimed' ORDER BY match_id LIMIT 1")
    lost = psql("SELECT match_id FROM jobs WHERE state = 'claimed' AND worker = '%s' "
                "ORDER BY match_id LIMIT 1" % victim)
    check(lost, "the claimed match of %s" % victim)
    workers[victim].send_signal(signal.SIGKILL)
    workers[victim].wait(timeout=30)
    wait_until(lambda: psql("SELECT state FROM matches WHERE id = %s" % lost) == "void", 60,
               "the killed worker's match %s void" % lost)
    check("was cut off (its lease ran out)" in psql("SELECT why FROM matches WHERE id = %s" %
                                                     lost), "the void's reason")
    before = by_workers()
    wait_until(lambda: by_workers() >= before + 2, 180, "the other workers play on")
    worker(victim)  # back, under its name

    # ---- the arena killed mid-match: a standby takes over, voids what it left, and the
    # workers play on for it ----
    standby = t.start([t.arena, "serve", "--db", t.db, "--listen", "127.0.0.1:%d" % port,
                       "--standby", *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                      text=True)
    reader = threading.Thread(target=lambda: setattr(standby, "port", arena_port(standby)))
    reader.start()
    wait_until(lambda: count("SELECT count(*) FROM jobs WHERE state = 'claimed'") > 0, 120,
               "a match claimed before the arena is killed")
    left = psql("SELECT match_id FROM jobs WHERE state = 'claimed' ORDER BY match_id LIMIT 1")
    wait_until(lambda: "standing by" in "".join(getattr(standby, "said_lines", [])), 60,
               "the standby to stand by")
    check(standby.poll() is None and not getattr(standby, "port", None),
          "the standby began serving beside the arena")
    served.send_signal(signal.SIGKILL)
    served.wait(timeout=30)
    reader.join(timeout=60)
    served = t.served = standby
    check(getattr(standby, "port", None) == port, "the standby did not take over")
    check("standing by" in said() and "taking over" in said(), "the standby's words: " + said())
    wait_until(lambda: psql("SELECT state FROM matches WHERE id = %s" % left) == "void", 60,
               "the match %s the killed arena left void" % left)
    before = by_workers()
    wait_until(lambda: by_workers() >= before + 2, 180, "the workers play for the new arena")

    # ---- PostgreSQL stopped and started: everyone waits for it, and plays on ----
    cluster = [os.environ["PGVERSION"], "regress"]
    subprocess.run(["pg_ctlcluster", *cluster, "stop", "-m", "fast"], check=True, timeout=60)
    wait_until(lambda: all("could not be reached" in worker_said(n) for n in ("w1", "w2", "w3")
                           if workers[n].poll() is None), 60, "the workers to find it gone")
    subprocess.run(["pg_ctlcluster", *cluster, "start"], check=True, timeout=60)
    check(served.poll() is None and all(w.poll() is None for w in workers.values()),
          "a process ended without its database")
    wait_until(lambda: rated() > 0, 60, "the database again")
    before = by_workers()
    wait_until(lambda: by_workers() >= before + 2, 180, "the workers play on after PostgreSQL")

    # ---- stopped: the arena, then the workers ----
    served.send_signal(signal.SIGTERM)
    try:
        code = served.wait(timeout=150)
    except subprocess.TimeoutExpired:
        code = "still running after 150 s"
    check(code == 0, "the arena after SIGTERM (%s); it said: %s" % (code, said()[-4000:]))
    for name, w in workers.items():
        if w.poll() is None:
            w.send_signal(signal.SIGTERM)
    for name, w in workers.items():
        status = w.wait(timeout=90)
        check(status == 0 or name == victim and status == -signal.SIGKILL,
              "worker %s after SIGTERM: %s" % (name, status))

    # ---- what the store holds ----
    states = psql("SELECT state, count(*) FROM matches GROUP BY state ORDER BY state")
    check("running" not in states, "a match left running: %s" % states)
    check(count("SELECT count(*) FROM jobs WHERE state IN ('queued', 'claimed')") == 0,
          "a job left claimed: %s" % psql("SELECT match_id, state FROM jobs WHERE state IN "
                                          "('queued', 'claimed')"))
    check(count("SELECT count(*) FROM job_logs") == 0, "a worker's logs left behind")
    check(count("SELECT count(*) FROM game_stderr s JOIN matches m ON m.id = s.match_id WHERE "
                "m.state <> 'rated'") == 0, "the players' stderr of a void match kept")
    check(count("SELECT count(*) FROM workers") <= 1, "workers still said to be there: %s" %
          psql("SELECT name FROM workers"))
    # The matches spread over the workers (one at a time here, each claimed by whichever
    # woken worker's random turn came first: all of some ten by one has a chance of about
    # 3 / 3^10); the remote bot's matches were the arena's, none a worker's.
    check(count("SELECT count(DISTINCT j.worker) FROM jobs j JOIN matches m ON m.id = "
                "j.match_id WHERE m.state = 'rated'") >= 2, "one worker played every match")
    check(count("SELECT count(*) FROM jobs j JOIN match_entries e ON e.match_id = j.match_id "
                "JOIN entries n ON n.id = e.entry_id JOIN bots b ON b.id = n.bot_id WHERE "
                "b.name = 'remote'") == 0, "a remote bot's match given to a worker")
    check(count("SELECT count(*) FROM match_entries e JOIN entries n ON n.id = e.entry_id JOIN "
                "bots b ON b.id = n.bot_id WHERE b.name = 'remote'") > 0,
          "the remote bot played no rated match")
    check(count("SELECT count(*) FROM jobs j JOIN match_entries e ON e.match_id = j.match_id "
                "JOIN entries n ON n.id = e.entry_id JOIN bots b ON b.id = n.bot_id WHERE "
                "b.name = 'pybot'") > 0, "the hosted bot played no rated match at a worker")
    # Every game's log kept in the database, the match's deal in it.
    check(count("SELECT count(*) FROM games WHERE log_gz IS NULL") == 0, "a game without its log")
    for match, seed, log_hex in [line.split("|") for line in psql(
            "SELECT m.id, m.seed, encode(g.log_gz, 'hex') FROM games g JOIN matches m ON m.id = "
            "g.match_id JOIN jobs j ON j.match_id = m.id ORDER BY g.id DESC LIMIT 3").splitlines()]:
        start = json.loads(gzip.decompress(bytes.fromhex(log_hex)).decode().splitlines()[0])
        check(str(start["start"]["seed"]) == seed, "match %s's log deals another seed" % match)
    status = subprocess.run([t.arena, "rerate", "--db", t.db], capture_output=True, text=True)
    check(status.returncode == 0, "rerate disagrees: %s" % status.stdout[-2000:])
    # Nothing of the test left running (the remote bot's client, which waits to come back, ended).
    for process in t.started:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=30)
    # (Its own: by its folder and its database, for other tests' bots may be running beside.)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    ours = [line for line in ps.splitlines() if work in line or t.db in line]
    check(not ours, "processes left:\n%s" % "\n".join(ours))
finally:
    t.end()
print("arena_workers_test: ok")
