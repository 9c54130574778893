#!/usr/bin/env python3
"""The shape the code keeps (docs/architecture.md): no function of the engine's and the programs'
folders is longer than 100 lines, as Universal Ctags counts them (each function's first and last
line); no source file of arena/ is longer than 500 lines, nor any class there longer than 300
(its definition and the definitions of its members, wherever they are); the arena's core
(arena/core/) includes nothing of the loop, sockets, databases or files; nothing in tournament/
includes a header of host/ (the program), whose engine is match/'s;
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
# The arena's files and classes (issue 54: its server was one class of 750 lines).
ARENA_FILE, ARENA_CLASS = 500, 300


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


def arena_sizes(source):
    """Findings: arena/ files over ARENA_FILE lines, classes over ARENA_CLASS (a class's own
    lines, and its members' definitions out of it)."""
    found = []
    for root, _, files in os.walk(os.path.join(source, "arena")):
        for name in files:
            if name.endswith((".cpp", ".hpp")):
                path = os.path.join(root, name)
                with open(path) as f:
                    lines = sum(1 for _ in f)
                if lines > ARENA_FILE:
                    found.append("%s: %d lines" % (os.path.relpath(path, source), lines))
    run = subprocess.run(
        ["ctags", "--languages=C++", "--fields=+nesZ", "--kinds-c++=fcs", "-x",
         "--_xformat=%K|%N|%F|%n|%e|%{scope}", "-R", "arena"],
        cwd=source, capture_output=True, text=True, check=True)
    classes, members = {}, {}
    for line in run.stdout.splitlines():
        kind, name, path, first, last, scope = line.split("|", 5)
        if not last.isdigit():
            continue
        length = int(last) - int(first) + 1
        if kind in ("class", "struct"):
            key = scope + "::" + name if scope else name
            classes[key] = (path, int(first), length)
        elif kind == "function" and scope:
            members.setdefault(scope, []).append((path, int(first), int(last)))
    for key, (path, first, length) in classes.items():
        # Its members defined out of its body count too; those within it are in its length.
        outside = sum(last - start + 1 for (p, start, last) in members.get(key, [])
                      if not (p == path and first <= start <= first + length - 1))
        if length + outside > ARENA_CLASS:
            found.append("%s:%d: class %s is %d lines with its members" %
                         (path, first, key.split("::")[-1], length + outside))
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
    problems = long_functions(source) + arena_sizes(source)
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
    # The arena's core is pure, as the referee is: no loop, socket, database or file of its own.
    pure = ("arena/core/", "core/", "stats/", "record/result.hpp", "record/json_value.hpp")
    for path, number, header in includes(source, os.path.join("arena", "core")):
        if not header.startswith(pure):
            problems.append("%s:%d: includes %s: the arena's core is pure" % (path, number, header))
    for root, _, files in os.walk(os.path.join(source, "arena", "core")):
        for name in files:
            with open(os.path.join(root, name)) as f:
                for number, line in enumerate(f, 1):
                    if re.match(r"\s*#\s*include\s+<(uv\.h|SQLiteCpp|libwebsockets|sqlite3)", line):
                        problems.append("%s:%d: %s: the arena's core is pure" % (
                            os.path.relpath(os.path.join(root, name), source), number,
                            line.strip()))
    for path, number, header in includes(source, "serve"):
        if header.startswith("remote/"):
            problems.append("%s:%d: includes %s: the server knows no seat" %
                            (path, number, header))
    for problem in problems:
        print(problem)
    if problems:
        sys.exit("code shape: %d finding%s" % (len(problems), "" if len(problems) == 1 else "s"))
    print("code shape: every function of %s is %d lines or fewer; arena/'s files %d and its "
          "classes %d or fewer, its core pure; tournament/ includes nothing of host/; the match, the "
          "table and the referee know seats only; serve/ knows none" %
          (", ".join(FOLDERS), LONGEST, ARENA_FILE, ARENA_CLASS))


if __name__ == "__main__":
    main()
