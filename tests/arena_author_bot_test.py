#!/usr/bin/python3
"""A bot author's client, on Debian's python3-websockets (run by Debian's own python3, where
that package is), against a real `arena serve` and a real `host --serve` (docs/arena.md,
docs/remote.md):

    arena_author_bot_test.py BUILD_DIR SOURCE_DIR

- Every refusal at a WebSocket endpoint (/bot, /person, another path, a host's seat) is an
  HTTP/1.1 answer that the library, strict about HTTP versions, reads: its status, its
  Retry-After where there is one, and its JSON body ({"error", "message", "retry_after"}) saying
  the same.
"""
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

import websockets
from websockets.client import ClientConnection
from websockets.exceptions import InvalidStatusCode
from websockets.uri import parse_uri

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import remote_host  # noqa: E402
from remote_host import arena_port  # noqa: E402

build, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
arena = os.path.join(build, "arena")
work = tempfile.mkdtemp(prefix="arena-author-bot-test-")
db = os.path.join(work, "arena.db")
started = []


def check(condition, what):
    if not condition:
        said = "".join(getattr(started[0], "said_lines", [])) if started else ""
        sys.exit("arena_author_bot_test: %s\nthe arena said:\n%s" % (what, said[-4000:]))


def run(*args):
    done = subprocess.run([arena, *args, "--db", db], capture_output=True, text=True, timeout=60)
    check(done.returncode == 0, "arena %s: %s" % (" ".join(args), done.stderr))
    return done.stdout.strip()


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
    run("bot", "add", "L5", "--command", os.path.join(build, "reference_bot") + " --level 5")
    token = run("bot", "add", "author").splitlines()[-1]
    pat = run("person", "add", "pat").splitlines()[-1]
    served = subprocess.Popen([arena, "serve", "--db", db, "--listen", "127.0.0.1:0",
                               "--no-sandbox", "--connections-per-bot", "1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    started.append(served)
    port = arena_port(served)
    check(port, "the arena said no address")
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
    served.terminate()
    served.wait(timeout=60)

    # ---- a host's seats answer the same way ----
    game, seat_port, seats = remote_host.start_host(
        os.path.join(build, "host"), "--no-sandbox", "--seed", "7",
        os.path.join(build, "reference_bot"), "remote:")
    started.append(game)
    check_refusal(seat_port, "/seat/" + "w" * 32, 403, "wrong-token")
    check_refusal(seat_port, "/seat/", 401, "no-token")
    check_refusal(seat_port, "/elsewhere", 404, "path")
    game.kill()
    game.wait()
finally:
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()
    shutil.rmtree(work, ignore_errors=True)
print("arena_author_bot_test: all passed")
