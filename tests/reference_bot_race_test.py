#!/usr/bin/env python3
"""The legacy reference bot after a dump, against a fake host that sends three peel tiles and
then, 20 ms later, the dump's answer (dialect v1: every message ends with '.').

A bot that takes the first three letters after its dump for the answer builds a grid without the
answer's tiles; the host then had to judge that grid (it is stale now; it was once a
disqualification). The fixed bot tells the answer, one message of three letters, from the single
letters of peels, and its first peel holds every tile it was sent.

    reference_bot_race_test.py REFERENCE_BOT
"""
import os
import select
import subprocess
import sys
import tempfile
import time

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY"  # no Z: a Z can only be dumped


def read_message(bot, timeout=10.0):
    """Bytes the bot sends within `timeout`: a peel is read to the end of its grid."""
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([bot.stdout], [], [], 0.1)
        if ready:
            chunk = os.read(bot.stdout.fileno(), 65536)
            if not chunk:
                break
            data += chunk
            if data[:1] == b"p" and len(data) >= 7:
                width, height = int(data[1:4]), int(data[4:7])
                if len(data) >= 7 + width * height:
                    return data.decode()
            elif data[:1] in (b"r", b"d") and len(data) >= (1 if data[:1] == b"r" else 2):
                return data.decode()
    raise AssertionError("the bot sent %r and then nothing for %.0f s" % (data, timeout))


def main():
    with tempfile.TemporaryDirectory() as folder:
        words = os.path.join(folder, "words.txt")
        with open(words, "w") as f:
            f.write("".join(a + b + "\n" for a in LETTERS for b in LETTERS))
        for attempt in range(5):  # the race is the same every time; five to be sure
            bot = subprocess.Popen([sys.argv[1], "--legacy", "--dict", words],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            try:
                assert read_message(bot) == "r"
                bot.stdin.write(b"ABCDZ.")
                bot.stdin.flush()
                assert read_message(bot) == "dZ", "the bot should dump its Z"
                bot.stdin.write(b"E.E.I.")  # three peels' tiles, on their way before the answer
                bot.stdin.flush()
                time.sleep(0.02)
                bot.stdin.write(b"FGH.")  # the dump's answer
                bot.stdin.flush()
                peel = read_message(bot)
                tiles = "".join(sorted(c for c in peel[7:] if c != "."))
                assert tiles == "ABCDEEFGHI", (
                    "attempt %d: the first peel after the dump holds %s, not every tile sent "
                    "(ABCDEEFGHI): it took peel tiles for the dump's answer" % (attempt, tiles))
            finally:
                bot.kill()
                bot.wait()
    print("ok: the legacy reference bot waits for its dump's answer past peel tiles")


if __name__ == "__main__":
    main()
