#!/usr/bin/env python3
"""A remote bot's evening, as its author meets it (docs/remote.md), with real processes and
sockets: bananagrams-connect's bounds and signals, the word list fetched from the seat, the host
saying that a bot's games are over, and host --check of a bot that connects.

    remote_bot_test.py BUILD_DIR SOURCE_DIR

- bananagrams-connect against a server that accepts and closes (a proxy whose host is down),
  one that never answers, and a closed port: each try says on stderr what it met, and it gives
  up within --retry (a try within its 10 s handshake) with status 1; SIGTERM ends it within a
  second in each of those states.
- SIGTERM while its bot plays, and SIGINT while its bot, after the game, will not leave: each
  ends it within a second, its bot (which ignores SIGTERM) killed, and the host sees the seat's
  player leave.
- --words from-seat: a game on a list of two-letter strings, on which a bot with another list
  would be put out, played to bananas with the list fetched from the seat's server; the next
  game takes it from the cache; a kept file that is not the list is fetched again.
- A seat whose player's games are over answers 410: --games 0 stops at once with status 0,
  --games 2 exits 1 saying how many it played.
- host --check --serve remote: checks the bot that connects, through bananagrams-connect and
  through a WebSocket client of the bot's own (tests/bots/ws_relay.py), for each scenario's seat:
  every check passes for the reference bot and the v2 example player; a bot that writes
  newlines fails, with its hint.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import remote_host
from remote_host import finish
from ws_client import Client

tree = remote_host.Tree(sys.argv, "remote-bot-test-")
source, work = tree.source, tree.work
host, connect, reference, two_letters = tree.host, tree.connect, tree.reference, tree.two_letters
sleeper = "exec python3 %s sleep 600" % tree.hog
TOKEN = "Evening_token-0123456789abcdef"
# A bot that says it is ready, then ignores SIGTERM and the end of its input: connect must kill
# it. It writes its pid where the test can look for it.
STUBBORN = os.path.join(work, "stubborn.py")
with open(STUBBORN, "w") as f:
    f.write("""import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
with open(sys.argv[1], "w") as pid:
    pid.write(str(os.getpid()))
os.write(1, b"v003R")
while True:
    if not os.read(0, 4096):
        time.sleep(600)
