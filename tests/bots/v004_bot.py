#!/usr/bin/env python3
"""A protocol v004 player for the end-to-end tests: it stays for the games of its match
(protocol-v2.md, "v004"), peeling staircases (staircase.py: legal under
tests/data/two_letters.txt), and between games behaves as MODE says. At the start of every game,
before it says it is ready, it writes "life LIFE game N seat SS of NN" on its stderr (LIFE: a
token of its process, the same for all the games the process plays), and "life LIFE hand TILES"
as its hand comes, which the host passes on as "[player N] ...". It exits with status 1 (out,
failing the test) when the host breaks the protocol.

    v004_bot.py MODE

MODE:
  stay           plays every game it is given
  idle           stays for every game it is given, and never moves (each runs to its time limit)
  crash-after-1  plays its first game, then exits with status 3 after reading E
  hang-after-1   plays its first game, then reads nothing more and never answers G
  leak           plays every game, holding 24 MiB more after each (touched, so resident)
  late-moves     after each E, sends a dump and a peel cut in two, as a bot that had not read
                 its E would
  chatter        after its first E, sends R before any G: a protocol error between games
  spike          in its first game alone, before its first peel, spends 0.3 s of CPU and holds
                 64 MiB for a moment
"""
import os
import sys
import time

from staircase import staircase

mode = sys.argv[1]
life = os.urandom(4).hex()
pending = ""
hand, seen, games = [], 0, 0
hoard = []


def send(text):
    os.write(1, text.encode())


def fail(why):
    sys.exit("v004_bot: " + why)


def next_message():
    """The next host message, without its '.'; "" at the end of input."""
    global pending
    while "." not in pending:
        data = os.read(0, 65536)
        if not data:
            return ""
        pending += data.decode()
    if pending.startswith("E"):  # its reason is length-prefixed and may hold '.'
        length = int(pending[6:10])
        while len(pending) < 11 + length:
            data = os.read(0, 65536)
            if not data:
                return ""
            pending += data.decode()
        message, pending = pending[:10 + length], pending[11 + length:]
    else:
        message, pending = pending.split(".", 1)
    return message


def begin(seat, seats):
    global hand, seen, games
    hand, seen, games = [], 0, games + 1
    sys.stderr.write("life %s game %d seat %s of %s\n" % (life, games, seat, seats))
    sys.stderr.flush()
    if mode == "spike" and games == 1:
        block = bytearray(64 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        del block
        until = time.process_time() + 0.3
        while time.process_time() < until:
            pass


def play():
    """One game, to its E."""
    global seen
    while True:
        message = next_message()
        if not message:
            sys.exit(0)
        kind = message[0]
        if mode == "idle" and kind != "E":
            continue
        if kind == "H":
            if int(message[1:5]) != 0:
                fail("a hand at peel " + message[1:5])
            hand.extend(message[5:])
            sys.stderr.write("life %s hand %s\n" % (life, message[5:]))
            sys.stderr.flush()
        elif kind == "P":
            seen = int(message[1:5])
            hand.append(message[5])
        elif kind in "AN":
            continue
        elif kind == "E":
            return
        else:
            fail("in a game: " + message)
        send("P%04d%s" % (seen, staircase(hand)))


send("v004")
answer = next_message()
if not answer.startswith("V004") or len(answer) != 8:
    fail("answered " + answer)
begin(answer[4:6], answer[6:8])
send("R")
while True:
    play()
    if mode == "crash-after-1":
        sys.exit(3)
    if mode == "hang-after-1":
        while True:
            time.sleep(60)
    if mode == "leak":
        block = bytearray(24 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        hoard.append(block)
    if mode == "late-moves":
        grid = "P0000" + staircase(hand)
        send("D" + hand[0] + grid[:4])
        time.sleep(0.05)
        send(grid[4:])
    if mode == "chatter" and games == 1:
        send("R")
    message = next_message()
    if message in ("", "B"):
        sys.exit(0)
    if not message.startswith("G") or len(message) != 5:
        fail("after E: " + message)
    begin(message[1:3], message[3:5])
    send("R")
