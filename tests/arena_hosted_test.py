#!/usr/bin/env python3
"""Hosted bots, end to end (docs/arena.md, "Hosting a bot"):

    arena_hosted_test.py BUILD_DIR SOURCE_DIR

An arena with two house bots (the reference bot, full strength and level 3) hosts bots whose
authors submit their code with `arena bot submit` (a Python bot, the C++ example's binary, a
probe that tries what a hostile bot would) or by POST /api/bots/NAME/versions (the JavaScript
example on Node.js, the Go example's binary):

- Each version is checked in the sandbox, then plays rated matches against the house bots, its
  games' logs and its own stderr downloadable by its author with the bot's token only; a second
  version takes the first's place (the first's state "retired", its rated matches kept).
- A version that fails its check (it speaks garbage and ignores SIGTERM) never plays, and its
  author reads why, with the checker's report.
- The probe, in every game it plays, finds no network, an empty database, no other bot's files,
  its own files read-only, its scratch (/tmp) bounded and new for each game, and its processes
  bounded; it says so on its stderr, which its author reads.
- Every hostile archive is refused with its status and kind (a symbolic link, a hard link, an
  absolute path, "..", a device, a setuid bit, a bomb, too many entries, not an archive, no
  manifest, a bad one, too large), as are a wrong token, another bot's, a person's code, no token,
  a wrong Content-Type and a submission past the bot's submissions a day (429, Retry-After).
- Restarted, the arena plays the versions that passed again, and `arena rerate` agrees.
"""
import io
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_support import ArenaRun  # noqa: E402

t = ArenaRun("arena_hosted_test", sys.argv[1], parent=os.path.abspath(sys.argv[1]))
source = os.path.abspath(sys.argv[2])
build, work, arena = t.build, t.work, t.arena
reference = os.path.join(build, "reference_bot")
check, run, said, api = t.check, t.run, t.said, t.api
hosted_dir = os.path.join(work, "hosted")
logs = os.path.join(work, "logs")