""")


def check(condition, what):
    remote_host.check(condition, what, "remote_bot_test")


def start_host(*args):
    return remote_host.start_host(host, *args)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def stopped_within(process, signum, seconds):
    """Sends `signum`, and how long the process took to exit (it must, within `seconds`)."""
    began = time.monotonic()
    process.send_signal(signum)
    try:
        process.wait(timeout=seconds + 5)
    except subprocess.TimeoutExpired:
        process.kill()
        check(False, "still running %d s after signal %d" % (seconds + 5, signum))
    took = time.monotonic() - began
    check(took < seconds, "took %.2f s to stop after signal %d" % (took, signum))
    return took


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    check(False, what)


# ---- servers that are not a host ----

class FakeServer(remote_host.Listener):
    """Does `mode` with each connection: 'close' it at once (a proxy whose host is down), or
    'hold' it without a word."""

    def __init__(self, mode):
        self.mode, self.held = mode, []
        super().__init__()

    def take(self, client):
        if self.mode == "close":
            client.close()
        else:
            self.held.append(client)


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


servers = {"accepts and closes": FakeServer("close").port,
           "never answers": FakeServer("hold").port,
           "refuses": closed_port()}
# A server that accepts and closes may be read as a close or, where the kernel answered the
# request with a reset, as a failed read: either is what the bot's author is told.
said = {"accepts and closes": ("closed before the host answered", "read failed"),
        "never answers": ("no answer within the handshake's 10 s",),
        "refuses": ("nothing answered at that address",)}
for kind, port in servers.items():
    url = "ws://127.0.0.1:%d/seat/%s" % (port, TOKEN)
    began = time.monotonic()
    run = subprocess.run([connect, "--retry", "3", url, "--", reference], capture_output=True,
                         text=True, timeout=60)
    took = time.monotonic() - began
    check(run.returncode == 1, "%s: status %d" % (kind, run.returncode))
    # Within --retry, or one handshake's 10 s once begun.
    check(took < 3 + 10 + 2, "%s: took %.1f s" % (kind, took))
    lines = run.stderr.splitlines()
    check(all(any(words in line for words in said[kind]) for line in lines) and
          lines[-1].endswith("no more tries (--retry, --grace)"), "%s: %s" % (kind, run.stderr))
    if kind != "never answers":
        check(sum("trying again in" in line for line in lines) >= 3, "%s: %s" % (kind, run.stderr))
    # SIGTERM while it tries: within a second.
    trying = subprocess.Popen([connect, "--retry", "60", url, "--", reference],
                              stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    stopped_within(trying, signal.SIGTERM, 1.0)
    check(trying.returncode == 128 + signal.SIGTERM, "%s: SIGTERM: %d" % (kind,
                                                                         trying.returncode))

# ---- signals while the bot plays, and while it will not leave ----

for signum, when in ((signal.SIGTERM, "playing"), (signal.SIGINT, "after the game")):
    log = os.path.join(work, "signal-%d.jsonl" % signum)
    extra = ["--game-timeout", "2"] if when == "after the game" else []
    game, port, seats = start_host("--log", log, "--json", "--quiet", "--dict", two_letters,
                                   *extra, "remote:" + TOKEN, sleeper)
    pid_file = os.path.join(work, "stubborn-%d.pid" % signum)
    bot = subprocess.Popen([connect, "ws://127.0.0.1:%d%s" % (port, seats[1]), "--",
                            "exec python3 %s %s" % (STUBBORN, pid_file)],
                           stderr=subprocess.PIPE, text=True)
    wait_for(lambda: os.path.exists(pid_file) and open(pid_file).read(), 30, "the bot's pid")
    pid = int(open(pid_file).read())
    if when == "after the game":
        status, out, err = finish(game)  # over at its timeout: the bot's input is closed
        time.sleep(0.5)
        check(alive(pid) and bot.poll() is None, "the stubborn bot left by itself")
    stopped_within(bot, signum, 1.0)
    check(bot.returncode == 128 + signum, "status %d: %s" % (bot.returncode, bot.stderr.read()))
    check(not alive(pid), "the bot outlived connect (%s)" % when)
    if when == "playing":
        status, out, err = finish(game)
        result = json.loads(out)
        check(result["players"][0]["outcome"] == "disqualified"
              and "bananagrams-connect was stopped (SIGTERM)" in result["players"][0]["reason"],
              "the host: %s" % result["players"][0])

# ---- the word list, from the seat ----

cache = os.path.join(work, "cache")
environment = dict(os.environ, XDG_CACHE_HOME=cache)
with open(two_letters) as f:
    words = sorted(line.strip().lower() for line in f if line.strip())
for round_ in ("fetched", "kept", "spoilt"):
    log = os.path.join(work, "words-%s.jsonl" % round_)
    game, port, seats = start_host("--log", log, "--json", "--quiet", "--dict", two_letters,
                                   "remote:", reference)
    bot = subprocess.run([connect, "--words", "from-seat",
                          "ws://127.0.0.1:%d%s" % (port, seats[1]), "--", reference],
                         capture_output=True, text=True, timeout=120, env=environment)
    status, out, err = finish(game)
    check(bot.returncode == 0 and status == 0, "%s: %d %s" % (round_, bot.returncode,
                                                             bot.stderr))
    result = json.loads(out)
    check(result["end"] == "bananas" and result["players"][0]["outcome"] != "disqualified",
          "%s: the remote bot: %s" % (round_, result["players"][0]))
    kept = [os.path.join(cache, "bananagrams-connect", name)
            for name in os.listdir(os.path.join(cache, "bananagrams-connect"))]
    check(len(kept) == 1, "the cache: %s" % kept)
    with open(kept[0]) as f:
        check(sorted(line.strip() for line in f) == words, "the kept list is not the game's")
    expected = "kept from before" if round_ == "kept" else "fetching it from the host"
    check(expected in bot.stderr, "%s: %s" % (round_, bot.stderr))
    if round_ == "kept":
        with open(kept[0], "a") as f:
            f.write("notaword\n")

# A bot given another list than the game's: said, with the way to the game's.
game, port, seats = start_host("--json", "--quiet", "--dict", two_letters, "remote:", sleeper)
other = subprocess.Popen([connect, "--words", os.path.join(source, "wordlist", "scowl-80.txt"),
                          "ws://127.0.0.1:%d%s" % (port, seats[1]), "--", sleeper],
                         stderr=subprocess.PIPE, text=True)
line = other.stderr.readline()
check("the game is judged by the word list two_letters.txt" in line and "the bot reads another"
      in line and "--words from-seat" in line, "no word of another list: " + line)
other.send_signal(signal.SIGTERM)
other.communicate(timeout=30)
finish(game)

# ---- a seat whose player's games are over: 410 ----

game, port, seats = start_host("--json", "--quiet", "--dict", two_letters, "remote:",
                               "remote:", sleeper)
first = Client("127.0.0.1", port, seats[1])
second = Client("127.0.0.1", port, seats[2])
first.send("v003R")
second.send("v003R")
first.close(1000, "leaving")  # the first player has left; the game goes on without it
time.sleep(0.5)
url = "ws://127.0.0.1:%d%s" % (port, seats[1])
began = time.monotonic()
over = subprocess.run([connect, "--games", "0", "--retry", "30", url, "--", reference],
                      capture_output=True, text=True, timeout=60)
check(over.returncode == 0 and "HTTP 410" in over.stderr and "no more for the bot" in over.stderr,
      "--games 0 after the games: %d %s" % (over.returncode, over.stderr))
check(time.monotonic() - began < 5, "--games 0 did not stop at once")
more = subprocess.run([connect, "--games", "2", "--retry", "30", url, "--", reference],
                      capture_output=True, text=True, timeout=60)
check(more.returncode == 1 and "played 0 of 2" in more.stderr, "--games 2: %s" % more.stderr)
second.close(1000, "leaving")
finish(game)

# ---- host --check of a bot that connects ----


def remote_check(bot_for, *options):
    """host --check --serve of remote:, with the bot `bot_for(url)` connecting: (status, out)."""
    checker = subprocess.Popen([host, "--check", "--serve", "127.0.0.1:0", *options,
                                "remote:" + TOKEN], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    line = checker.stderr.readline()
    found = line.split("connects to ")[1].split()[0] if "connects to " in line else None
    check(found and found.startswith("ws://127.0.0.1:"), "no URL said: " + line)
    bot = subprocess.Popen(bot_for(found), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
    out, err = checker.communicate(timeout=180)
    bot_err = bot.communicate(timeout=60)[1]
    check(bot.returncode == 0, "the remote bot exited %d: %s" % (bot.returncode, bot_err))
    return checker.returncode, out


def through_connect(command):
    return lambda url: [connect, "--games", "0", "--retry", "10", url, "--", command]


def own_client(command):
    def argv(url):
        address, path = url[len("ws://"):].split("/", 1)
        hostname, port = address.split(":")
        return ["python3", os.path.join(source, "tests", "bots", "ws_relay.py"), hostname,
                port, "/" + path, *command]
    return argv


example_v2 = os.path.join(source, "players", "example_player_v2.py")
for name, bot_for in (("the reference bot, through connect", through_connect(reference)),
                      ("the v2 example, with its own client",
                       own_client(["python3", example_v2]))):
    status, out = remote_check(bot_for)
    check(status == 0 and "It is ready to play." in out and "FAIL" not in out
          and "of how it ends were not made" in out, "%s: %s" % (name, out))
bad = os.path.join(source, "tests", "bots", "checker_bot.py")
status, out = remote_check(through_connect("exec python3 %s newline v2" % bad))
check(status == 1 and "FAIL" in out and "a newline after a message?" in out,
      "a bot that writes newlines: %s" % out)

print("remote_bot_test: all passed")
