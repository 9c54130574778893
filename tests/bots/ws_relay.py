#!/usr/bin/env python3
"""A remote bot with a WebSocket client of its own (the tests' ws_client.py, the standard library
only), written from docs/remote.md as a bot author without bananagrams-connect writes one: for
each game it connects to the seat's URL, starts CMD, and relays the protocol's bytes both ways;
it answers the host's pings, tries again while the host answers 503, and stops once the host says
the bot has no more games (X-Bananagrams-Games-After: 0 after a game, or 410).

    ws_relay.py HOST PORT PATH CMD...

It exits 0 having played every game the host had for it, 1 otherwise.
"""
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ws_client import Client, Refused  # noqa: E402

host, port, path, command = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]


def seat():
    """A connection to the seat, once one is open (503: not yet); None once the games are over."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return Client(host, port, path, timeout=30)
        except Refused as refused:
            if refused.status == 410:
                return None
            if refused.status != 503 or time.monotonic() > deadline:
                sys.exit("ws_relay: refused: %d %s" % (refused.status, refused.body))
        except OSError as error:
            if time.monotonic() > deadline:
                sys.exit("ws_relay: cannot connect: %s" % error)
        time.sleep(0.2)


def play(client):
    """One game: the bot started, its bytes relayed both ways, until the host closes the seat."""
    bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def upstream():
        while True:
            data = os.read(bot.stdout.fileno(), 65536)
            if not data:
                return
            try:
                client.send(data)
            except OSError:
                return

    threading.Thread(target=upstream, daemon=True).start()
    while True:
        data = client.frame()
        if data is None:
            break
        try:
            bot.stdin.write(data)
            bot.stdin.flush()
        except BrokenPipeError:
            pass
    try:
        bot.stdin.close()
    except BrokenPipeError:
        pass
    try:
        bot.wait(timeout=5)
    except subprocess.TimeoutExpired:
        bot.kill()
        bot.wait()
    client.sock.close()
    return client.close_code


games = 0
while True:
    client = seat()
    if client is None:
        break
    after = client.headers.get("x-bananagrams-games-after")
    code = play(client)
    games += 1
    if code != 1000:
        sys.exit("ws_relay: the seat was closed with %s" % code)
    if after == "0":
        break
print("ws_relay: played %d games" % games, file=sys.stderr)
