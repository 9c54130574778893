#!/usr/bin/env python3
"""Remote seats, end to end, with real processes and sockets (docs/remote.md).

    remote_test.py BUILD_DIR SOURCE_DIR

- Bad options are refused before anything is played: a short token, two seats with one token,
  a remote seat without --serve (--check of one too).
- A bot through bananagrams-connect (the reference bot, unchanged) against the reference bot on
  the host, to bananas: its round trip is in the result and the log, its token in neither, and
  the log replays to the same result.
- The live page, the stream and the games' pages, which show players' tiles, are not served
  (403) while a remote player plays (a tournament's too).
- Everyone who may not take the seat is refused with the status docs/remote.md says, and the
  log notes it: no token (401), a wrong token (403), a second connection (409), a page of
  another origin (403), a path that is no seat's (404), a flood of 100 connections with wrong
  tokens, a handshake that never ends (closed after 10 s, and noted). The game goes on: the
  seat's own connection is answered after all of it.
- The seat's own connection sends a message over the cap: it is closed (1009), comes back with
  what it had received, and is sent what it missed and told what the host has; it then drops
  and does not come back: after --remote-grace its player has left.
- bananagrams-connect behind a network that fails mid-game (a proxy that cuts every
  connection), for one game and as a session: it connects again, nothing is lost, and the game
  goes on to bananas.
- What a seat says beside the protocol: the games after this one, the word list (whose rules and
  gzipped, cached file the server serves); a v004 player told B. after its E; a client that goes
  away (1001) comes back within the grace.
- A tournament with a remote bot (bananagrams-connect --games 0): one connection, a session, for
  all of its games, never refused between them; it stops as the host says its last is over, the
  standings say it plays remotely, and no log holds its token. The same with a connection a game
  (--games 4, as a client before sessions plays): told to try again between games, as before.
  The session again through a client that answers pings late and one at a time (a ping beside
  an unanswered one dropped, as libwebsockets drops it): the host never sends one beside
  another, and the session plays all of its games.
- A seat nobody takes: out at the ready timeout. bananagrams-connect with a wrong token: exit 1,
  with the host's status.
"""
import gzip
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import remote_host
from remote_host import finish
from ws_client import Client, Refused, handshake_bytes

tree = remote_host.Tree(sys.argv, "remote-test-")
build, source, work = tree.build, tree.source, tree.work
host, connect, reference, two_letters = tree.host, tree.connect, tree.reference, tree.two_letters
go = os.path.join(work, "go")
hog = "exec python3 %s play-after %s" % (tree.hog, go)
TOKEN = "Seat_token-0123456789abcdef"


def check(condition, what):
    remote_host.check(condition, what, "remote_test")


def start_host(*args):
    return remote_host.start_host(host, *args)


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def replays_to(path, result):
    run = subprocess.run([host, "--replay", path, "--json", "--quiet"], capture_output=True,
                         text=True, timeout=60)
    check(run.returncode == 0 and json.loads(run.stdout) == result,
          "the log does not replay to its result: %s" % run.stderr)


# Bad options: said, nothing played.
for args, said in [
        (["--serve", "127.0.0.1:0", "remote:short", hog], "a token is 16 to 64 characters"),
        (["--serve", "127.0.0.1:0", "remote:" + TOKEN, "remote:" + TOKEN], "same token"),
        (["remote:", hog], "give --serve"),
        (["--check", "remote:"], "give --serve"),
        (["--serve", "127.0.0.1:0", "remote:" + "x" * 15 + "!", hog], "A-Z a-z 0-9 _ -")]:
    run = subprocess.run([host] + args, capture_output=True, text=True, timeout=60)
    check(run.returncode == 2 and said in run.stderr, "%s: %d %s" % (args, run.returncode,
                                                                    run.stderr))

# A bot through bananagrams-connect, to bananas.
log = os.path.join(work, "connect.jsonl")
game, port, seats = start_host("--log", log, "--json", "--quiet", "remote:", reference)
url = "ws://127.0.0.1:%d%s" % (port, seats[1])
token = seats[1].split("/")[-1]
check(len(token) == 32, "a drawn token: " + token)
bot = subprocess.run([connect, url, "--", reference], capture_output=True, text=True,
                     timeout=120)
