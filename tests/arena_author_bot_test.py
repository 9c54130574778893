#!/usr/bin/python3
"""A bot author's client, on Debian's python3-websockets (run by Debian's own python3, where
that package is), against a real `arena serve` and a real `host --serve` (docs/arena.md,
docs/remote.md):

    arena_author_bot_test.py BUILD_DIR SOURCE_DIR

- Every refusal at a WebSocket endpoint (/bot, /person, another path, a host's seat) is an
  HTTP/1.1 answer that the library, strict about HTTP versions, reads: its status, its
  Retry-After where there is one, and its JSON body ({"error", "message", "retry_after"}) saying
  the same.
- A bot written on the library from the documents alone (its engine the reference bot) passes
  the conformance check and plays a match; every `start` says the match, the rotation k of n,
  the table's size and entrants with their ratings, and which is the bot; `games_after` counts
  the match's games after it; a `match_over` says its place and its rating's change. `GET
  /rules` gives every table size the arena seats, and the word list's fingerprint is the one
  the documented algorithm computes from the list served.
- A bot may ask for a house bot to spar with (opponent=): it is seated with it alone, and the
  match is void ("a sparring match, which is never rated"), its opponent's rating unchanged; an
  opponent that is no house bot is refused (400).
- A bot that asks to leave (bananagrams-connect's SIGUSR1, a `drain` message) plays its match to
  the end, is rated, and is let go (connect exits 0).
- A bot behind bananagrams-connect whose connection a proxy cuts in the middle of a game comes
  back (to /bot, with its token) within --remote-grace into that same game and finishes it: the
  arena says it dropped and came back, the game's log that it connected again, and the bot is
  out of none of its match's games; the match is rated.
"""
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time

import websockets
from websockets.client import ClientConnection
from websockets.exceptions import InvalidStatusCode
from websockets.uri import parse_uri

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import remote_host  # noqa: E402
from arena_support import ArenaRun  # noqa: E402

t = ArenaRun("arena_author_bot_test", sys.argv[1])
build, work = t.build, t.work
check, run, said, wait_until = t.check, t.run, t.said, t.wait_until


def api(port, path):
    return t.api(path, port)


def refusal(port, path, headers=()):
    """What the library reads of a refused upgrade, at the wire: (status, headers, body)."""
    connection = ClientConnection(parse_uri("ws://127.0.0.1:%d%s" % (port, path)))
    request = connection.connect()
    for name, value in headers:
        request.headers[name] = value
    connection.send_request(request)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"".join(connection.data_to_send()))
        while not connection.events_received() and connection.handshake_exc is None:
            data = s.recv(65536)
            if not data:
                connection.receive_eof()
                break
            connection.receive_data(data)
            if connection.events:
                break
    check(connection.events, "no response to %s" % path)
    response = connection.events[0]
    return response.status_code, response.headers, response.body


def check_refusal(port, path, status, error, headers=(), retry=False):
    got, answer, body = refusal(port, path, headers)
    check(got == status, "%s: %d, not %d" % (path, got, status))
    check(answer.get("Content-Type") == "application/json", "%s: %s" % (path, answer))
    document = json.loads(body)
    check(document["error"] == error and document["message"],
          "%s: the body %s, not error %s" % (path, document, error))
    if retry:
        check(int(answer["Retry-After"]) == document["retry_after"] > 0,
              "%s: Retry-After %s, the body %s" % (path, answer.get("Retry-After"), document))
    else:
        check("Retry-After" not in answer and "retry_after" not in document,
              "%s: a retry where none is due: %s" % (path, document))
    return document


async def asyncio_refused(port, path, headers):
    """The library's everyday client: a refusal is a status it reads, not a broken answer."""
    try:
        async with websockets.connect("ws://127.0.0.1:%d%s" % (port, path),
                                      extra_headers=headers, open_timeout=10):
            return None, None
    except InvalidStatusCode as refused:
        return refused.status_code, refused.headers


