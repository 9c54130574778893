#!/usr/bin/env python3
"""A legacy player that takes more than its share of the machine, for the tests of the players'
cgroups (tests/shares_test.cpp). It says r, takes its hand, and then, never peeling, does MODE;
what it measured goes to its stderr as "hog: ..." lines, which the host passes on.

    hog.py spin SECONDS [--after S]      spin one process for SECONDS (from S seconds after the
                                         hand) and report its share of a core: "share: 0.950"
    hog.py spinners N SECONDS [--setsid] N children spin for SECONDS, each in a session of its
                                         own with --setsid (an autogroup of its own)
    hog.py memory N MIB                  N children each touch MIB MiB and hold them:
                                         "touched: I" for each that could
    hog.py bomb MAX                      fork children and start threads (all of them sleep)
                                         until the kernel refuses or MAX are running:
                                         "tasks: K" (K of its own at once, itself included)
    hog.py affinity                      report its CPUs, try to take every CPU, report again:
                                         "cpus: 0" and "widened: 0"
    hog.py sleep SECONDS [--tag TAG]     hold its hand and sleep (argument TAG, for finding it)

Then it sleeps until the host ends the game (its timeout) and stops it.
"""
import os
import select
import sys
import threading
import time

args = sys.argv[1:]
mode = args[0]


def report(text):
    os.write(2, ("hog: " + text + "\n").encode())


def take_hand():
    os.write(1, b"r")
    select.select([0], [], [], 30)
    os.read(0, 65536)


def spin(seconds):
    """Spins for `seconds` of wall time; the share of a core it got."""
    start_cpu, start = time.process_time(), time.monotonic()
    while time.monotonic() - start < seconds:
        pass
    return (time.process_time() - start_cpu) / (time.monotonic() - start)


def hold():
    time.sleep(3600)


take_hand()
if mode == "spin":
    if "--after" in args:
        time.sleep(float(args[args.index("--after") + 1]))
    report("share: %.3f" % spin(float(args[1])))
elif mode == "spinners":
    for _ in range(int(args[1])):
        if os.fork() == 0:
            if "--setsid" in args:
                os.setsid()
            spin(float(args[2]))
            hold()
elif mode == "memory":
    for i in range(int(args[1])):
        if os.fork() == 0:
            block = bytearray(int(args[2]) << 20)
            for at in range(0, len(block), 4096):
                block[at] = 1
            report("touched: %d" % i)
            hold()
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
elif mode == "affinity":
    report("cpus: " + ",".join(str(c) for c in sorted(os.sched_getaffinity(0))))
    try:
        os.sched_setaffinity(0, range(os.cpu_count() or 1))
    except OSError as e:
        report("setaffinity refused: " + e.strerror)
    report("widened: " + ",".join(str(c) for c in sorted(os.sched_getaffinity(0))))
elif mode == "sleep":
    pass
hold()