status, out, err = finish(game)
check(bot.returncode == 0, "connect exited %d: %s" % (bot.returncode, bot.stderr))
check(status == 0, "the host exited %d: %s" % (status, err))
result = json.loads(out)
check(result["end"] == "bananas", "not to bananas: %s" % result["end"])
remote, local = result["players"]
check(remote["command"] == "remote:" and remote["protocol"] == "v4", "remote: %s" % remote)
check(remote["remote"]["connections"] == 1 and remote["remote"]["pings"] >= 1
      and remote["remote"]["rtt_ms"] > 0
      and remote["remote"]["rtt_max_ms"] >= remote["remote"]["rtt_ms"], "no round trip: %s"
      % remote["remote"])
check(remote["peels"] + local["peels"] > 0 and local["remote"] is None, "the local player")
check(token not in open(log).read() and token not in out, "the token was written down")
notes = [r["note"] for r in records(log) if "note" in r]
check(notes == [{"player": 0, "what": "connected"}], "notes: %s" % notes)
replays_to(log, result)

# bananagrams-connect through a network that fails mid-game: it comes back, with what it had,
# and the game goes on to bananas.
# Once a connection for one game, once a session (--games 0): the session comes back into the
# same game (resumed), its bot not started again.
for games in ("1", "0"):
    log = os.path.join(work, "reconnect-%s.jsonl" % games)
    game, port, seats = start_host("--log", log, "--json", "--quiet", "--remote-grace", "10",
                                   "remote:" + TOKEN, reference)
    proxy = remote_host.Proxy(port)
    bot = subprocess.Popen([connect, "--games", games, "ws://127.0.0.1:%d%s" % (proxy.port,
                                                                                seats[1]),
                            "--", reference],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while proxy.forwarded < 2000 and time.time() < deadline:
        time.sleep(0.01)
    proxy.cut()
    bot_out, bot_err = bot.communicate(timeout=120)
    status, out, err = finish(game)
    check(bot.returncode == 0 and "the connection dropped; trying again" in bot_err,
          "connect --games %s: %d %s" % (games, bot.returncode, bot_err))
    if games == "0":
        check("played 1 game over 2 connections" in bot_err, "the session: %s" % bot_err)
    check(status == 0, "the host exited %d: %s" % (status, err))
    result = json.loads(out)
    check(result["end"] == "bananas" and result["players"][0]["outcome"] != "disqualified",
          "after the cut: %s" % result)
    check(result["players"][0]["remote"]["connections"] == 2, "not back: %s"
          % result["players"][0])
    notes = [r["note"]["what"] for r in records(log) if "note" in r]
    check(any(n.startswith("connected again, having received") for n in notes),
          "notes: %s" % notes)
    replays_to(log, result)

# Everyone who may not take the seat, while its own connection plays.
log = os.path.join(work, "refused.jsonl")
game, port, seats = start_host("--log", log, "--json", "--quiet", "--dict", two_letters,
                               "--remote-grace", "1", "remote:" + TOKEN, hog)
path = seats[1]
player = Client("127.0.0.1", port, path)
check(player.headers.get("x-bananagrams-received") == "0", "headers: %s" % player.headers)
player.send("v0")
player.send("03")  # split anywhere
check(player.read_until(b".") == b"V0030102.", "the handshake")
player.send("R")
hand = player.read_until(b".")
check(hand.startswith(b"H0000"), "the hand: %r" % hand)
sent = len("v003R")

refusals = [
    ("/seat/", None, 401),
    ("/seat/" + "A" * 27, None, 403),
    ("/seat/" + TOKEN[:-1], None, 403),
    (path, None, 409),
    (path, "http://elsewhere.example", 403),
    ("/nothing/" + TOKEN, None, 404),
]
for where, origin, expected in refusals:
    try:
        Client("127.0.0.1", port, where, origin=origin)
        check(False, "%s was let in" % where)
    except Refused as refused:
        check(refused.status == expected, "%s: %d, not %d" % (where, refused.status, expected))
# The live page and stream, which show every player's tiles, are not served.
for page in ("/", "/events", "/games/1"):
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % page).encode())
        check(s.recv(64).split(b" ")[1] == b"403", "%s was served while a remote player plays"
              % page)

