#!/usr/bin/env python3
"""A legacy player for the end-to-end tests: plays or misbehaves as its first argument says.

Grids are "staircases" (tile k at column (k+1)//2, row k//2): every run is two tiles long, so
under tests/data/two_letters.txt every staircase of the hand is legal.

    test_bot.py MODE [--v0] [--tag TAG] [--pace SECONDS] [--wait-for PATH]

--pace makes a staircase wait that long before each peel, and --wait-for until PATH exists
before its first (a game that lasts while a test watches it, from its start).

--tag does nothing but stand in the bot's command line, where a test finds its processes (and
its children's, which share it) by it: a sandboxed bot's pid means nothing outside.
"""
import os
import select
import signal
import sys
import time

from staircase import staircase

args = sys.argv[1:]
mode = args[0]
v0 = "--v0" in args
pace = float(args[args.index("--pace") + 1]) if "--pace" in args else 0
wait_for = args[args.index("--wait-for") + 1] if "--wait-for" in args else None

hand = []


def send(text):
    os.write(1, text.encode())


def receive(timeout=None):
    """Adds the letters the host sent to the hand; False at end of input."""
    ready, _, _ = select.select([0], [], [], timeout)
    if not ready:
        return True
    data = os.read(0, 65536).decode()
    if not data:
        return False
    if v0 and "." in data:
        sys.exit("v0 host sent a terminator")
    if not v0 and not data.endswith("."):
        # A v1 message always ends with '.'; a read may split one, so wait for the rest.
        data += os.read(0, 65536).decode()
    hand.extend(c for c in data if c != ".")
    return True


def drain():
    while select.select([0], [], [], 0)[0]:
        if not receive(0):
            return False
    return True


def peel():
    while wait_for and not os.path.exists(wait_for):
        time.sleep(0.01)
    if pace:
        time.sleep(pace)
    send("p" + staircase(hand))


def play():
    """Peel whenever new tiles have come."""
    while receive():
        if not drain():
            return
        peel()


def read_messages(count):
    """What the host sent until `count` messages (each ends with '.') have come, or its end."""
    data = ""
    while data.count(".") < count:
        chunk = os.read(0, 65536).decode()
        if not chunk:
            break
        data += chunk
    return data


def wait_forever():
    while True:
        time.sleep(60)


def first_hand():
    send("r")
    receive()
    drain()


if mode == "staircase":
    first_hand()
    peel()
    play()
elif mode == "peel-once":  # one peel, then reads but never moves again
    first_hand()
    peel()
    while receive():
        pass
elif mode == "stale-racer":  # once another peel's tile has come, peels the hand it was dealt
    send("r")
    data = read_messages(2)
    send("p" + staircase(data.split(".")[0]))
    hand.extend(c for c in data if c != ".")
    peel()
    play()
elif mode == "sleep":  # ready, then nothing
    send("r")
    wait_forever()
elif mode == "never-ready":
    wait_forever()
elif mode == "leave":  # exits before it is ready: out before any deal
    sys.exit(0)
elif mode == "leave-at-a-peel":  # ready; exits once another player's peel has sent it a tile
    send("r")
    read_messages(2)  # its hand, then a tile
    sys.exit(0)
elif mode == "ignore-term":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    send("r")
    wait_forever()
elif mode == "never-read":
    send("r")
    wait_forever()
elif mode == "flood-stdout":  # one endless peel: a 999x999 grid of dots, and on
    first_hand()
    send("p999999")
    while True:
        send("." * 65536)
elif mode == "flood-stderr":
    first_hand()
    while True:
        os.write(2, b"x" * 65535 + b"\n")
elif mode == "fork-and-exit":  # leaves a child holding nothing of ours, and exits
    if os.fork() == 0:
        os.closerange(0, 3)
        wait_forever()
    send("r")
    time.sleep(0.2)
    sys.exit(0)
elif mode == "close-stdout":
    send("r")
    os.close(1)
    wait_forever()
elif mode == "crash":
    first_hand()
    os.kill(os.getpid(), signal.SIGSEGV)
elif mode == "crash-mid-game":  # peels a few times as tiles come, then crashes
    first_hand()
    peel()
    for _ in range(3):
        if not receive() or not drain():
            sys.exit(0)
        peel()
    os.kill(os.getpid(), signal.SIGSEGV)
elif mode == "exit":
    first_hand()
    sys.exit(3)
elif mode == "whitespace":
    send("r\n")
    wait_forever()
elif mode == "garbage":
    send("rx")
    wait_forever()
elif mode == "ready-twice":
    send("rr")
    wait_forever()
elif mode == "peel-before-ready":
    send("p001001A")
    wait_forever()
elif mode == "bad-word":  # the hand in one row: a run no two-letter list holds
    first_hand()
    send("p%03d001%s" % (len(hand), "".join(sorted(hand))))
    wait_forever()
elif mode == "wrong-tiles":
    first_hand()
    hand.append("Q")
    peel()
    wait_forever()
elif mode == "bad-grid":
    first_hand()
    send("p002001Ab")
    wait_forever()
elif mode == "dump-absent":
    first_hand()
    absent = next(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in hand)
    send("d" + absent)
    wait_forever()
elif mode == "dump-then-play":  # one dump, then peels
    first_hand()
    send("d" + sorted(hand)[0])
    hand.remove(sorted(hand)[0])
    receive()
    drain()
    peel()
    play()
else:
    sys.exit("unknown mode " + mode)
