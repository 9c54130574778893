#!/usr/bin/env python3
"""host --serve, end to end, over real sockets: a game between two staircase bots that wait for
a file of this test's before they peel, so that it is watched from before its first peel.

    live_game_test.py BUILD_DIR SOURCE_DIR

- `host --serve` runs host-live (the host built with its server), which says where to watch.
- The page: the game's page, live (no records in it: it takes them from the stream), with a
  policy that lets it load nothing and connect only home; HEAD too.
- Refused: POST (405), a path that climbs out or a game page (404).
- The stream: a snapshot of the game so far, then every record as it is written, ids one apart,
  to "finished"; no seed before the result; the records it sent are the event log's, each seed
  also as text ("seed_text"), and its result is the one `--json` prints. The game's seed is
  above 2^53, where a JavaScript number could not hold it: the text says it digit for digit. A client that reconnects with the Last-Event-ID of a kept
  event gets the events after it, without a snapshot.
- The host exits once the game is over, with its usual status; an address that is taken, or bad
  options, are said and nothing is played.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

from live_client import Stream, raw, request

build, source = sys.argv[1:3]
host = os.path.join(build, "host")
two_letters = os.path.join(source, "tests", "data", "two_letters.txt")
work = tempfile.mkdtemp(prefix="live-game-test-")
os.chmod(work, 0o755)  # as root, the players run as nobody
go = os.path.join(work, "go")
log = os.path.join(work, "game.jsonl")
# The players run from copies in this test's folder: the sandbox shows a player the folders of
# the files its command names, and so the file `go` once it is made (a path that does not exist
# yet names no folder).
for name in ("hog.py", "staircase.py"):
    with open(os.path.join(source, "tests", "bots", name)) as f, \
            open(os.path.join(work, name), "w") as copy:
        copy.write(f.read())
hog = "exec python3 %s play-after %s" % (os.path.join(work, "hog.py"), go)


def check(condition, what):
    if not condition:
        sys.exit("live_game_test: " + what)


# Bad options and a taken address: said, nothing played.
for args, status, said in [
        (["--serve", "127.0.0.1:0", "--replay", log], 2, "not with --replay"),
        (["--serve", "localhost:80", hog, hog], 2, "--serve"),
        (["--serve", "127.0.0.1:0", "--check", hog], 2, "give remote: (or remote:TOKEN) as the bot")]:
    run = subprocess.run([host] + args, capture_output=True, text=True, timeout=60)
    check(run.returncode == status and said in run.stderr,
          "%s: %d %s" % (args, run.returncode, run.stderr))
taken = socket.socket()
taken.bind(("127.0.0.1", 0))
taken.listen()
run = subprocess.run([host, "--serve", "127.0.0.1:%d" % taken.getsockname()[1], "--dict",
                      two_letters, "--log", log, hog, hog], capture_output=True, text=True,
                     timeout=60)
check(run.returncode == 1 and "the port is in use" in run.stderr and "no game was played"
      in run.stderr and not os.path.exists(log), "a taken port: %d %s" % (run.returncode, run.stderr))
taken.close()

# Above 2^53: a double would make it 18446744073709551616.
seed = 18446744073709551557
game = subprocess.Popen([host, "--serve", "127.0.0.1:0", "--dict", two_letters, "--log", log,
                         "--seed", str(seed), "--json", "--quiet", hog, hog],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
said = game.stderr.readline()
check("watch it live at http://127.0.0.1:" in said, "no address said: " + said)
port = int(said.split("127.0.0.1:")[1].split("/")[0])
check(os.readlink("/proc/%d/exe" % game.pid).endswith("/host-live"), "host did not run host-live")

response, page = request(port, "GET", "/")
check(response.status == 200 and b"Bananagrams game, live" in page
      and b'"log">null<' in page, "the page: %d" % response.status)
check("connect-src 'self'" in response.getheader("Content-Security-Policy", ""), "no policy")
response, body = request(port, "HEAD", "/")
check(response.status == 200 and body == b"", "HEAD")
response, _ = request(port, "POST", "/")
check(response.status == 405, "POST: %d" % response.status)
for path in ["/../../etc/passwd", "/games/1", "/%2e%2e/etc/passwd"]:
    response, body = request(port, "GET", path)
    check(response.status == 404 and b"root:" not in body, "%s: %d" % (path, response.status))
check(raw(port, b"NONSENSE\r\n\r\n") is not None, "a malformed request")

stream = Stream(port)
check(stream.status == 200, "the stream: %d" % stream.status)
first_id, name, snapshot = stream.next()
check(name == "snapshot" and snapshot["kind"] == "game" and not snapshot["over"], "no snapshot")
records = snapshot["records"]
check(records and records[0]["start"]["seed"] is None
      and records[0]["start"]["seed_text"] is None, "the seed was sent before the end")
with open(go, "w"):
    pass  # the players may peel now
events, last_id, kept = [], first_id, None
result_data = ""
while True:
    event = stream.next()
    check(event is not None, "the stream ended before 'finished'")
    event_id, name, data = event
    check(event_id == last_id + 1, "ids %d then %d" % (last_id, event_id))
    last_id = event_id
    if name == "finished":
        break
    events.append((event_id, name))
    records.append(data["record"])
    if name == "result":
        result_data = stream.data
    if name == "peel_accepted" and kept is None:
        kept = event_id
stream.close()
out, err = game.communicate(timeout=60)
check(game.returncode == 0, "the host exited %d: %s" % (game.returncode, err))

# What was sent is the log, record by record (its seed hidden until the result says it, and
# every seed also as text).
with open(log) as f:
    logged = [json.loads(line) for line in f]
logged[0]["start"]["seed"] = None
logged[0]["start"]["seed_text"] = None
logged[-1]["result"]["seed_text"] = str(seed)
check(records == logged, "the stream's records are not the log's")
said = dict(records[-1]["result"])
check(said.pop("seed_text") == "18446744073709551557" and said["seed"] == seed,
      "the result does not say the seed: %r" % records[-1]["result"])
check(said == json.loads(out), "the stream's result is not --json's")
# On the wire, the text is a JSON string (a number would be read as a double by a browser).
check('"seed_text":"18446744073709551557"' in result_data, "the seed as text: " + result_data)
check(any(name == "peel_accepted" for _, name in events), "no peel was watched")
check(kept is not None, "nothing to reconnect after")

# A second game, watched by a client that reconnects after its first peel.
os.remove(go)
game = subprocess.Popen([host, "--serve", "127.0.0.1:0", "--dict", two_letters, "--seed", "6",
                         "--quiet", hog, hog], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
port = int(game.stderr.readline().split("127.0.0.1:")[1].split("/")[0])
stream = Stream(port)
first_id, name, _ = stream.next()
with open(go, "w"):
    pass
while True:
    event_id, name, _ = stream.next()
    if name == "peel_accepted":
        break
stream.close()
again = Stream(port, last_id=event_id)
next_id, name, _ = again.next()
check(next_id == event_id + 1 and name != "snapshot",
      "reconnected after %d: %d %s" % (event_id, next_id, name))
while again.next() is not None:
    pass
again.close()
game.communicate(timeout=60)
check(game.returncode == 0, "the second game exited %d" % game.returncode)
print("ok: a game served live, %d events to the end, and a reconnection" % len(events))
