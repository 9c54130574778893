#!/usr/bin/env python3
"""A protocol v2 bot written from protocol-v2.md as first published (commit c847d7a, the v002 of
"Versions"), and strict about every byte the host sends: a host that changes v002 under its
bots fails it. Asked for v003, it holds the host to v003 instead, which differs only in V (the
seat and the number of seats), and says its seat on stderr.

    strict_v002.py [v002|v003] [staircase|checker]

It plays staircases (staircase.py: legal under tests/data/two_letters.txt), dumping its first
tile once after the deal; with `checker` it knows only `host --check`'s hands (ACT is CAT,
ACST is CATS) and dumps any other. Whatever the host breaks, it writes "strict: WHY" to its
stderr and exits with status 3, which puts it out of the game; at E it checks that nothing
follows, and exits.
"""
import os
import re
import sys

from staircase import staircase

args = sys.argv[1:]
VERSION = "v003" if "v003" in args else "v002"
CHECKER = "checker" in args
CHECKER_GRIDS = {"ACT": "003001CAT", "ACST": "004001CATS"}

LETTERS = "[A-Z]"
FORMS = {  # every host message of the first document, without its "."
    "V": re.compile(r"V002" if VERSION == "v002" else r"V003(\d\d)(\d\d)"),
    "H": re.compile(r"H(\d{4})(%s+)" % LETTERS),
    "P": re.compile(r"P(\d{4})(%s)(\d{4})" % LETTERS),
    "A": re.compile(r"A(\d{4})"),
    "N": re.compile(r"N(\d{4})(\d{4})(%s+)" % LETTERS),
    "D": re.compile(r"D(%s{3})" % LETTERS),
    "X": re.compile(r"X(%s)(\d{4})" % LETTERS),
}
END = re.compile(r"E([WLQ])(\d\d)(\d\d|--)(\d{4})")


def fail(why):
    os.write(2, ("strict: " + why + "\n").encode())
    sys.exit(3)


def send(text):
    os.write(1, text.encode())


class Host:
    """The host's byte stream, cut into messages."""

    def __init__(self):
        self.pending = b""

    def more(self):
        data = os.read(0, 65536)
        if not data:
            fail("the end of its input before E")
        if any(b < 0x21 or b > 0x7E for b in data):
            fail("a byte that is not printable ASCII: %r" % data)
        self.pending += data

    def next(self):
        """The next message, with its "." taken off (E: its head and its reason)."""
        while not self.pending:
            self.more()
        if self.pending[:1] == b"E":
            while len(self.pending) < 10:
                self.more()
            head = END.fullmatch(self.pending[:10].decode())
            if not head:
                fail("E message of the wrong form: %r" % self.pending[:10])
            length = int(head.group(4))
            while len(self.pending) < 11 + length:
                self.more()
            if self.pending[10 + length:11 + length] != b".":
                fail("E whose reason is not %d bytes and a '.': %r" % (length, self.pending))
            message, self.pending = self.pending[:10 + length], self.pending[11 + length:]
            return message.decode()
        while b"." not in self.pending:
            self.more()
        message, self.pending = self.pending.split(b".", 1)
        return message.decode()


def ended(host, message, seat):
    """E: its fields as the document has them, then nothing more."""
    outcome, standing, winner = message[1], int(message[2:4]), message[4:6]
    if outcome == "W" and standing != 1:
        fail("won, standing %02d" % standing)
    if outcome == "Q" and standing != 0:
        fail("disqualified, standing %02d" % standing)
    if outcome != "Q" and standing == 0:
        fail("standing 00 without being disqualified")
    if seat is not None and outcome == "W" and winner != "%02d" % seat:
        fail("won, but the winner is seat %s and it is seat %02d" % (winner, seat))
    if seat is not None and outcome == "L" and winner == "%02d" % seat:
        fail("lost, but the winner is its own seat")
    if outcome != "Q" and int(message[6:10]):
        fail("a reason without a disqualification: %r" % message)
    if host.pending:
        fail("bytes after E: %r" % host.pending)
    try:
        rest = os.read(0, 65536)
    except OSError:
        rest = b""
    if rest:
        fail("bytes after E: %r" % rest)
    os.write(2, ("strict: %s ends %s, standing %02d\n" % (VERSION, outcome, standing)).encode())
    sys.exit(0)


