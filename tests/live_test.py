#!/usr/bin/env python3
"""tournament run --serve, end to end, over real sockets: a tournament between two staircase
bots plays while this test is its audience.

    live_test.py BUILD_DIR SOURCE_DIR

- The page: GET and HEAD, HTML with a policy that lets it load nothing and connect only home.
- Refused: POST and PUT (405, Allow: GET, HEAD), a path that climbs out (404, nothing of the
  file system), a game that is not there, a malformed request and one with 64 KiB of headers
  (an error or a closed connection; the server answers the next request as before).
- The stream: a snapshot naming both bots first, then ids one apart to the end ("finished");
  no running game's seed; at most 32 streams at once (503 beyond).
- Reconnection: with the Last-Event-ID of an event still kept, the stream goes on from the next
  event, without a snapshot; with an id that is not the stream's, a snapshot.
- Five clients that connect and never read: the games go on to the end all the same.
- The stream's events replay to the database's results: every game's result record and its
  game_done event say the end and the winner that `tournament games --json` says, and the
  result its deal's seed (above 2^53, where a JavaScript number cannot hold it) also as text,
  digit for digit, as the game's page (GET /games/N) does.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

build, source = sys.argv[1:3]
tournament = os.path.join(build, "tournament")
two_letters = os.path.join(source, "tests", "data", "two_letters.txt")
work = tempfile.mkdtemp(prefix="live-test-")


from live_client import Stream, raw, request


def bot(mode):
    return "exec python3 %s %s" % (os.path.join(source, "tests", "bots", "test_bot.py"), mode)




db = os.path.join(work, "live.db")
runner = subprocess.Popen(
    [tournament, "run", "--db", db, "--dict", two_letters, "--deals", "30", "--concurrency", "2",
     "--logs", db + ".logs", "--serve", "127.0.0.1:0", "--bot", "a=" + bot("staircase"),
     "--bot", "b=" + bot("staircase")],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
said = runner.stderr.readline()
match = re.search(r"watch it live at http://127\.0\.0\.1:(\d+)/", said)
assert match, said
port = int(match.group(1))

# The audience: one that reads everything, five that never read.
main = Stream(port)
assert main.status == 200, main.status
assert main.response.getheader("content-type") == "text/event-stream"
stalled = []
for _ in range(5):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    # Answered (peeked at, not read: the socket's buffer keeps all).
    assert s.recv(12, socket.MSG_PEEK) == b"HTTP/1.1 200"
    stalled.append(s)

first = main.next()
assert first[1] == "snapshot", first
assert first[2]["bots"] == ["a", "b"], first[2]
ids = [first[0]]
events = [first]

# The page, and what is refused.
response, body = request(port, "GET", "/")
assert response.status == 200 and response.getheader("content-type").startswith("text/html")
assert "connect-src 'self'" in response.getheader("content-security-policy")
assert "default-src 'none'" in response.getheader("content-security-policy")
assert b'id="standings"' in body
response, body = request(port, "HEAD", "/")
assert response.status == 200 and body == b""
for method, path in (("POST", "/"), ("PUT", "/events"), ("DELETE", "/games/1")):
    response, body = request(port, method, path)
    assert response.status == 405, (method, path, response.status)
    assert response.getheader("allow") == "GET, HEAD"
for path in ("/../../../../etc/passwd", "/games/..%2f..%2f..%2fetc%2fpasswd", "/etc/passwd",
             "/games/0", "/games/999999", "/index.html"):
    answer = raw(port, ("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode())
    assert answer.startswith(b"HTTP/1.1 404") or answer.startswith(b"HTTP/1.1 403"), (path, answer[:80])
    assert b"root:" not in answer
for hostile in (b"BREW /pot HTCPCP/1.0\r\n\r\n", b"\x00\xff\r\n\r\n",
                b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 65536 + b"\r\n\r\n"):
    answer = raw(port, hostile)
    assert answer == b"" or re.match(rb"HTTP/1\.[01] [45]\d\d", answer), answer[:80]
response, body = request(port, "GET", "/")
assert response.status == 200, "the server after hostile requests"

# At most 32 streams: 6 are open, so 26 more are taken and 4 refused.
extra = [Stream(port) for _ in range(30)]
statuses = [s.status for s in extra]
assert statuses == [200] * 26 + [503] * 4, statuses
for s in extra:
    s.close()

# A second reader leaves after some events and comes back with the last id it saw (once the
# server has seen the 26 go).
for _ in range(200):
    second = Stream(port)
    if second.status == 200:
        break
    second.close()
    time.sleep(0.05)
seen = [second.next() for _ in range(40)]
second.close()
again = Stream(port, last_id=seen[-1][0])
resumed = again.next()
assert resumed[1] != "snapshot" and resumed[0] == seen[-1][0] + 1, (seen[-1][0], resumed[:2])
again.close()
stranger = Stream(port, last_id=5)
assert stranger.next()[1] == "snapshot"
stranger.close()

# The rest of the stream, as the games play.
page_checked = False
while True:
    event = main.next()
    assert event is not None, "the stream ended before the finished event"
    events.append(event)
    assert event[0] == ids[-1] + 1, (ids[-1], event[:2])
    ids.append(event[0])
    if event[1] == "start":
        assert event[2]["record"]["start"]["seed"] is None, "a running game's seed was sent"
        assert event[2]["record"]["start"]["seed_text"] is None, "a running game's seed was sent"
    if event[1] == "result":
        said = event[2]["record"]["result"]
        assert '"seed_text":"%d"' % said["seed"] in main.data, main.data
    if event[1] == "game_done" and not page_checked:
        response, body = request(port, "GET", event[2]["page"])
        assert response.status == 200 and b'id="log"' in body, response.status
        page_checked = (event[2]["game"], body)
    if event[1] == "finished":
        break
main.close()
out, err = runner.communicate(timeout=120)
assert runner.returncode == 0, err
for s in stalled:
    s.close()

# The events replay to the database's results.
games = json.loads(subprocess.run([tournament, "games", "--db", db, "--json"], check=True,
                                  capture_output=True, text=True).stdout)
assert len(games) == 60 and all(g["state"] == "done" for g in games)
done = {e[2]["game"]: e[2] for e in events if e[1] == "game_done"}
results = {e[2]["game"]: e[2]["record"]["result"] for e in events if e[1] == "result"}
started = [e[2]["game"] for e in events if e[1] == "game_started"]
assert len(set(started)) == len(started)
for g in games:
    names = [s["bot"] for s in g["seats"]]
    winner = None if g["winner_seat"] is None else names[g["winner_seat"]]
    if g["id"] in done:  # done after the snapshot
        assert done[g["id"]]["end"] == g["end"] and done[g["id"]]["winner"] == winner, g["id"]
        assert done[g["id"]]["seats"] == names
    if g["id"] in results:
        assert results[g["id"]]["end"] == g["end"] and results[g["id"]]["winner"] == g["winner_seat"]
        assert results[g["id"]]["seed"] == g["seed"], g["id"]
        assert results[g["id"]]["seed_text"] == str(g["seed"]), (results[g["id"]], g["seed"])
# The deals' seeds are SplitMix64's: above 2^53, as nearly all are.
assert any(g["seed"] > 2**53 for g in games if g["id"] in results), [g["seed"] for g in games]
# A game's page says its seed as text.
assert page_checked, "no game was done in the stream"
seed = [g["seed"] for g in games if g["id"] == page_checked[0]][0]
assert ('"seed_text":"%d"' % seed).encode() in page_checked[1], seed
# Every game started in the stream ended in it, and every game not done before the snapshot is
# done in it.
for game in started:
    assert game in done and game in results, game
assert len(done) == 60 - first[2]["standings"]["done"], (len(done), first[2]["standings"]["done"])
# An address that cannot be served on: a clear error, nothing played, and resume plays it all.
holder = socket.socket()
holder.bind(("127.0.0.1", 0))
holder.listen()
busy = os.path.join(work, "busy.db")
refused = subprocess.run(
    [tournament, "run", "--db", busy, "--dict", two_letters, "--serve",
     "127.0.0.1:%d" % holder.getsockname()[1], "--bot", "a=" + bot("staircase"),
     "--bot", "b=" + bot("staircase")], capture_output=True, text=True, timeout=60)
assert refused.returncode == 1, refused
assert "the port is in use" in refused.stderr and "tournament resume --db" in refused.stderr
holder.close()
resumed = subprocess.run([tournament, "resume", "--db", busy, "--serve", "127.0.0.1:0", "--json"],
                         capture_output=True, text=True, timeout=120)
assert resumed.returncode == 0 and json.loads(resumed.stdout)["done"] == 2, resumed
for bad in ("localhost:8080", "127.0.0.1:99999", "127.0.0.1"):
    wrong = subprocess.run([tournament, "run", "--db", os.path.join(work, "bad.db"), "--serve", bad,
                            "--bot", "a=exit 0", "--bot", "b=exit 0"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "--serve" in wrong.stderr, (bad, wrong)

print("live: %d events, ids %d..%d one apart; %d games done in the stream; 5 silent clients"
      % (len(events), ids[0], ids[-1], len(done)))
shutil.rmtree(work)
