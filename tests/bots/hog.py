#!/usr/bin/env python3
"""A legacy player that takes more than its share of the machine, for the tests of the players'
cgroups (tests/shares_test.cpp). It says r, takes its hand, and then, never peeling, does MODE;
what it measured goes to its stderr as "hog: ..." lines, which the host passes on.

    hog.py spin SECONDS [--after S]      spin one process for SECONDS (from S seconds after the
                                         hand) and report its share of a core: "share: 0.950"
    hog.py spin --between GO STOP        spin until the file STOP exists and report its share of
                                         a core from when the file GO exists until then; then
                                         become a process with the argument STOP.reported (the
                                         test counts them), wait for the file STOP.leave, and
                                         exit
    hog.py spinners N SECONDS [--setsid] N children spin for SECONDS, each in a session of its
                                         own with --setsid (an autogroup of its own); it
                                         reports the sum of their shares: "share: 1.900"
    hog.py spinners N --between GO STOP [--setsid]
                                         the same, measured between GO and STOP; then as spin
    hog.py memory N MIB                  N children each touch MIB MiB and hold them:
                                         "touched: I" for each that could; once all six have
                                         (and only then), it exits
    hog.py bomb MAX                      fork children and start threads (all of them sleep)
                                         until the kernel refuses or MAX are running:
                                         "tasks: K" (K of its own at once, itself included);
                                         then it exits
    hog.py affinity                      before it is ready: report its CPUs, try to take every
                                         CPU, report again ("cpus: 0", "widened: 0"); once it
                                         has its hand, it exits
    hog.py sleep SECONDS [--tag TAG]     hold its hand and sleep (argument TAG, for finding it)
    hog.py play-after PATH               an honest staircase player (legal under a list of every
                                         two-letter string) that starts peeling once PATH exists

Where it does not exit, it sleeps until the host ends the game and stops it.
"""
import os
import select
import sys
import threading
import time

from staircase import staircase

args = sys.argv[1:]
mode = args[0]


def report(text):
    os.write(2, ("hog: " + text + "\n").encode())


hand = []


def receive():
    """Adds the tiles of the host's next messages (legacy, each ending in '.') to the hand;
    False at the end of its input."""
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


def take_hand():
    os.write(1, b"r")
    receive()


def spin(seconds):
    """Spins for `seconds` of wall time; the share of a core it got."""
    start_cpu, start = time.process_time(), time.monotonic()
    while time.monotonic() - start < seconds:
        pass
    return (time.process_time() - start_cpu) / (time.monotonic() - start)


def spin_between(go, stop):
    """Spins until the file `stop` exists; the share of a core it got from when the file `go`
    existed. The files are looked for every 10 ms."""
    start_cpu = start = None
    looked = time.monotonic()
    while True:
        now = time.monotonic()
        if now - looked < 0.01:
            continue
        looked = now
        if start is None and os.path.exists(go):
            start_cpu, start = time.process_time(), time.monotonic()
        if os.path.exists(stop):
            if start is None:
                report("error: " + stop + " came before " + go)
                return 0.0
            return (time.process_time() - start_cpu) / (time.monotonic() - start)


between = None  # the files GO and STOP of --between
if "--between" in args:
    at = args.index("--between")
    between = args[at + 1:at + 3]


def measured_spin(seconds):
    return spin_between(*between) if between else spin(float(seconds))


def leave_when_told():
    """After a report --between GO STOP: says so (the test finds the processes with the argument
    STOP.reported; it cannot see a file of the sandbox's), waits for the file STOP.leave, and
    exits. Whoever leaves first could end the game (the last player standing) before the others
    have reported: the test lets them go once all have."""
    stop = between[1]
    os.execv(sys.executable, [sys.executable, __file__, "leave-when", stop + ".leave",
                              stop + ".reported"])


def hold():
    time.sleep(3600)


if mode == "leave-when":  # what leave_when_told() becomes
    while not os.path.exists(args[1]):
        time.sleep(0.01)
    sys.exit(0)
if mode == "affinity":  # before it is ready: its report comes before any game can end
    report("cpus: " + ",".join(str(c) for c in sorted(os.sched_getaffinity(0))))
    try:
        os.sched_setaffinity(0, range(os.cpu_count() or 1))
    except OSError as e:
        report("setaffinity refused: " + e.strerror)
    report("widened: " + ",".join(str(c) for c in sorted(os.sched_getaffinity(0))))
take_hand()
if mode == "spin":
    if "--after" in args:
        time.sleep(float(args[args.index("--after") + 1]))
    report("share: %.3f" % measured_spin(args[1]))
    if between:
        leave_when_told()
elif mode == "spinners":
    shares, measured = os.pipe()
    for _ in range(int(args[1])):
        if os.fork() == 0:
            if "--setsid" in args:
                os.setsid()
            os.write(measured, b"%.6f\n" % measured_spin(args[2]))
            os._exit(0)
    os.close(measured)
    with os.fdopen(shares) as lines:
        report("share: %.3f" % sum(float(line) for line in lines))
    if between:
        leave_when_told()
elif mode == "memory":
    done, touched = os.pipe()
    for i in range(int(args[1])):
        if os.fork() == 0:
            try:
                block = bytearray(int(args[2]) << 20)
                for at in range(0, len(block), 4096):
                    block[at] = 1
                report("touched: %d" % i)
            except MemoryError:
                report("refused: %d" % i)
            os.write(touched, b"!")
            hold()
    # Every child has its memory (or was refused it): the player leaves, and the game goes on.
    for _ in range(int(args[1])):
        os.read(done, 1)
    sys.exit(0)
elif mode == "play-after":
    while not os.path.exists(args[1]):
        time.sleep(0.01)
    os.write(1, ("p" + staircase(hand)).encode())
    while receive():
        while select.select([0], [], [], 0)[0]:
            if not receive():
                sys.exit(0)
        os.write(1, ("p" + staircase(hand)).encode())
    sys.exit(0)
elif mode == "bomb":
    limit = int(args[1])
    tasks = 1
    while tasks < limit:
        try:
            if tasks % 2:
                pid = os.fork()
                if pid == 0:
                    hold()
            else:
                threading.Thread(target=hold, daemon=True).start()
        except (OSError, RuntimeError):
            break
        tasks += 1
    report("tasks: %d" % tasks)
    sys.exit(0)  # its game goes on without it; what it started is ended with it
elif mode == "affinity":
    sys.exit(0)
elif mode == "sleep":
    pass
hold()