def main():
    host = Host()
    send(VERSION + "R")
    first = host.next()
    version = FORMS["V"].fullmatch(first)
    if not version:
        fail("answered %r to %s" % (first, VERSION))
    seat = None
    if VERSION == "v003":
        seat, seats = int(version.group(1)), int(version.group(2))
        if not 1 <= seat <= seats <= 64:
            fail("seat %d of %d" % (seat, seats))
        os.write(2, ("strict: seat %02d of %02d\n" % (seat, seats)).encode())

    hand = []
    newest = None           # the newest peel whose tile it has read (H: 0000)
    since = {}              # peel number -> the tile that peel dealt it
    peel_sent = None        # the number its outstanding peel states
    dump_sent = None        # the letter of its outstanding dump
    dumped_once = CHECKER   # the staircase player dumps once, after the deal
    answered = False        # whether its last move has its answer
    refused = False         # its dump was refused: no dump again before a new tile comes
    over = False            # its peel ended the game: E comes next

    def move():
        nonlocal peel_sent, dump_sent, dumped_once
        key = "".join(sorted(hand))
        if CHECKER:
            if key in CHECKER_GRIDS:
                peel_sent = newest
                send("P%04d%s" % (newest, CHECKER_GRIDS[key]))
            elif hand and not refused:
                dump_sent = key[0]
                hand.remove(dump_sent)
                send("D" + dump_sent)
            return
        if not dumped_once:
            dumped_once = True
            dump_sent = key[0]
            hand.remove(dump_sent)
            send("D" + dump_sent)
            return
        peel_sent = newest
        send("P%04d%s" % (newest, staircase(hand)))

    while True:
        message = host.next()
        kind = message[:1]
        if kind == "E":
            ended(host, message, seat)
        form = FORMS.get(kind)
        fields = form.fullmatch(message) if form else None
        if over:
            fail("%r after the ACK of the peel that ended the game" % message)
        if not fields or kind == "V":
            fail("a message the document does not have, or of the wrong form: %r" % message)
        if kind == "H":
            if newest is not None:
                fail("a second hand: %r" % message)
            if fields.group(1) != "0000" or list(fields.group(2)) != sorted(fields.group(2)):
                fail("a hand not dealt as of 0000 in alphabetical order: %r" % message)
            newest = 0
            hand.extend(fields.group(2))
            move()
            continue
        if newest is None:
            fail("%r before the hand" % message)
        if kind == "P":
            number = int(fields.group(1))
            if number != newest + 1:
                fail("the tile of peel %04d after peel %04d" % (number, newest))
            newest = number
            since[number] = fields.group(2)
            hand.append(fields.group(2))
            refused = False
        elif kind == "A":
            number = int(fields.group(1))
            if peel_sent is None:
                fail("an ACK with no peel of its own waiting: %r" % message)
            # Its own tile came first, unless its peel ended the game (then E follows).
            if number != newest and number != newest + 1:
                fail("ACK %04d when its newest tile is of peel %04d" % (number, newest))
            over = number == newest + 1
            peel_sent = None
            since.clear()
            answered = True
        elif kind == "N":
            current, reflects = int(fields.group(1)), int(fields.group(2))
            if peel_sent is None:
                fail("a NAK with no peel of its own waiting: %r" % message)
            if current > newest:
                fail("NAK %04d before the tiles of the peels up to it (it has %04d)"
                     % (current, newest))
            if reflects != peel_sent:
                fail("NAK says its grid reflects %04d; it said %04d" % (reflects, peel_sent))
            lacked = sorted(t for n, t in since.items() if reflects < n <= current)
            if list(fields.group(3)) != lacked:
                fail("NAK lacking %s; the peels after %04d dealt it %s"
                     % (fields.group(3), reflects, "".join(lacked)))
            peel_sent = None
            answered = True
        elif kind == "D":
            if dump_sent is None:
                fail("three tiles with no dump of its own waiting: %r" % message)
            if list(fields.group(1)) != sorted(fields.group(1)):
                fail("a dump's tiles not in alphabetical order: %r" % message)
            hand.extend(fields.group(1))
            dump_sent = None
            answered = True
        elif kind == "X":
            if dump_sent is None or fields.group(1) != dump_sent:
                fail("a refusal of a dump it did not make: %r" % message)
            if int(fields.group(2)) >= 3:
                fail("a dump refused with %s tiles in the bunch" % fields.group(2))
            hand.append(dump_sent)
            dump_sent = None
            refused = True
            answered = True
        # One move at a time: the next once the last is answered, with every tile read.
        if answered and not over and peel_sent is None and dump_sent is None and not host.pending:
            answered = False
            move()


main()
