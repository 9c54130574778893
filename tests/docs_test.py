#!/usr/bin/env python3
"""The documents say what the programs do, where a reader meets it first:

    docs_test.py SOURCE_DIR BUILD_DIR

- Every list of the protocol's versions in the README, protocol-v2.md and docs/*.md (two or
  more of them, joined by commas, "and" or "or", across line breaks and in tables) names every
  version the host speaks, from `v002` to the newest (core/events.hpp's protocol_newest).
- The checks host --check makes, by the bot's protocol, on this machine and over a remote seat,
  are the figures docs/host.md's table gives, and the counts write-a-bot.md and remote.md say:
  each is played here, with tests/bots/checker_bot.py (ok) in the legacy protocol, v002 and
  v004, started by the host and connecting through bananagrams-connect.
"""
import glob
import os
import re
import subprocess
import sys

source, build = sys.argv[1:3]
host = os.path.join(build, "host")
connect = os.path.join(build, "connect")


def check(condition, what):
    if not condition:
        sys.exit("docs_test: " + what)


def read(path):
    with open(os.path.join(source, path)) as f:
        return f.read()


# ---- the protocol's versions ----
events = read("core/events.hpp")
newest = re.search(r"protocol_newest = protocol_v(\d+);", events)
check(newest, "no protocol_newest in core/events.hpp")
versions = ["`v%03d`" % n for n in range(2, int(newest.group(1)) + 1)]
run = re.compile(r"`v\d{3}`(?:(?:,| and|, and| or|, or)\s+`v\d{3}`)+")
documents = ["README.md", "protocol-v2.md"] + sorted(
    os.path.relpath(p, source) for p in glob.glob(os.path.join(source, "docs", "*.md")))
lists = 0
for path in documents:
    # A list broken over lines (and a table cell's) reads as one line.
    text = re.sub(r"\s*\n\s*", " ", read(path))
    for found in run.finditer(text):
        named = re.findall(r"`v\d{3}`", found.group(0))
        if "`v000`" in named or "`v001`" in named:
            continue  # the versions a v2 handshake may not ask for
        lists += 1
        check(named == versions, "%s lists the versions as %s, not %s" % (
            path, found.group(0), ", ".join(versions)))
check(lists >= 5, "only %d lists of the versions found" % lists)

# ---- the checker's checks, by protocol ----
bot = os.path.join(source, "tests", "bots", "checker_bot.py")


def counted(output):
    found = re.search(r"(\d+) of (\d+) checks passed", output)
    check(found and found.group(1) == found.group(2), "not every check passed: " + output)
    return int(found.group(2))


def on_this_machine(protocol):
    run_ = subprocess.run([host, "--check", "exec python3 %s ok %s" % (bot, protocol)],
                          capture_output=True, text=True, timeout=120)
    return counted(run_.stdout)


def over_a_seat(protocol):
    checker = subprocess.Popen([host, "--check", "--serve", "127.0.0.1:0", "remote:"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = checker.stderr.readline()
    url = re.search(r"connects to (ws://\S+)", line)
    check(url, "no seat said: " + line)
    bot_run = subprocess.run([connect, "--games", "0", "--retry", "10", url.group(1), "--",
                              "exec python3 %s ok %s" % (bot, protocol)],
                             capture_output=True, text=True, timeout=180)
    out, _ = checker.communicate(timeout=60)
    check(bot_run.returncode == 0, "connect: " + bot_run.stderr)
    return counted(out)


table = re.search(r"\| legacy, or v2 before `v004` \| (\d+) \| (\d+) \|\n"
                  r"\| `v004` \(taken across two games on this machine\) \| (\d+) \| (\d+) \|",
                  read("docs/host.md"))
check(table, "docs/host.md has no table of the checker's checks")
said = {"legacy": (int(table.group(1)), int(table.group(2))),
        "v2": (int(table.group(1)), int(table.group(2))),
        "v4": (int(table.group(3)), int(table.group(4)))}
for protocol, (local, remote) in said.items():
    measured = (on_this_machine(protocol), over_a_seat(protocol))
    check(measured == (local, remote), "%s: host.md says %s checks, the checker makes %s"
          % (protocol, (local, remote), measured))
write_a_bot = read("docs/write-a-bot.md")
check("`%d of %d checks passed. It is ready to play.`" % (said["v2"][0], said["v2"][0])
      in write_a_bot and "v004` is checked across two games: %d of %d" % (said["v4"][0],
                                                                         said["v4"][0])
      in re.sub(r"\s+", " ", write_a_bot), "write-a-bot.md's counts of checks")
check("(%d checks: how its processes end" % said["v2"][1] in re.sub(r"\s+", " ", write_a_bot),
      "write-a-bot.md's count of checks over a seat")
remote_doc = re.sub(r"\s+", " ", read("docs/remote.md"))
check(said["v2"][1] == said["v4"][1] and "remotely passes %d checks, whatever its version, and "
      "one checked on the host's machine %d (%d if it asks for `v004`)" % (
          said["v2"][1], said["v2"][0], said["v4"][0]) in remote_doc,
      "remote.md's counts of checks")
print("docs_test: all passed")