# A handshake that never ends (the host closes it after 10 s), and a flood of connections with
# wrong tokens.
stalled = socket.create_connection(("127.0.0.1", port))
stalled.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n")
stalled_at = time.monotonic()
flood = []
for i in range(100):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(handshake_bytes("127.0.0.1", port, "/seat/wrong%024d" % i))
    flood.append(s)
statuses = set()
for s in flood:
    s.settimeout(10)
    statuses.add(s.recv(64).split(b" ")[1])
    s.close()
check(statuses == {b"403"}, "the flood: %s" % statuses)
# The game goes on: the seat's connection is answered.
player.send("D" + chr(hand[5]))
answer = player.read_until(b".")
check(answer[:1] in (b"D", b"X"), "a dump after the refusals: %r" % answer)
sent += 2


# The handshake that never ended is closed, while the game goes on.
stalled.settimeout(20)
check(stalled.recv(64) == b"", "the stalled handshake was answered")
check(time.monotonic() - stalled_at >= 9, "the stalled handshake was closed too soon")
player.send("D" + chr(hand[6]))
answer += player.read_until(b".")
sent += 2

received = len(hand) + len(b"V0030102.") + len(answer)

# A message over the cap: closed with 1009. It comes back with what it had (all but the last
# byte of its dump's answer) and is sent the rest.
player.send(b"P" * 70000)
check(player.frame() is None and player.close_code == 1009, "the cap: %s" % player.close_code)
player.drop()
back = Client("127.0.0.1", port, path + "?received=%d" % (received - 1))
check(back.headers.get("x-bananagrams-received") == str(sent),
      "the host has %s of %d" % (back.headers.get("x-bananagrams-received"), sent))
missed = back.read_until(b".")
check(missed == b".", "what it missed was not sent again: %r" % missed)
back.drop()  # and gone for good: after the grace, its player has left
status, out, err = finish(game)
stalled.close()
check(status == 0, "the host exited %d: %s" % (status, err))
result = json.loads(out)
check(result["players"][0]["outcome"] == "disqualified"
      and "did not come back within 1000 ms" in result["players"][0]["reason"],
      "the drop: %s" % result["players"][0])
check(result["players"][0]["remote"]["connections"] == 2, "connections")
text = open(log).read()
check(TOKEN not in text, "the token was written down")
notes = [r["note"]["what"] for r in records(log) if "note" in r]
for status_code in ("401", "403", "404", "409"):
    check(any(n.startswith("refused a connection from 127.0.0.1") and n.endswith("(%s)"
              % status_code) for n in notes), "no refusal %s noted: %s" % (status_code, notes))
check(sum("a wrong token" in n for n in notes) >= 102, "the flood was not noted")
check(any("a message over 65536 bytes" in n for n in notes), "the cap was not noted")
check(any(n.endswith("its request never came whole (408)") for n in notes),
      "the stalled handshake was not noted")
check(any(n.startswith("connected again, having received %d of %d bytes" % (received - 1,
                                                                            received))
          for n in notes), "no return noted: %s" % notes[-5:])
check(any(n.startswith("left: its connection dropped") for n in notes), "no leaving noted")
replays_to(log, result)

# What the seat tells its player beside the protocol: how many games follow this one, and the
# word list, whose rules and file the server serves (the file gzipped, cached for good by its
# name). A v004 player is told B. after its E (no next game in this seat). A client going away
# (1001: a page reloaded) has dropped its connection, and comes back within the grace; one that
# closes it (1000) has left.
game, port, seats = start_host("--json", "--quiet", "--dict", two_letters, "--remote-grace", "5",
                               "remote:" + TOKEN, hog)
player = Client("127.0.0.1", port, seats[1])
fingerprint = player.headers.get("x-bananagrams-wordlist-fingerprint", "")
check(player.headers.get("x-bananagrams-games-after") == "0"
      and player.headers.get("x-bananagrams-wordlist") == "two_letters.txt"
      and len(fingerprint) == 16
      and player.headers.get("x-bananagrams-wordlist-url") == "/wordlist/%s.txt" % fingerprint,
      "the seat's headers: %s" % player.headers)
