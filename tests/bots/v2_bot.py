#!/usr/bin/env python3
"""A protocol v2 player for the end-to-end tests, playing or misbehaving as MODE says. With
--record it writes every host message to its stderr, one a line as "got MESSAGE" without the
'.' (the host passes it on as "[player N] got ..."; a sandboxed bot has no file to write), and it
exits with status 1 (which puts it out of the game, failing the test) when the host breaks
protocol-v2.md.

Grids are staircases (staircase.py): legal under tests/data/two_letters.txt.

    v2_bot.py MODE [--record]
"""
import os
import select
import sys
import time

from staircase import staircase

args = sys.argv[1:]
mode = args[0]
record = "--record" in args

hand = []
pending = ""
seen = 0      # the newest peel whose tile is in the hand
bunch = None  # tiles left, as of the newest P message


def send(text):
    os.write(1, text.encode())


def fail(why):
    sys.exit("v2_bot: " + why)


def next_message():
    """The next host message, its tiles taken into the hand. At E, leaves."""
    global pending, seen, bunch
    while "." not in pending:
        data = os.read(0, 65536)
        if not data:
            sys.exit(0)
        pending += data.decode()
    if pending.startswith("E"):  # its reason is length-prefixed and may hold '.'
        length = int(pending[6:10])
        while len(pending) < 11 + length:
            pending += os.read(0, 65536).decode()
        message, pending = pending[:10 + length], pending[11 + length:]
    else:
        message, pending = pending.split(".", 1)
    if record:
        os.write(2, ("got " + message + "\n").encode())
    kind = message[0]
    if kind == "H":
        seen = int(message[1:5])
        hand.extend(message[5:])
    elif kind == "P":
        if int(message[1:5]) != seen + 1:
            fail("tile of peel %s after peel %d" % (message[1:5], seen))
        seen, bunch = int(message[1:5]), int(message[6:10])
        hand.append(message[5])
    elif kind == "D":
        hand.extend(message[1:])
    elif kind == "X":
        hand.append(message[1])
    elif kind == "E":
        sys.exit(0)  # the game is over for it: leave before SIGTERM
    return message


def until(kinds):
    """Reads messages until one of `kinds`; returns it."""
    while True:
        message = next_message()
        if message[0] in kinds:
            return message


def peel(letters=None, number=None):
    send("P%04d%s" % (seen if number is None else number, staircase(hand if letters is None else letters)))


def play():
    """Peels, and after each answer peels again with every tile that has come."""
    while True:
        peel()
        until("AN")


if mode == "v001":  # asks for version 1, which is the legacy protocol's: refused, with an E
    send("v001")
    until("")
send("v003R")
until("H")

if mode == "staircase":
    play()
elif mode == "racer":  # peels its dealt hand after another peel's tile has come: a NAK
    dealt = list(hand)
    until("P")
    peel(dealt, 0)
    nak = until("AN")
    if nak != "N%04d0000%s" % (seen, "".join(sorted(hand[len(dealt):]))):
        fail("NAK " + nak)
    play()
elif mode == "future":
    peel(number=99)
    until("")  # to its end message
elif mode == "old":  # peels 1 and 2 (stating 0, then 1), then a peel claiming peel 0
    peel()
    until("A")
    peel()
    until("A")
    peel(number=0)
    until("")
elif mode == "legacy-after-handshake":
    send("p" + staircase(hand))
    until("")
elif mode == "dump-when-short":  # peels until the bunch is short, then dumps: refused
    while bunch is None or bunch >= 3:
        peel()
        until("AN")
    letter = sorted(hand)[0]
    hand.remove(letter)
    send("D" + letter)
    refusal = until("DX")
    if refusal != "X%s%04d" % (letter, bunch):
        fail("refusal " + refusal)
    play()
elif mode in ("stuck-when-short", "dump-then-stuck"):
    # Plays (after one dump, for the second) until the bunch can no longer serve a dump, then
    # makes no move: a game of two such bots has stalled. The first waits a moment before its
    # first peel, so that the second's dump, sent as soon as it has its hand, comes while the
    # bunch can still serve it: the first's peels take a few milliseconds in all, and a dumper
    # slowed that much by a busy machine was refused.
    if mode == "dump-then-stuck":
        letter = sorted(hand)[0]
        hand.remove(letter)
        send("D" + letter)
        until("DX")
    else:
        time.sleep(0.5)
    while bunch is None or bunch >= 3:
        peel()
        until("AN")
    until("")
elif mode == "dump-race":  # dumps, and peels before it has read the dump's three tiles
    letter = sorted(hand)[0]
    hand.remove(letter)
    send("D" + letter)
    peel()
    answer = until("DX")
    nak = until("AN")
    if nak != "N%04d%04d%s" % (seen, seen, answer[1:]):
        fail("NAK " + nak + " after the dump's answer " + answer)
    play()
elif mode == "dump":  # one dump, then plays
    letter = sorted(hand)[0]
    hand.remove(letter)
    send("D" + letter)
    if len(until("DX")) != 4:
        fail("a dump's reply is D and three tiles")
    play()
else:
    fail("unknown mode " + mode)
