"""What the arena's end-to-end tests share: a folder and a database of their own, the `arena`
command line, an `arena serve` read as it speaks, waits with a bound, the API, and every
process they started ended however they end."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remote_host import arena_port  # noqa: E402
from ws_client import Client  # noqa: E402


def free_port():
    """A port of 127.0.0.1 that no one listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def person_plays(port, name, code, opponent, command, started):
    """A person's page as the wire has it: /person, a session, each game played by `command`
    started afresh at the session's start and ended at its end, until the arena closes the
    connection; each process it starts put in `started` (to be ended however the test ends).
    (games begun, the close code, its reason)."""
    client = Client("127.0.0.1", port, "/person?session=1&name=%s&code=%s&opponent=%s" %
                    (name, code, opponent), timeout=120)
    lock = threading.Lock()
    unlocked = client.send

    def send(data, opcode=1):  # the bot's bytes and the answers to pings, one frame at a time
        with lock:
            unlocked(data, opcode)
    client.send = send

    def pump(bot):
        for chunk in iter(lambda: os.read(bot.stdout.fileno(), 4096), b""):
            send(chunk)
    games, bot = 0, None
    while True:
        data = client.frame()
        if data is None:
            break
        if client.opcode == 1:
            try:
                if bot:
                    bot.stdin.write(data)
                    bot.stdin.flush()
            except BrokenPipeError:
                pass  # its bot is gone: the arena judges that
            continue
        message = json.loads(data)
        if message["type"] == "start":
            games += 1
            bot = subprocess.Popen(command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            started.append(bot)
            threading.Thread(target=pump, args=(bot,), daemon=True).start()
        elif message["type"] == "end" and bot:
            bot.kill()
            bot.wait()
            bot = None
    client.sock.close()
    return games, client.close_code, client.close_reason


class ArenaRun:
    """One test's arena: `work` (readable by the sandbox's user; under `parent` when given, as
    the sandbox shows its players only some folders), `db`, and the processes it started."""

    def __init__(self, name, build, parent=None):
        self.name = name
        self.build = os.path.abspath(build)
        self.arena = os.path.join(self.build, "arena")
        self.work = tempfile.mkdtemp(prefix=name + "-", dir=parent)
        os.chmod(self.work, 0o755)
        self.db = os.path.join(self.work, "arena.db")
        self.started = []
        self.served = None
        self.outputs = []  # files of the processes' output, whose ends a failure shows

    def check(self, condition, what):
        if not condition:
            said = "".join(getattr(self.served, "said_lines", [])) if self.served else ""
            sys.exit("%s: %s\nthe arena said:\n%s%s" % (self.name, what, said[-5000:],
                                                        self.diagnosis()))

    def diagnosis(self):
        """What a failure shows beside the arena's lines: where a serving arena's queue, matches
        and connections stand, the ends of the processes' outputs, and what runs of this run."""
        shown = []
        if self.served and self.served.poll() is None and getattr(self.served, "port", None):
            for path in ("/api/queue", "/api/live", "/api/server"):
                try:
                    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.served.port, path),
                                                timeout=5) as r:
                        shown.append("%s: %s" % (path, r.read().decode()[:2000]))
                except OSError as e:
                    shown.append("%s: %s" % (path, e))
        for path in self.outputs:
            try:
                with open(path, errors="replace") as f:
                    shown.append("%s ends:\n%s" % (os.path.basename(path), f.read()[-2000:]))
            except OSError:
                pass
        ps = subprocess.run(["ps", "-eo", "pid,ppid,stat,etimes,args"], capture_output=True,
                            text=True).stdout.splitlines()
        shown.append("\n".join(ps[:1] + [line for line in ps[1:] if self.build in line
                                          or self.work in line]))
        return "\n" + "\n".join(shown)

    def run(self, *args):
        """An `arena` command on the database: its output, which must be a success."""
        done = subprocess.run([self.arena, *args, "--db", self.db], capture_output=True,
                              text=True, timeout=60)
        self.check(done.returncode == 0, "arena %s: %s" % (" ".join(args), done.stderr))
        return done.stdout.strip()

    def start(self, args, **kwargs):
        """A process ended with the run."""
        process = subprocess.Popen(args, **kwargs)
        self.started.append(process)
        return process

    def serve(self, *options, port=0):
        """`arena serve` on 127.0.0.1:`port`, once it has said where: the one `said()` reads."""
        process = self.start([self.arena, "serve", "--db", self.db, "--listen",
                              "127.0.0.1:%d" % port, *options],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        process.port = arena_port(process)
        self.served = process
        self.check(process.port, "the arena said no address")
        return process

    def said(self):
        return "".join(self.served.said_lines)

    def wait_until(self, condition, seconds, what):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.1)
        self.check(False, "waited %d s for %s" % (seconds, what() if callable(what) else what))

    def api(self, path, port=None):
        port = port or self.served.port
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=60) as r:
            return json.loads(r.read())

    def psql(self, statement, database="postgres"):
        """A statement run by psql on the test's PostgreSQL server: its output, unaligned."""
        done = subprocess.run(["psql", "-v", "ON_ERROR_STOP=1", "-qAt", "-d", database, "-c",
                               statement], capture_output=True, text=True, timeout=60)
        self.check(done.returncode == 0, "psql %s: %s" % (statement, done.stderr))
        return done.stdout.strip()

    def use_postgresql(self, database):
        """The arena in `database`, made afresh on the test's PostgreSQL server (pg_virtualenv's,
        whose libpq environment the test runs in)."""
        self.check(os.environ.get("PGHOST") and os.environ.get("PGPORT"),
                   "run under pg_virtualenv: no PostgreSQL server in the environment")
        self.psql("DROP DATABASE IF EXISTS %s" % database)
        self.psql("CREATE DATABASE %s" % database)
        self.db = "dbname=%s" % database

    def token_file(self, name, token):
        path = os.path.join(self.work, name + ".token")
        with open(path, "w") as f:
            f.write(token + "\n")
        return path

    def end(self):
        for process in self.started:
            if process.poll() is None:
                process.kill()
                process.wait()
        shutil.rmtree(self.work, ignore_errors=True)