rules = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/rules" % port).read())
check(rules["players"] == 2 and rules["hand"] == 21 and rules["bunch"] == 144 - 42
      and rules["remote_grace_ms"] == 5000 and rules["word_list"]["fingerprint"] == fingerprint
      and rules["word_list"]["words"] == 676, "the rules: %s" % rules)
plain = urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, rules["word_list"]["url"]))
listed = plain.read().decode()
check(sorted(listed.split()) == sorted(w.strip().lower() for w in open(two_letters) if w.strip())
      and "immutable" in plain.headers["Cache-Control"]
      and plain.headers["ETag"] == '"%s"' % fingerprint, "the word list: %s" % plain.headers)
zipped = urllib.request.urlopen(urllib.request.Request(
    "http://127.0.0.1:%d%s" % (port, rules["word_list"]["url"]),
    headers={"Accept-Encoding": "gzip"}))
check(zipped.headers["Content-Encoding"] == "gzip"
      and gzip.decompress(zipped.read()).decode() == listed, "the gzipped word list")
for wrong in ("/wordlist/%s.txt" % ("0" * 16), "/wordlist"):
    try:
        urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, wrong))
        check(False, "%s was served" % wrong)
    except urllib.error.HTTPError as error:
        check(error.code == 404, "%s: %d" % (wrong, error.code))
player.send("v004R")
check(player.read_until(b".") == b"V0040102.", "v004's answer")
hand = player.read_until(b".")
player.close(1001, "a page reloaded")
time.sleep(0.3)
back = Client("127.0.0.1", port, seats[1] + "?received=%d" % (len(b"V0040102.") + len(hand)))
check(back.headers.get("x-bananagrams-received") == "5", "back after 1001: %s" % back.headers)
os.close(os.open(go, os.O_CREAT | os.O_WRONLY))  # the hog peels to the end
ended = back.read_until(b"B.")
check(re.search(rb"E[WL]\d\d020000\.B\.$", ended) is not None and back.frame() is None
      and back.close_code == 1000, "v004's end: %r, %s" % (ended[-30:], back.close_code))
status, out, err = finish(game)
os.remove(go)
result = json.loads(out)
check(result["players"][0]["outcome"] != "disqualified"
      and result["players"][0]["remote"]["connections"] == 2, "after 1001: %s" % result)

# A seat nobody takes: out at the ready timeout.
game, port, seats = start_host("--json", "--quiet", "--dict", two_letters, "--ready-timeout",
                               "1", "remote:", hog)
status, out, err = finish(game)
result = json.loads(out)
check(status == 0 and result["players"][0]["outcome"] == "disqualified"
      and result["players"][0]["remote"]["connections"] == 0, "nobody came: %s" % result)

# bananagrams-connect with a wrong token: refused, said, exit 1.
game, port, seats = start_host("--json", "--quiet", "--dict", two_letters, "--ready-timeout",
                               "3", "remote:" + TOKEN, hog)
bot = subprocess.run([connect, "ws://127.0.0.1:%d/seat/%s" % (port, "B" * 20), "--",
                      reference], capture_output=True, text=True, timeout=60)
check(bot.returncode == 1 and "HTTP 403" in bot.stderr, "a wrong token: %d %s"
      % (bot.returncode, bot.stderr))
bad = subprocess.run([connect, "http://127.0.0.1:%d/" % port, "--", reference],
                     capture_output=True, text=True, timeout=60)
check(bad.returncode == 2 and "ws://" in bad.stderr, "a bad URL: %s" % bad.stderr)
finish(game)
# A tournament with a remote bot: bananagrams-connect --games 0 holds one connection (a session)
# for all of its games, never told to try again (503), and the standings say it plays remotely.
tournament = os.path.join(build, "tournament")
db = os.path.join(work, "t.db")
logs = os.path.join(work, "t-logs")
run = subprocess.run([tournament, "run", "--db", db, "--bot", "far=remote:" + TOKEN, "--bot",
                      "near=" + reference], capture_output=True, text=True, timeout=60)
check(run.returncode == 2 and "give --serve" in run.stderr, "no --serve: %s" % run.stderr)


