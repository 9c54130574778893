#!/usr/bin/env python3
"""The shape the code keeps (docs/architecture.md): no function of the engine's and the programs'
folders is longer than 100 lines, as Universal Ctags counts them (each function's first and last
line); nothing in tournament/ includes a header of host/ (the program), whose engine is match/'s;
the Match, the Table and the Referee know no kind of seat (no header of transport/ but seat.hpp
and the owned handles, nothing of remote/); and serve/ knows nothing of seats (no header of
remote/: the remote seats' connections are a service it is given). Each finding is named with its file and line.

    code_shape_test.py SOURCE_DIR
"""
import os
import re
import subprocess
import sys

# Every folder of the product: the engine's, the programs' and the bundled players'.
FOLDERS = ["core", "compat", "protocol", "record", "referee", "cgroups", "transport", "serve",
           "remote", "match", "cli", "host", "tournament", "checker", "connect", "viewer", "stats", "arena",
           "wordlist", "players"]
LONGEST = 100


def long_functions(source):
    run = subprocess.run(
        ["ctags", "--languages=C++", "--fields=+ne", "--kinds-c++=f", "-x",
         "--_xformat=%N|%F|%n|%e", "-R"] + FOLDERS,
        cwd=source, capture_output=True, text=True, check=True)
    found = []
    for line in run.stdout.splitlines():
        name, path, first, last = line.rsplit("|", 3)
        if not last.isdigit():
            continue
        length = int(last) - int(first) + 1
        if length > LONGEST:
            found.append("%s:%s: %s is %d lines" % (path, first, name, length))
    return found


def includes(source, folder):
    """(file, line, header) for every #include "..." of the folder's files."""
    found = []
    for root, _, files in os.walk(os.path.join(source, folder)):
        for name in files:
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(root, name)
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if match:
                        found.append((os.path.relpath(path, source), number, match.group(1)))
    return found


def main():
    source = sys.argv[1]
    problems = long_functions(source)
    for path, number, header in includes(source, "tournament"):
        if header.startswith("host/"):
            problems.append("%s:%d: includes %s, the host program's" % (path, number, header))
    # The match and the referee talk to seats through their interface alone.
    allowed = {"transport/seat.hpp", "transport/handles.hpp"}
    seat_blind = [found for found in includes(source, "match")
                  if found[0] in ("match/match.hpp", "match/match.cpp", "match/table.hpp",
                                  "match/table.cpp")]
    seat_blind += includes(source, "referee")
    for path, number, header in seat_blind:
        if (header.startswith("transport/") and header not in allowed) or \
                header.startswith("remote/"):
            problems.append("%s:%d: includes %s: a match knows seats, not their kinds" %
                            (path, number, header))
    for path, number, header in includes(source, "serve"):
        if header.startswith("remote/"):
            problems.append("%s:%d: includes %s: the server knows no seat" %
                            (path, number, header))
    for problem in problems:
        print(problem)
    if problems:
        sys.exit("code shape: %d finding%s" % (len(problems), "" if len(problems) == 1 else "s"))
    print("code shape: every function of %s is %d lines or fewer; tournament/ includes nothing "
          "of host/; the match, the table and the referee know seats only; serve/ knows none" % (", ".join(FOLDERS), LONGEST))


if __name__ == "__main__":
    main()
