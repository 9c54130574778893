#!/usr/bin/env python3
"""A bot for the tests of `host --check`: right in mode `ok`, and in every other mode wrong in
one way that the checker must catch and name.

    checker_bot.py MODE [v2|v4|legacy]

It knows only the checker's hands: ACT is peeled as CAT, ACTS as CATS; any other hand dumps
its first tile. Modes:
  ok         plays by the rules
  newline    ends every message with a newline
  noflush    writes through a buffer it never flushes (the bytes leave when it exits)
  slow       sleeps 3 s before its first message
  wronggrid  peels one tile short (CA for ACT)
  ignoreterm ignores SIGTERM and the end of its input (but exits at E, as it should)
  noexit     does not exit at E or at the end of its input (but dies at SIGTERM)
  (v4 alone: it asks for v004, and stays for the next game after E)
  leave      leaves at its first E, as a v002 bot would
  oldnumbers numbers its next game's peels on from its first game's
  redump     dumps again at once whenever a dump is refused, without end (legal, and the
             check must still end)
"""
import collections
import os
import signal
import sys
import time

MODE = sys.argv[1]
V4 = len(sys.argv) >= 3 and sys.argv[2] == "v4"
V2 = len(sys.argv) < 3 or sys.argv[2] in ("v2", "v4")
GRIDS = {"ACT": "003001CAT", "ACST": "004001CATS"}
if MODE == "wronggrid":
    GRIDS = {"ACT": "002001CA", "ACST": "003001CAT"}
out = sys.stdout if MODE == "noflush" else None


def send(text):
    if MODE == "newline":
        text += "\n"
    if out:
        out.write(text)  # and never a flush
    else:
        os.write(1, text.encode())


def messages():
    """Host messages, without their '.' (in the legacy protocol, each message's letters)."""
    pending = ""
    while True:
        data = os.read(0, 4096)
        if not data:
            return
        pending += data.decode()
        while "." in pending:
            message, pending = pending.split(".", 1)
            yield message


def main():
    if MODE == "ignoreterm":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "slow":
        time.sleep(3)
    send(("v004R" if V4 else "v002R") if V2 else "r")
    hand, peeled, dumped, games = collections.Counter(), None, None, 1
    for m in messages():
        if V2:
            kind, body = m[0], m[1:]
            if kind == "E" and (not V4 or MODE == "leave"):
                break
            if kind == "E":  # v004: the next game may follow
                hand, peeled = collections.Counter(), None
                continue
            if kind == "G":
                games += 1
                send("R")
                continue
            if kind == "B":
                break
            hand.update({"H": body[4:], "P": body[4:5], "D": body, "X": body[:1]}.get(kind, ""))
            act = kind in "HAND" or (MODE == "redump" and kind == "X")
        else:
            hand.update(m)
            # Its own letter back: the dump was refused (redump dumps it again).
            act = MODE == "redump" or not (dumped and m == dumped)
        dumped = None
        if not act:
            continue
        key = "".join(sorted(hand.elements()))
        if key in GRIDS and key != peeled:
            number = (1 if "S" in key else 0) + (2 if MODE == "oldnumbers" and games > 1 else 0)
            send(("P%04d" % number if V2 else "p") + GRIDS[key])
            peeled = key
        elif key not in GRIDS and hand:
            dumped = key[0]
            hand[dumped] -= 1
            send(("D" if V2 else "d") + dumped)
    else:  # the end of its input
        if MODE == "ignoreterm":
            while True:
                time.sleep(1)
    if MODE == "noexit":
        while True:
            time.sleep(1)


if __name__ == "__main__":
    main()
