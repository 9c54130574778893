#!/usr/bin/env python3
"""The reference bot's --level, against a fake host: a level's pace holds (its first move waits
the level's first-grid time after the hand, a later one its time a tile after the newest tile,
and a tile that comes during a wait starts it again), in v2 and in the legacy protocol; a level
out of range is refused; --help lists every level.

Only lower bounds are checked (a bot may always be later than its pace on a loaded machine,
never earlier), so the test says what the bot does, not how fast the machine is.

    reference_bot_levels_test.py REFERENCE_BOT
"""
import os
import select
import subprocess
import sys
import tempfile
import time

WORDS = ["cat", "cats", "at", "scat"]


def read_move(bot, timeout=30.0):
    """The next move the bot sends (a peel to the end of its grid, or a dump), and when."""
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([bot.stdout], [], [], 0.05)
        if not ready:
            continue
        chunk = os.read(bot.stdout.fileno(), 65536)
        if not chunk:
            break
        data += chunk
        head = data[:1].lower()
        if head == b"p":
            start = 5 if data[:1] == b"P" else 1
            if len(data) >= start + 6:
                width, height = int(data[start:start + 3]), int(data[start + 3:start + 6])
                if len(data) >= start + 6 + width * height:
                    return data.decode(), time.monotonic()
        elif head == b"d" and len(data) >= 2:
            return data.decode(), time.monotonic()
    raise AssertionError("the bot sent %r and then no move for %.0f s" % (data, timeout))


def expect(bot, data):
    got = b""
    while len(got) < len(data):
        chunk = os.read(bot.stdout.fileno(), len(data) - len(got))
        if not chunk:
            break
        got += chunk
    assert got == data, "expected %r, got %r" % (data, got)


def start(bot_path, words, *args):
    return subprocess.Popen([bot_path, "--dict", words, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)


def send(bot, text):
    bot.stdin.write(text.encode())
    bot.stdin.flush()


def check_v2(bot_path, words):
    # Level 4: 1 s for its first grid, 0.25 s a tile after.
    bot = start(bot_path, words, "--level", "4")
    try:
        expect(bot, b"v004R")
        send(bot, "V0040102.")
        dealt = time.monotonic()
        send(bot, "H0000ACT.")
        move, at = read_move(bot)
        assert move.startswith("P0000"), move
        assert at - dealt >= 1.0, "first move %.3f s after the hand" % (at - dealt)
        # Its peel's tile and the ACK: the next peel waits 0.25 s from the tile.
        tiled = time.monotonic()
        send(bot, "P0001S0100.A0001.")
        move, at = read_move(bot)
        assert move.startswith("P0001"), move
        assert at - tiled >= 0.25, "next move %.3f s after its tile" % (at - tiled)
        # v004: after its E it stays; its next game starts afresh, numbered from 0000 and paced
        # as a first grid again.
        send(bot, "A0002.EW01020000.G0202.")
        expect(bot, b"R")
        dealt = time.monotonic()
        send(bot, "H0000ACT.")
        move, at = read_move(bot)
        assert move.startswith("P0000"), move
        assert at - dealt >= 1.0, "next game's first move %.3f s after its hand" % (at - dealt)
        send(bot, "A0001.EW01020000.B.")
        assert bot.wait(timeout=10) == 0, "it leaves at B."
    finally:
        bot.kill()
        bot.wait()

    # A tile during the first wait starts the wait again from it (and never shortens it).
    bot = start(bot_path, words, "--level", "4")
    try:
        expect(bot, b"v004R")
        send(bot, "V0040102.")
        dealt = time.monotonic()
        send(bot, "H0000ACT.")
        time.sleep(0.9)
        tiled = time.monotonic()
        send(bot, "P0001S0100.")
        move, at = read_move(bot)
        assert move.startswith("P0001"), move
        assert at - dealt >= 1.0 and at - tiled >= 0.25, \
            "move %.3f s after the hand, %.3f s after the tile" % (at - dealt, at - tiled)
    finally:
        bot.kill()
        bot.wait()


def check_legacy(bot_path, words):
    # Level 3: 3 s for its first grid; the legacy hand is its first letters (dialect v1).
    bot = start(bot_path, words, "--legacy", "--level", "3")
    try:
        expect(bot, b"r")
        dealt = time.monotonic()
        send(bot, "ACT.")
        move, at = read_move(bot)
        assert move.startswith("p"), move
        assert at - dealt >= 3.0, "first move %.3f s after the hand" % (at - dealt)
        tiled = time.monotonic()
        send(bot, "S.")
        move, at = read_move(bot)
        assert move.startswith("p"), move
        assert at - tiled >= 1.0, "next move %.3f s after its tile" % (at - tiled)
    finally:
        bot.kill()
        bot.wait()


def check_options(bot_path):
    for bad in ("0", "6", "x", "4.5", ""):
        run = subprocess.run([bot_path, "--level", bad], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL)
        assert run.returncode == 2, (bad, run.returncode)
        assert run.stderr == "reference_bot: --level must be a whole number from 1 to 5, not '%s'\n" % bad, run.stderr
    run = subprocess.run([bot_path, "--help"], capture_output=True, text=True)
    assert run.returncode == 0
    for level in range(1, 6):
        assert ("\n  %d  " % level) in run.stdout, run.stdout
    run = subprocess.run([bot_path, "--lvel", "3"], capture_output=True, text=True)
    assert run.returncode == 2 and "unknown option" in run.stderr, run.stderr


def main():
    bot_path = sys.argv[1]
    check_options(bot_path)
    with tempfile.TemporaryDirectory() as folder:
        words = os.path.join(folder, "words.txt")
        with open(words, "w") as f:
            f.write("\n".join(WORDS) + "\n")
        check_v2(bot_path, words)
        check_legacy(bot_path, words)
    print("reference bot levels: every pace held")


if __name__ == "__main__":
    main()
