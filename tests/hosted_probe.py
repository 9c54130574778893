#!/usr/bin/env python3
"""A hosted bot that tries what a hostile one would (tests/arena_hosted_test.py), says on stderr
what it could not do ("refused ...") or could ("ALLOWED ..."), then plays as the example player.
The test writes the arena's port, its database and another bot's folder in for ARENA_PORT,
ARENA_DB and OTHER_FOLDER."""
import os
import socket
import sys
import time


def said(allowed, what, how=""):
    print("%s %s%s" % ("ALLOWED" if allowed else "refused", what, ": " + how if how else ""),
          file=sys.stderr, flush=True)


def attempt(what, action):
    """`action` returns whether it got what it wanted; an error is a refusal."""
    try:
        said(action(), what)
    except Exception as e:  # noqa: BLE001 - any failure is the sandbox's refusal
        said(False, what, type(e).__name__)


def network():
    socket.create_connection(("127.0.0.1", PORT), timeout=2).close()
    return True


def database():
    with open("ARENA_DB", "rb") as f:
        return f.read(16).startswith(b"SQLite format 3")


def others():
    """Another hosted bot's folder, or any beside its own."""
    beside = [n for n in os.listdir(os.path.dirname(os.getcwd()))
              if n != os.path.basename(os.getcwd())]
    return bool(beside) or bool(os.listdir("OTHER_FOLDER"))


def own_files():
    with open("written-by-the-bot", "w") as f:
        f.write("x")
    return True


def scratch():
    """Fills /tmp: allowed only past 64 MiB (the sandbox's --tmp-mib)."""
    written = 0
    try:
        with open("/tmp/fill", "wb") as f:
            while written < (256 << 20):
                f.write(bytes(1 << 20))
                written += 1 << 20
    finally:
        if os.path.exists("/tmp/fill"):
            os.remove("/tmp/fill")
    return written > (64 << 20)


def stale():
    """A file another game's process left in /tmp: allowed only if it is there."""
    there = os.path.exists("/tmp/left-by-an-earlier-game")
    with open("/tmp/left-by-an-earlier-game", "w") as f:
        f.write("x")
    return there


def processes():
    """Children without end: allowed only past 200 of them."""
    children = 0
    try:
        while children < 200:
            pid = os.fork()
            if pid == 0:
                time.sleep(3)
                os._exit(0)
            children += 1
    except OSError:
        pass
    return children >= 200


PORT = int("ARENA_PORT")
attempt("network", network)
attempt("database", database)
attempt("another bot's files", others)
attempt("its own files", own_files)
attempt("scratch", scratch)
attempt("stale scratch", stale)
attempt("processes", processes)
print("probe done", file=sys.stderr, flush=True)
os.execvp(sys.executable, [sys.executable, "example_player.py"])