def serve_tournament(db, *args):
    """`tournament run` of two deals between the remote bot far and a local one, serving far's
    seats: the process, once it has said far's URL, and the URL."""
    runner = subprocess.Popen([tournament, "run", "--db", db, "--deals", "2", "--serve",
                               "127.0.0.1:0", "--json", *args, "--bot", "far=remote:" + TOKEN,
                               "--bot", "near=" + reference],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while True:
        line = runner.stderr.readline()
        check(line, "the tournament said no URL")
        found = re.search(r"bot far is remote: it connects to (ws://\S+)", line)
        if found:
            return runner, found.group(1)


for games in ("0", "4"):
    session = games == "0"
    db = os.path.join(work, "t-%s.db" % games)
    logs = os.path.join(work, "t-logs-%s" % games)
    runner, url = serve_tournament(db, "--logs", logs, "--concurrency", "2")
    tournament_port = int(re.search(r":(\d+)/", url).group(1))
    for page in ("/", "/events", "/games/1"):
        with socket.create_connection(("127.0.0.1", tournament_port)) as s:
            s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % page).encode())
            check(s.recv(64).split(b" ")[1] == b"403", "the tournament served %s" % page)
    bot = subprocess.run([connect, "--games", games, "--retry", "5", url, "--", reference],
                         capture_output=True, text=True, timeout=300)
    out, err = runner.communicate(timeout=120)
    check(runner.returncode == 0, "the tournament exited %d: %s" % (runner.returncode, err))
    # It stopped as its last game ended, told so by the host, not after --retry; a session
    # over one connection, never told to try again.
    said = ("played 4 games over 1 connection; the host has no more for the bot (the host said "
            "this game was its last)" if session else "")
    check(bot.returncode == 0 and said in bot.stderr and
          (not session or "503" not in bot.stderr),
          "connect --games %s: %d %s" % (games, bot.returncode, bot.stderr))
    standings = json.loads(out)
    bots = {b["name"]: b for b in standings["bots"]}
    check(bots["far"]["games"] == 4 and bots["far"]["remote"] and not bots["near"]["remote"],
          "the standings: %s" % bots)
    for name in sorted(os.listdir(logs)):
        if not name.endswith(".jsonl"):
            continue
        path = os.path.join(logs, name)
        check(TOKEN not in open(path).read(), "the token in " + name)
        result = records(path)[-1]["result"]
        refused = [r for r in records(path) if "refused" in str(r.get("note", ""))]
        check(not session or not refused, "%s: a connection refused: %s" % (name, refused))
        far = [p for p in result["players"] if p["command"] == "remote:"]
        check(len(far) == 1 and far[0]["remote"]["connections"] == 1, "%s: %s" % (name, far))
        # The session's v004 bot stays from game to game of its table, as a local one does, and,
        # as a local one, never plays a deal twice: the deals' first rotations (games 1 and 3) by
        # one bot, their second (games 2 and 4) by a fresh one.
        if session:
            deal = (int(name[len("game-"):-len(".jsonl")]) - 1) // 2
            check(far[0]["process_game"] == deal + 1, "%s: its bot's game: %s" % (name, far))
        replays_to(path, result)

# A session whose client answers pings slowly and one at a time, as libwebsockets does on a
# loaded machine (a ping beside an unanswered one dropped): the host never has two pings out,
# so the ping that fences each game's end is never the one dropped, and the session plays all
# of its games (before 1.15.1 it waited for that answer for ever after a game's end).
runner, url = serve_tournament(os.path.join(work, "t-slow.db"))
# Its pongs 1.2 s late: the host's next ping (a second after) comes while one is unanswered.
slow = remote_host.SlowPongs(int(re.search(r":(\d+)/", url).group(1)), delay=1.2)
bot = subprocess.run([connect, "--games", "0", re.sub(r":\d+/", ":%d/" % slow.port, url, 1),
                      "--", reference], capture_output=True, text=True, timeout=300)
out, err = runner.communicate(timeout=120)
check(runner.returncode == 0 and bot.returncode == 0
      and "played 4 games over 1 connection" in bot.stderr,
      "slow pongs: the tournament %d (%s), connect %d (%s)"
      % (runner.returncode, err, bot.returncode, bot.stderr))
check(slow.dropped == 0, "slow pongs: a ping sent beside an unanswered one %d times"
      % slow.dropped)
check({b["name"]: b for b in json.loads(out)["bots"]}["far"]["games"] == 4,
      "slow pongs: %s" % out)
print("remote_test: all passed")