async def author_bot(port, token, reference, query=""):
    """A bot as an author writes it from docs/remote.md and docs/arena.md: one session, its
    engine a process started afresh at each fresh `start`, its bytes both ways as text, the
    session's messages kept; until its first match is over."""
    messages, engine, pump, drained = [], None, None, False

    async def pumped(process, ws):
        while data := await process.stdout.read(4096):
            await ws.send(data.decode())

    async def let_go():
        nonlocal engine, pump
        if pump:
            pump.cancel()
        if engine and engine.returncode is None:
            engine.kill()
            await engine.wait()
        engine = pump = None

    async with websockets.connect(
            "ws://127.0.0.1:%d/bot%s" % (port, query), open_timeout=10, max_size=2 ** 20,
            extra_headers={"Authorization": "Bearer " + token, "X-Bananagrams-Session": "1",
                           "X-Bananagrams-Bot-Version": "py"}) as ws:
        async for message in ws:
            if isinstance(message, str):
                if engine:
                    engine.stdin.write(message.encode())
                    await engine.stdin.drain()
                continue
            told = json.loads(message)
            messages.append(told)
            if told["type"] == "start" and "match" in told and not drained:
                # One match, then it leaves: the session's drain, sent as it begins.
                await ws.send(json.dumps({"type": "drain"}).encode())
                drained = True
            if told["type"] == "start" and told["bot"] == "fresh":
                await let_go()
                engine = await asyncio.create_subprocess_exec(
                    reference, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
                pump = asyncio.ensure_future(pumped(engine, ws))
            elif told["type"] == "end":
                await let_go()
            elif told["type"] == "match_over":
                break  # let go after its match, it leaves
        await let_go()
    return messages


def fingerprint(words):
    """docs/remote.md's algorithm: the sum, modulo 2**64, over the distinct words in upper case,
    of FNV-1a 64 of the word's bytes, mixed by SplitMix64's finaliser."""
    mask, total = 2 ** 64 - 1, 0
    for word in set(w.upper() for w in words):
        h = 0xcbf29ce484222325
        for byte in word.encode():
            h = ((h ^ byte) * 0x100000001b3) & mask
        h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & mask
        h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & mask
        total = (total + (h ^ (h >> 31))) & mask
    return "%016x" % total


async def hold(port, token):
    """One connection of the bot, held open while `check_second` runs."""
    async with websockets.connect("ws://127.0.0.1:%d/bot" % port, open_timeout=10,
                                  extra_headers={"Authorization": "Bearer " + token,
                                                 "X-Bananagrams-Session": "1"}) as held:
        await asyncio.sleep(0.5)  # the arena has counted it
        second = await asyncio_refused(port, "/bot", {"Authorization": "Bearer " + token,
                                                      "X-Bananagrams-Session": "1"})
        document = check_refusal(port, "/bot", 429, "connections-at-once",
                                 (("Authorization", "Bearer " + token),
                                  ("X-Bananagrams-Session", "1")), retry=True)
        await held.close()
        return second, document


try:
    # Level 3 moves at a second a tile: a game lasts long enough for a cut to fall within it.
    run("bot", "add", "L3", "--command", os.path.join(build, "reference_bot") + " --level 3")
    token = run("bot", "add", "author").splitlines()[-1]
    pat = run("person", "add", "pat").splitlines()[-1]
    served = t.serve("--no-sandbox", "--connections-per-bot", "1", "--logs",
                     os.path.join(work, "logs"))
    port = served.port
    session = ("X-Bananagrams-Session", "1")

    # ---- every refusal, read by a client strict about HTTP ----
    check_refusal(port, "/elsewhere", 404, "path")
    check_refusal(port, "/bot", 401, "no-token", (session,))
    check_refusal(port, "/bot", 401, "wrong-token", (("Authorization", "Bearer " + "W" * 32),
                                                     session))
    check_refusal(port, "/bot", 400, "not-a-session", (("Authorization", "Bearer " + token),))
    check_refusal(port, "/person?session=1&name=pat&code=" + "w" * 24, 401, "wrong-code")
    check_refusal(port, "/person?session=1&name=pat&code=%s&opponent=nobody" % pat, 400,
                  "not-a-house-bot")
    status, headers = asyncio.run(asyncio_refused(port, "/bot", {"Authorization": "Bearer x"}))
    check(status == 401, "the library's client read %s" % status)
    (second, second_headers), document = asyncio.run(hold(port, token))
    check(second == 429 and int(second_headers["Retry-After"]) > 0,
          "a second connection past --connections-per-bot: %s %s" % (second, second_headers))
    check("connections" in document["message"], document)
    # ---- a bot of the author's own: its check, a match, and what it is told of it ----
    told = asyncio.run(asyncio.wait_for(author_bot(port, token, os.path.join(build, "reference_bot")), 300))
    starts = [m for m in told if m["type"] == "start" and "match" in m]
    over = [m for m in told if m["type"] == "match_over"]
    check(len(over) == 1 and starts, "the messages: %s" % told)
    match = starts[0]["match"]["id"]
    rotations = starts[0]["match"]["rotations"]
    starts = [m for m in starts if m["match"]["id"] == match]
    check([m["match"]["rotation"] for m in starts] == list(range(1, rotations + 1)) and
          [m["games_after"] for m in starts] == list(range(rotations - 1, -1, -1)),
          "the match's starts: %s" % starts)
    table = starts[0]["match"]["table"]
    check(starts[0]["match"]["players"] == len(table) == rotations and
          sorted(t["name"] for t in table) == ["L3", "author"] and
          all(t["rating"]["sigma"] > 0 for t in table) and starts[0]["match"]["you"] == "author",
          "the match's table: %s" % starts[0])
    rated = over[0]
    check(rated["match"] == match and rated["state"] == "rated" and
          rated["place"] in (1, 2) and rated["players"] == 2 and
          abs(rated["rating"]["change"] - (rated["rating"]["after"]["mu"] -
                                           rated["rating"]["before"]["mu"])) < 1e-9,
          "the match's outcome: %s" % rated)
    rules = api(port, "/rules")
    check([t["players"] for t in rules["tables"]] == [2, 3, 4] and rules["players"] == 4 and
          rules["remote_grace_ms"] == 10000, "/rules: %s" % rules)
    import urllib.request
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, rules["word_list"]["url"]),
                                timeout=60) as r:
        words = r.read().decode().split()
    check(fingerprint(words) == rules["word_list"]["fingerprint"],
          "the documented fingerprint: %s, not %s" % (fingerprint(words),
                                                       rules["word_list"]["fingerprint"]))
    wait_until(lambda: "match %d rated" % match in said(), 30, "the match")

    # ---- sparring: a match against a house bot of its choosing, never rated ----
    before = api(port, "/api/bots/L3")["versions"][0]
    told = asyncio.run(asyncio.wait_for(author_bot(port, token, os.path.join(build, "reference_bot"),
                                                   "?opponent=L3"), 300))
    spar = [m for m in told if m["type"] == "match_over"][0]
    check(spar["state"] == "void" and
          spar["why"] == "a sparring match, which is never rated: author asked to play L3" and
          "rating" not in spar, "the sparring match: %s" % spar)
    sparred = [m for m in told if m["type"] == "start" and "match" in m]
    check(sparred and all(sorted(t["name"] for t in m["match"]["table"]) == ["L3", "author"]
                          for m in sparred), "the sparring table: %s" % sparred)
    after = api(port, "/api/bots/L3")["versions"][0]
    check(after["matches_played"] == before["matches_played"] and
          after["rating"] == before["rating"], "L3 rated for a sparring match: %s" % after)
    check_refusal(port, "/bot?opponent=nobody", 400, "not-a-house-bot",
                  (("Authorization", "Bearer " + token), session))
    match = spar["match"]

    # ---- a connection cut in the middle of a game: the bot comes back into it ----
    proxy = remote_host.Proxy(port)
    token_file = t.token_file("author", token)
    connect = t.start(
        [os.path.join(build, "connect"), "--token-file", token_file, "--grace", "60",
         "--words", "from-seat", "ws://127.0.0.1:%d/bot" % proxy.port, "--",
         os.path.join(build, "reference_bot") + " --level 3"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "connect.err"), "w"))
    wait_until(lambda: "match %d begins" % (match + 1) in said(), 120, "the next match")
    time.sleep(3)  # its first game under way, the bots' first grids laid
    proxy.cut()
    def notes():
        logs = os.path.join(work, "logs")
        return "".join(line for name in sorted(os.listdir(logs)) if name.endswith(".jsonl")
                       for line in open(os.path.join(logs, name)) if '"note"' in line)
    wait_until(lambda: "came back into its match" in said(), 60,
               lambda: "the bot to come back: connect said:\n" +
               open(os.path.join(work, "connect.err")).read() + "\nthe games' notes:\n" +
               notes())
    check("bot author's connection dropped within its match: held for 10 s" in said(),
          "the drop is not in the arena's lines")
    wait_until(lambda: "match %d rated" % (match + 1) in said(), 180, "the match to be rated")
    played = api(port, "/api/matches/%d" % (match + 1))
    outs = [seat["out_code"] for game in played["games"] for seat in game["seats"]
            if seat["bot"] == "author"]
    check(len(outs) == 2 and "left" not in outs, "the bot's games: %s" % played["games"])
    logs = [os.path.join(work, "logs", name) for name in os.listdir(os.path.join(work, "logs"))
            if name.startswith("match-%06d-" % (match + 1))]
    check(any("connected again, having received" in open(log).read() for log in logs),
          "no game's log says the bot came back: %s" % logs)
    # ---- a bot that asks to leave (SIGUSR1 to its connect): after its match, which is rated ----
    drained = match + 2
    wait_until(lambda: "match %d begins" % drained in said(), 120, "the next match")
    connect.send_signal(signal.SIGUSR1)
    try:
        connect.wait(timeout=240)
    except subprocess.TimeoutExpired:
        pass
    check(connect.returncode == 0, "connect after SIGUSR1: %s" %
          open(os.path.join(work, "connect.err")).read())
    wait_until(lambda: "match %d rated" % drained in said(), 30, "the drained bot's match")
    check("bot author asked to leave after its match" in said(), "the drain's line")
    played = api(port, "/api/matches/%d" % drained)
    check("left" not in [seat["out_code"] for game in played["games"] for seat in game["seats"]
                         if seat["bot"] == "author"], "the drained bot left its match")
    check("asked to leave once its match is over" in
          open(os.path.join(work, "connect.err")).read(), "connect's line")
    served.terminate()
    served.wait(timeout=60)

    # ---- a host's seats answer the same way ----
    game, seat_port, seats = remote_host.start_host(
        os.path.join(build, "host"), "--no-sandbox", "--seed", "7",
        os.path.join(build, "reference_bot"), "remote:")
    t.started.append(game)
    check_refusal(seat_port, "/seat/" + "w" * 32, 403, "wrong-token")
    check_refusal(seat_port, "/seat/", 401, "no-token")
    check_refusal(seat_port, "/elsewhere", 404, "path")
    game.kill()
    game.wait()
finally:
    t.end()
print("arena_author_bot_test: all passed")
