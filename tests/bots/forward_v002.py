#!/usr/bin/env python3
"""A bot that knows v002's grammar alone (protocol-v2.md as first published), and asks for a
version later than any host knows: it reads the answer by the rule every version keeps (the
three digits after V are the version; everything after them up to the first '.' belongs to V),
says on stderr what it read ("version NNN, skipped FIELDS"), and plays on with v002's messages
if the version is one it can play (v002, or v003: v002 with the seat inside V), else leaves.

Grids are staircases (staircase.py): legal under tests/data/two_letters.txt.

    forward_v002.py VERSION
"""
import os
import sys

from staircase import staircase

asked = sys.argv[1]
pending = ""
hand = []
seen = 0


def read_until_dot():
    global pending
    while "." not in pending:
        data = os.read(0, 65536)
        if not data:
            sys.exit(0)
        pending += data.decode("ascii")
    message, pending = pending.split(".", 1)
    return message


os.write(1, ("v%sR" % asked).encode())
answer = read_until_dot()
if answer[:1] != "V" or not answer[1:4].isdigit():
    sys.exit("forward_v002: the answer %r is not V and a version" % answer)
version, skipped = int(answer[1:4]), answer[4:]
sys.stderr.write("version %03d, skipped %s\n" % (version, skipped or "nothing"))
sys.stderr.flush()
if version not in (2, 3):
    sys.exit(0)  # a version it cannot play: it leaves

while True:
    message = read_until_dot()
    kind = message[0]
    if kind == "H":
        seen = int(message[1:5])
        hand.extend(message[5:])
    elif kind == "P":
        seen = int(message[1:5])
        hand.append(message[5])
    elif kind == "E":
        sys.exit(0)  # its reason may hold '.': it leaves before reading further
    elif kind in "AN":
        pass
    else:
        sys.exit("forward_v002: unexpected %r" % message)
    if kind in "HAN":
        # Its hand is laid out whenever it has read an answer (or the deal): one peel in flight.
        os.write(1, ("P%04d%s" % (seen, staircase(hand))).encode())