def archive(files, manifest=None, gzipped=True, extra=None):
    """A tar archive (gzipped) of `files` (name: bytes, or (bytes, mode)) with `manifest`."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz" if gzipped else "w") as tar:
        if manifest is not None:
            files = dict(files, **{"bananagrams.json": json.dumps(manifest).encode()})
        for name, content in files.items():
            content, mode = content if isinstance(content, tuple) else (content, 0o644)
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(content), mode
            tar.addfile(info, io.BytesIO(content))
        for info in extra or []:
            tar.addfile(info)
    return data.getvalue()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def post(name, body, token=None, content_type="application/gzip"):
    """POST /api/bots/NAME/versions: (status, document, Retry-After)."""
    request = urllib.request.Request("http://127.0.0.1:%d/api/bots/%s/versions" % (port, name),
                                     data=body, method="POST")
    request.add_header("Content-Type", content_type)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.loads(r.read()), r.headers.get("Retry-After")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}"), e.headers.get("Retry-After")


def owned(path, token):
    """GET what only a bot's author reads: (status, body bytes)."""
    request = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path))
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def submit(name, token_file, body):
    """arena bot submit: its exit status and output."""
    path = os.path.join(work, name + ".tar.gz")
    with open(path, "wb") as f:
        f.write(body)
    done = subprocess.run([arena, "bot", "submit", "--token-file", token_file,
                           "http://127.0.0.1:%d/bots/%s" % (port, name), path],
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def versions(name, token):
    status, body = owned("/api/bots/%s/hosted" % name, token)
    check(status == 200, "GET /api/bots/%s/hosted: %s %s" % (name, status, body[:300]))
    return {v["version"]: v for v in json.loads(body)["versions"]}


def rated_matches(name, label):
    for v in api("/api/bots/" + name)["versions"]:
        if v["version"] == label:
            return [m["match"] for m in v["matches"]]
    return []


example = {"example_player.py": read(os.path.join(source, "players", "example_player.py")),
           "example_grids.py": read(os.path.join(source, "players", "example_grids.py"))}
py_manifest = {"command": "python3 example_player.py", "protocol": "v1"}

try:
    run("bot", "add", "H5", "--command", reference, "--anchor", "25")
    run("bot", "add", "H3", "--command", reference + " --level 3")
    person_code = run("person", "add", "kim").splitlines()[-1]
    tokens = {name: run("bot", "add", name).splitlines()[-1]
              for name in ("pybot", "cbot", "probe", "badbot", "other", "jsbot", "gobot")}
    token_files = {name: t.token_file(name, token) for name, token in tokens.items()}
    served = t.serve("--hosted", hosted_dir, "--logs", logs, "--max-wait", "1", "--max-players",
                     "2", "--submissions-a-day", "2", "--archive-limit", "2", "--unpacked-limit",
                     "8", "--archive-entries", "200", "--cores", "2")
    port = served.port

    # ---- submitted: a Python bot, a binary, a probe, a bot that fails its check ----
    status, out, err = submit("pybot", token_files["pybot"],
                              archive(example, dict(py_manifest, label="py-1")))
    check(status == 0, "bot submit: %s %s" % (out, err))
    answer = json.loads(out)
    check(answer["version"] == "py-1" and answer["state"] == "checking" and
          re.fullmatch(r"[0-9a-f]{64}", answer["sha256"]), "the answer: %s" % answer)
    binary = read(os.path.join(build, "example_player_cpp"))
    status, out, err = submit("cbot", token_files["cbot"], archive(
        {"bot": (binary, 0o755)}, {"command": "./bot", "protocol": "v1", "label": "c-1"}))
    check(status == 0, "bot submit of the binary: %s %s" % (out, err))
    probe = read(os.path.join(source, "tests", "hosted_probe.py")).replace(
        b"ARENA_PORT", str(port).encode()).replace(b"ARENA_DB", t.db.encode()).replace(
        b"OTHER_FOLDER", os.path.join(hosted_dir, answer["sha256"]).encode())
    status, document, _ = post("probe", archive(
        dict(example, **{"probe.py": probe}), {"command": "python3 probe.py", "label": "probe-1"}),
        tokens["probe"])
    check(status == 202, "the probe's submission: %s %s" % (status, document))
    status, document, _ = post("badbot", archive(
        {}, {"command": "trap '' TERM; printf Z; exec sleep 1000", "label": "bad-1"}),
        tokens["badbot"])
    check(status == 202, "badbot's submission: %s %s" % (status, document))

    # The other runtimes a hosted bot may use: Node.js, and a Go binary.
    for name, files, command in (
            ("jsbot", {"example_player.js": read(os.path.join(source, "players",
                                                             "example_player.js"))},
             "node example_player.js"),
            ("gobot", {"bot": (read(os.path.join(build, "example_player_go")), 0o755)},
             "./bot")):
        status, document, _ = post(name, archive(files, {"command": command, "protocol": "v1",
                                                         "label": name + "-1"}), tokens[name])
        check(status == 202, "%s's submission: %s %s" % (name, status, document))

    # ---- hostile archives and requests: each refused, nothing kept ----
    def link(name, target, kind=tarfile.SYMTYPE):
        info = tarfile.TarInfo(name)
        info.type, info.linkname = kind, target
        return info

    def special(name, kind=tarfile.CHRTYPE):
        info = tarfile.TarInfo(name)
        info.type, info.devmajor, info.devminor = kind, 1, 3
        return info

    ok_manifest = dict(py_manifest, label="hostile")
    hostile = {
        "a symbolic link out": (archive(example, ok_manifest, extra=[link("db", t.db)]),
                                400, "archive-entry"),
        "a hard link": (archive(example, ok_manifest,
                                extra=[link("h", "example_player.py", tarfile.LNKTYPE)]),
                        400, "archive-entry"),
        "an absolute path": (archive(dict(example, **{"/etc/evil": b"x"}), ok_manifest),
                             400, "archive-path"),
        "a '..' path": (archive(dict(example, **{"../evil": b"x"}), ok_manifest),
                        400, "archive-path"),
        "a device": (archive(example, ok_manifest, extra=[special("null")]),
                     400, "archive-entry"),
        "a setuid bit": (archive(dict(example, **{"run": (b"#!/bin/sh\n", 0o4755)}),
                                 ok_manifest), 400, "archive-entry"),
        "a bomb": (archive({"zeros": bytes(64 << 20)}, ok_manifest), 413,
                   "archive-unpacks-too-large"),
        "too many entries": (archive({"f%d" % i: b"" for i in range(300)}, ok_manifest), 413,
                             "archive-too-many-entries"),
        "not an archive": (b"this is not a tar file" * 10, 415, "not-an-archive"),
        "no manifest": (archive(example), 400, "archive-manifest"),
        "a manifest of another shape": (archive(example, {"command": "x", "cmd": "y"}), 400,
                                        "archive-manifest"),
    }
    for what, (body, status_wanted, kind) in hostile.items():
        status, document, _ = post("other", body, tokens["other"])
        check(status == status_wanted and document.get("kind") == kind and document.get("error"),
              "%s: %s %s (wanted %s %s)" % (what, status, document, status_wanted, kind))
    # Past --archive-limit: answered from its headers, before a byte of it is read.
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(("POST /api/bots/other/versions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                   "%s\r\nContent-Type: application/gzip\r\nContent-Length: %d\r\n\r\n"
                   % (tokens["other"], 5 << 19)).encode())
        answered = s.recv(4096).decode(errors="replace")
    check(answered.startswith("HTTP/1.1 413"), "an archive past --archive-limit: %s" % answered)
    refusals = [("no token", "other", None, "application/gzip", 401),
                ("a wrong token", "other", "x" * 32, "application/gzip", 401),
                ("another bot's token", "other", tokens["pybot"], "application/gzip", 403),
                ("a person's code", "kim", person_code, "application/gzip", 403),
                ("a house bot, with a bot's token", "H3", tokens["other"], "application/gzip",
                 403),
                ("a wrong Content-Type", "other", tokens["other"], "text/plain", 415)]
    for what, name, token, content_type, status_wanted in refusals:
        status, document, _ = post(name, archive(example, ok_manifest), token, content_type)
        check(status == status_wanted and document.get("error"),
              "%s: %s %s (wanted %s)" % (what, status, document, status_wanted))
    # bot submit says the arena's refusal, and exits 1. (The arena answers from the headers and
    # closes with the body unread: where the kernel resets the connection before the answer is
    # read, bot submit can only say it closed: a known race, in the closing note of issue 57.)
    status, out, err = submit("other", token_files["pybot"], archive(example, ok_manifest))
    check(status == 1 and not out and ("HTTP 403: this token is not other's" in err or
                                       "the connection closed before the answer" in err),
          "bot submit with another's token: %s %r %r" % (status, out, err))
    check(versions("other", tokens["other"]) == {}, "a refused archive was kept")
    check(not any(n.startswith(".incoming") for n in os.listdir(hosted_dir)),
          "an incoming folder was left: %s" % os.listdir(hosted_dir))

    # ---- checked: the three pass and play; badbot fails, and its author reads why ----
    t.wait_until(lambda: all(re.search(r"%s's version \S+ (passed|failed) its check" % name,
                                       said()) for name in ("pybot", "cbot", "probe", "badbot",
                                                            "jsbot", "gobot")),
                 240, "every version's check")
    bad = versions("badbot", tokens["badbot"])["bad-1"]
    check(bad["state"] == "failed" and bad["why"] and "checks passed" in bad["report"],
          "badbot's version: %s" % bad)
    for name, label in (("pybot", "py-1"), ("cbot", "c-1"), ("probe", "probe-1"),
                        ("jsbot", "jsbot-1"), ("gobot", "gobot-1")):
        v = versions(name, tokens[name])[label]
        check(v["state"] == "playing" and v["checked"], "%s's version: %s" % (name, v))
    t.wait_until(lambda: all(rated_matches(n, label) for n, label in
                             (("pybot", "py-1"), ("cbot", "c-1"), ("probe", "probe-1"))),
                 420, lambda: "a rated match of each hosted version: %s" % api("/api/leaderboard"))

    # ---- a new version in place of the first; the day's submissions counted ----
    status, document, _ = post("pybot", archive(example, dict(py_manifest, label="py-1")),
                               tokens["pybot"])
    check(status == 409 and document["kind"] == "version-taken", "py-1 again: %s" % document)
    status, document, _ = post("pybot", archive(dict(example, **{"note": b"2"}),
                                                dict(py_manifest, label="py-2")),
                               tokens["pybot"])
    check(status == 202, "py-2: %s %s" % (status, document))
    status, document, retry = post("pybot", archive(example, dict(py_manifest, label="py-3")),
                                   tokens["pybot"])
    check(status == 429 and document["kind"] == "submissions-a-day" and retry and
          int(retry) > 80_000, "a third version in a day: %s %s %s" % (status, document, retry))
    t.wait_until(lambda: rated_matches("pybot", "py-2"), 300, "a rated match of py-2")
    mine = versions("pybot", tokens["pybot"])
    check(mine["py-1"]["state"] == "retired" and mine["py-2"]["state"] == "playing",
          "pybot's versions: %s" % mine)
    first_matches = rated_matches("pybot", "py-1")
    check(first_matches, "py-1's rated matches were lost")
    check(not rated_matches("badbot", "bad-1"), "badbot played")
    check(not re.search(r"match \d+ begins: .*badbot", said()), "badbot was seated")

    # ---- what anyone reads: its versions hosted, its races judged, the arena's limits ----
    check(all(v["hosted"] for v in api("/api/bots/pybot")["versions"]), "pybot's versions")
    games = api("/api/bots/cbot")["games"]
    check(games["fair_races"] + games["contended_races"] == games["games"] > 0 and
          games["round_trip_ms"] is None, "cbot's races: %s" % games)
    check(all(g["result"]["contended"] is not None
              for g in api("/api/matches/%d" % rated_matches("cbot", "c-1")[0])["games"]),
          "a hosted bot's match with its races not judged")
    hosting = api("/api/hosting")
    check(hosting["hosts"] and hosting["cores"] == 2 and
          hosting["limits"]["submissions_a_day"] == 2 and
          hosting["limits"]["archive_bytes"] == 2 << 20 and
          hosting["runtimes"]["python3"].startswith("Python 3"), "/api/hosting: %s" % hosting)

    # ---- the author's downloads, with the token only ----
    match = first_matches[0]
    for name, label, of in (("pybot", "py-1", match),
                            ("cbot", "c-1", rated_matches("cbot", "c-1")[0])):
        for rotation in (1, 2):
            status, log = owned("/api/bots/%s/games/%d-%d/log" % (name, of, rotation),
                                tokens[name])
            check(status == 200, "%s's game log: %s %s" % (label, status, log[:200]))
            start = json.loads(log.splitlines()[0])["start"]
            check("hosted:" + label in start["players"],
                  "the log's players: %s" % start["players"])
            check(hosted_dir not in log.decode(), "a hosted bot's folder in a log")
            status, _ = owned("/api/bots/%s/games/%d-%d/stderr" % (name, of, rotation),
                              tokens[name])
            check(status == 200, "%s's stderr in game %d: %s" % (label, rotation, status))
    for token, wanted in ((None, 401), ("x" * 32, 401), (tokens["cbot"], 403)):
        status, _ = owned("/api/bots/pybot/games/%d-1/log" % match, token)
        check(status == wanted, "another's download: %s (wanted %s)" % (status, wanted))
    status, _ = owned("/api/bots/pybot/games/%d-1/log" % rated_matches("cbot", "c-1")[0],
                      tokens["pybot"])
    check(status == 404 or rated_matches("cbot", "c-1")[0] in first_matches,
          "a game pybot did not play: %s" % status)
    probe_match = rated_matches("probe", "probe-1")[0]
    for rotation in (1, 2):
        status, text = owned("/api/bots/probe/games/%d-%d/stderr" % (probe_match, rotation),
                             tokens["probe"])
        text = text.decode()
        check(status == 200 and "probe done" in text, "the probe's stderr: %s %s" % (status, text))
        check("ALLOWED" not in text, "the probe could: %s" % text)
        for what in ("network", "database", "another bot's files", "its own files", "scratch",
                     "stale scratch", "processes"):
            check("refused %s" % what in text, "the probe's %s: %s" % (what, text))
    report = versions("probe", tokens["probe"])["probe-1"]["report"]
    check("what the bot wrote to stderr" in report and "refused network" in report,
          "the check's report keeps the bot's stderr: %s" % report[-500:])

    # ---- restarted: the versions that passed play again ----
    served.send_signal(signal.SIGTERM)
    check(served.wait(timeout=200) == 0, "the arena's stop")
    with sqlite3.connect(t.db) as con:
        rated_before = con.execute("SELECT COUNT(*) FROM matches WHERE state = 'rated'").fetchone()[0]
    served = t.serve("--hosted", hosted_dir, "--logs", logs, "--max-wait", "1", "--max-players",
                     "2", "--cores", "2")
    port = served.port
    t.wait_until(lambda: re.search(r"match \d+ rated: .*(pybot|cbot|probe)", said()), 300,
                 "a hosted bot's match after the restart")
    check("py-2" in said() or versions("pybot", tokens["pybot"])["py-2"]["state"] == "playing",
          "py-2 after the restart")
    check(not re.search(r"version \S+ (passed|failed) its check", said()),
          "a version checked again after the restart")
    served.send_signal(signal.SIGTERM)
    check(served.wait(timeout=200) == 0, "the arena's second stop")
    # Nothing of any hosted bot's is left running: its processes went with their games, the
    # forks of the probe and the bot that ignored SIGTERM too.
    time.sleep(1)
    left = [line for line in subprocess.run(["ps", "-eo", "pid,args"], capture_output=True,
                                            text=True).stdout.splitlines()[1:]
            if hosted_dir in line or "probe.py" in line or "sleep 1000" in line]
    check(not left, "left running after the arena stopped: %s" % left)
    done = subprocess.run([arena, "rerate", "--db", t.db], capture_output=True, text=True)
    check(done.returncode == 0, "rerate: %s %s" % (done.stdout, done.stderr))
    print("arena_hosted_test: ok (%d rated matches before the restart)" % rated_before)
finally:
    t.end()
