#!/usr/bin/env python3
"""The arena, end to end, with real processes and sockets (docs/arena.md).

    arena_test.py BUILD_DIR SOURCE_DIR

- Bots are added from the command line: a remote bot's token printed once, on its last line,
  and found nowhere in the database; bad input refused with exit status 2.
- An arena with three house bots (the reference bot at levels 5, 3 and 1, level 3 the anchor)
  and three remote bots through bananagrams-connect (two of one owner, one that passes its
  check and then sends garbage) plays: every remote bot passes the conformance check over its
  connection before it is queued; every bot plays, no match seats two bots of one owner, the
  bot that breaks the protocol is paused after three matches, fails its check as it connects
  again (sent away, 1008) and stays paused, and, mended (a new version), passes and plays
  again; level 5 is ahead of level 1 where they meet, and the anchor is held.
- A bot that fails its check is sent away with why (1008), never queued, and `bot list` and
  the API say why.
- Everyone who may not connect is refused with the status docs/arena.md says: no token and a
  wrong one (401), a connection that is not a session (400), another path (404), a bot past its
  connections (429).
- Killed with SIGKILL mid-match and started again: the match it was playing is void, nothing is
  rated twice, no player's process is left (gone with the arena, or swept as it starts again),
  the remote bots come back; SIGTERM then ends it, and the connected bots are told it restarts
  (their bananagrams-connect keeps trying).
- Afterwards: `arena rerate` arrives at exactly the stored ratings; every rated match has one
  game a rotation, each replaying from its log to its stored result.
- People: an account the organiser made signs in from the page's connection (/person, a
  session: its name and code in the query), chooses the level 5 house bot, plays the match's
  games (each begun and let go by the session's messages) alone with it, and is let go at the
  match's end; it is rated on the people's board (/api/people), not the bots'. A wrong code, a
  wrong name, no session, an opponent that is no house bot and a second page are refused;
  signing up is refused (403) unless --people open, where it makes the account, once.
- A house bot added while the arena runs is read at SIGHUP, started, and plays.
- Limits: a bot past its matches a day and one past its connections a minute are refused with
  429 and Retry-After. The API's documents have the fields docs/arena.md names (config, a
  match, a bot, 404 for what is not there), and /events begins with the leaderboard.
"""
import atexit
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request

import remote_host
from arena_support import person_plays
from ws_client import Refused

tree = remote_host.Tree(sys.argv, "arena-test-")
build, source, work = tree.build, tree.source, tree.work
arena, host, connect, reference = (os.path.join(build, "arena"), tree.host, tree.connect,
                                   tree.reference)
db = os.path.join(work, "arena.db")
logs = os.path.join(work, "logs")
# This run's players are found by names of its own (other tests run the same bots at once): the
# house bots' reference bot through a link in a folder of this run's (under the build tree, which
# the sandbox shows its players; /tmp it does not), the garbage bot with a tag.
house_folder = os.path.join(os.path.abspath(build), "arena-test-%d" % os.getpid())
os.makedirs(house_folder, exist_ok=True)
house_reference = os.path.join(house_folder, "reference_bot")
os.symlink(os.path.abspath(reference), house_reference)
garbage = "exec python3 %s garbage --tag %s" % (
    os.path.join(source, "tests", "bots", "test_bot.py"), house_folder)
# A bot that plays its first three games well (the conformance check's scenarios) and then sends
# garbage: it passes its check, and breaks in its matches.
flaky_count = os.path.join(work, "flaky.count")
flaky = ("n=$(cat %s 2>/dev/null || echo 0); echo $((n + 1)) > %s; "
         "if [ $n -lt 3 ]; then exec %s --level 5; else %s; fi" %
         (flaky_count, flaky_count, reference, garbage))
started = time.monotonic()
started_processes = []  # ended however the test ends


@atexit.register
def end_them():
    for process in started_processes:
        if process.poll() is None:
            process.kill()
    shutil.rmtree(house_folder, ignore_errors=True)


def check(condition, what):
    remote_host.check(condition, what, "arena_test")


def run(*args, timeout=60):
    return subprocess.run([arena, *args], capture_output=True, text=True, timeout=timeout)


def api(port, path):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, None


upgrade = remote_host.upgrade


def upgrade_status(port, path, extra=()):
    return upgrade(port, path, extra)[0]


class Arena:
    """The arena serving, its stderr read as it comes (every line kept)."""

    def __init__(self, port=0, limits=()):
        self.process = subprocess.Popen(
            [arena, "serve", "--db", db, "--listen", "127.0.0.1:%d" % port, "--logs", logs,
             "--max-wait", "2", "--concurrency", "2", "--connections-per-bot", "1",
             "--stop-grace", "5", *limits,
             # Levels 3 and 1 take seconds over each move: no game waits for them for long.
             # A loaded machine (the suite runs tests two at a time) starts a sandboxed player
             # slowly: the first word may take a while.
             "--game-timeout", "10", "--people-game-timeout", "10", "--ready-timeout", "30"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        started_processes.append(self.process)
        self.port = remote_host.arena_port(self.process)
        check(self.port, "the arena said no address: %s" % self.said())

    def said(self):
        return "".join(self.process.said_lines)


def start_bot(token_file, command, version=None):
    # --grace: a connection that drops (the arena killed) is tried again while the arena comes
    # back, however long its players take to go under a loaded machine.
    args = [connect, "--token-file", token_file, "--retry", "20", "--grace", "120", "--words",
            "from-seat"]
    if version:
        args += ["--bot-version", version]
    bot = subprocess.Popen(args + ["ws://127.0.0.1:%d/bot" % port, "--", command],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started_processes.append(bot)
    return bot


def players_left():
    ps = subprocess.run(["pgrep", "-f", re.escape(house_folder)],
                        capture_output=True, text=True)
    return ps.stdout.split()


def described(pids):
    """What each process is, should one be left: its state, parent, age and command."""
    if not pids:
        return "none"
    return subprocess.run(["ps", "-o", "pid,ppid,stat,etime,wchan:20,args", "-p", ",".join(pids)],
                          capture_output=True, text=True).stdout


def wait_until(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    check(False, "waited %d s for %s" % (seconds, what() if callable(what) else what))


# ---- bots, from the command line ----
check(run("bot", "add", "x").returncode == 2, "bot add without --db")
for name, level, anchor in (("L5", 5, None), ("L3", 3, "25"), ("L1", 1, None)):
    args = ["bot", "add", "--db", db, name, "--command", "%s --level %d" % (house_reference, level)]
    added = run(*args + (["--anchor", anchor] if anchor else []))
    check(added.returncode == 0 and added.stdout == "", "a house bot: %s" % added.stderr)
tokens = {}
for name, owner in (("r1", "alice"), ("r2", "alice"), ("bad", "carol"), ("never", "dave")):
    added = run("bot", "add", "--db", db, name, "--owner", owner)
    check(added.returncode == 0 and re.fullmatch(r"[A-Za-z0-9_-]{32}\n", added.stdout),
          "a remote bot's token on its last line: %r %s" % (added.stdout, added.stderr))
    tokens[name] = added.stdout.strip()
    path = os.path.join(work, name + ".token")
    with open(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(tokens[name] + "\n")
for file in (db, db + "-wal"):
    if os.path.exists(file):
        held = open(file, "rb").read()
        check(all(t.encode() not in held for t in tokens.values()), "a token in " + file)
for args, said in [(["bot", "add", "--db", db, "r1"], "already"),
                   (["bot", "add", "--db", db, "has space"], "cannot be a bot's name"),
                   (["bot", "add", "--db", db, "x", "--anchor", "3"], "house bot"),
                   (["bot", "disable", "--db", db, "nobody"], "no bot named"),
                   (["serve", "--db", db], "--listen")]:
    refused = run(*args)
    check(refused.returncode == 2 and said in refused.stderr, "%s: %s" % (args, refused.stderr))

# ---- the arena plays ----
served = Arena()
port = served.port
token_file = {name: os.path.join(work, name + ".token") for name in tokens}
bots = [start_bot(token_file["r1"], "%s --level 5" % reference, "v1"),
        start_bot(token_file["r2"], "%s --level 4" % reference),
        start_bot(token_file["bad"], flaky)]
with open(os.path.join(work, "wrong.token"), "w") as f:
    f.write("W" * 32 + "\n")
wrong = subprocess.run([connect, "--token-file", os.path.join(work, "wrong.token"),
                        "ws://127.0.0.1:%d/bot" % port, "--", "true"],
                       capture_output=True, text=True, timeout=60)
check(wrong.returncode == 1 and "401" in wrong.stderr, "a wrong token: %s" % wrong.stderr)
for path, extra, status in [
        ("/bot", (), 401),
        ("/bot", ("Authorization: Bearer " + "W" * 32, "X-Bananagrams-Session: 1"), 401),
        ("/bot", ("Authorization: Bearer " + tokens["r2"],), 400),
        ("/seat/" + tokens["r2"], ("X-Bananagrams-Session: 1",), 404)]:
    got = upgrade_status(port, path, extra)
    check(got == status, "%s %s: %d, not %d" % (path, extra, got, status))
# r1 connects once (checked, then queued): a second connection is over its
# --connections-per-bot.
wait_until(lambda: "bot r1 connected" in served.said(), 60, "r1 connected")
second = subprocess.run([connect, "--token-file", token_file["r1"],
                         "ws://127.0.0.1:%d/bot" % port, "--", "true"],
                        capture_output=True, text=True, timeout=60)
check(second.returncode == 1 and "429" in second.stderr, "a second connection: %s" % second.stderr)


def played(name):
    status, bot = api(port, "/api/bots/" + name)
    return sum(v["matches_played"] for v in bot["versions"]) if status == 200 else 0


def paused(name):
    return api(port, "/api/bots/" + name)[1]["paused"]


# Every remote bot is checked before it is queued: these pass.
wait_until(lambda: all(re.search(r"bot %s( \S+)? passed its check" % b, served.said())
                       for b in ("r1", "r2", "bad")), 90, "the remote bots' checks")
# A bot that fails its check is sent away (1008, why), never queued, and the list says why.
never = subprocess.run([connect, "--token-file", token_file["never"], "--words", "from-seat",
                        "ws://127.0.0.1:%d/bot" % port, "--", garbage],
                       capture_output=True, text=True, timeout=90)
check(never.returncode == 1 and "(1008): failed the arena's check: answers the deal (ACT)"
      in never.stderr, "a bot that fails its check: %d %s" % (never.returncode, never.stderr))
status, never_api = api(port, "/api/bots/never")
check(status == 200 and never_api["versions"][0]["checked"] is None and
      "A protocol error" in never_api["versions"][0]["check_failed"] and
      "failed the conformance check" in never_api["not_queued"], "/api/bots/never: %s" % never_api)
listed = run("bot", "list", "--db", db)
check(re.search(r"never .* active; its version failed the conformance check", listed.stdout),
      listed.stdout)
check(played("never") == 0, "a bot that failed its check played")
# One that breaks in its matches is paused, and connecting does not let it play: it is checked
# again, fails, and stays paused.
wait_until(lambda: paused("bad"), 120, "the bot that sends garbage paused: " + served.said())
check("protocol error" in paused("bad") or "protocol" in paused("bad"),
      "why it is paused: %s" % paused("bad"))
listed = run("bot", "list", "--db", db)
check(re.search(r"bad .* paused: out of 3 matches in a row", listed.stdout), listed.stdout)
bots[2].communicate(timeout=60)  # sent away as it was paused
again = subprocess.run([connect, "--token-file", token_file["bad"], "--words", "from-seat",
                        "ws://127.0.0.1:%d/bot" % port, "--", flaky],
                       capture_output=True, text=True, timeout=90)
check(again.returncode == 1 and "failed the arena's check" in again.stderr and paused("bad"),
      "a paused bot that fails its check again: %s" % again.stderr)
# Mended (a new version), it passes its check, is no longer paused, and plays.
bots.append(start_bot(token_file["bad"], "%s --level 5" % reference, "mended"))
wait_until(lambda: not paused("bad") and any(
    v["version"] == "mended" and v["matches_played"] > 0
    for v in api(port, "/api/bots/bad")[1]["versions"]), 120,
    "the mended bot queued again and playing: " + served.said())
wait_until(lambda: all(played(b) >= 2 for b in ("L5", "L3", "L1", "r1", "r2")), 150,
           "every bot to play two matches: %s" % served.said())

# ---- a person: signs in from the page's connection, plays the house bot chosen, alone ----
added = run("person", "add", "--db", db, "pat")
check(added.returncode == 0 and re.fullmatch(r"[A-Za-z0-9_-]{32}\n", added.stdout),
      "a person's code on its last line: %r %s" % (added.stdout, added.stderr))
pat = added.stdout.strip()
for path, status in [("/person?session=1&name=pat&code=" + "W" * 32, 401),
                     ("/person?session=1&name=r1&code=" + pat, 401),
                     ("/person?session=1&name=pat&code=" + tokens["r2"], 401),
                     ("/person?name=pat&code=" + pat, 400),
                     ("/person?session=1&name=pat&code=%s&opponent=r1" % pat, 400),
                     ("/person?session=1&signup=1&name=sam&code=" + "s" * 24, 403)]:
    got = upgrade_status(port, path)
    check(got == status, "%s: %d, not %d" % (path, got, status))
check(upgrade_status(port, "/bot", ("Authorization: Bearer " + pat,
                                    "X-Bananagrams-Session: 1")) == 401,
      "a person's code let in as a bot's token")
games, code, why = person_plays(port, "pat", pat, "L5", "%s --level 5" % reference,
                                started_processes)
check(games == 2 and code == 1000, "the person's match: %d games, closed %s %r\n%s" %
      (games, code, why, served.said()))
check("person pat came from" in served.said(), "the person's line: %s" % served.said())
status, people = api(port, "/api/people")
check(status == 200 and [row["name"] for row in people["leaderboard"]] == ["pat"] and
      people["leaderboard"][0]["kind"] == "person" and people["leaderboard"][0]["matches"] == 1,
      "/api/people: %s" % people)
board = api(port, "/api/leaderboard")[1]["leaderboard"]
check("pat" not in [row["name"] for row in board], "a person on the bots' board")
# A remote bot's round trip over its connection, measured in its games; a house bot has none.
for row in board:
    trip = row["round_trip_ms"]
    check((trip is None if row["kind"] == "house" else trip is not None or row["matches"] == 0)
          and (trip is None or 0 < trip < 1000), "%s's round trip: %s" % (row["name"], trip))
check(api(port, "/api/bots/L5")[1]["games"]["round_trip_ms"] is None,
      "a house bot's round trip on its page")
status, pat_api = api(port, "/api/people/pat")
check(status == 200 and pat_api["kind"] == "person" and api(port, "/api/bots/pat")[0] == 404,
      "/api/people/pat: %s" % pat_api)
(pat_match,) = [m["match"] for m in pat_api["versions"][0]["matches"]]
check([e["bot"] for e in api(port, "/api/matches/%d" % pat_match)[1]["entrants"]] in
      (["pat", "L5"], ["L5", "pat"]), "the person's match seats another than L5")
people_text = run("standings", "--db", db, "--people").stdout
check(re.search(r"1  pat ", people_text), "standings --people: %s" % people_text)

# ---- a house bot added while the arena runs: read at SIGHUP, started, and playing ----
added = run("bot", "add", "--db", db, "L4", "--command", "%s --level 4" % house_reference)
check(added.returncode == 0, "a house bot added: %s" % added.stderr)
served.process.send_signal(signal.SIGHUP)
wait_until(lambda: "house bot L4 added" in served.said(), 10, "L4 read at SIGHUP")
wait_until(lambda: played("L4") >= 1, 120, "L4 to play: %s" % served.said())

# ---- killed mid-match, and started again ----
wait_until(lambda: api(port, "/api/queue")[1]["playing"], 30, "a match playing")
served.process.kill()
served.process.wait(timeout=30)
# Its players die with it: each is set to die with its parent, and the sandbox with them. A
# sandbox that was being started at that very moment can outlive it (bubblewrap sets its own
# die-with-parent a moment after its fork); its game's cgroup, whose lock no living host holds,
# is swept by the next host that opens the machine's cgroups: here, the restarted arena.
deadline = time.monotonic() + 20
while players_left() and time.monotonic() < deadline:
    time.sleep(0.25)
left = players_left()
served = Arena(port)  # where the bots come back
if left:
    print("arena_test: left by the killed arena, for its restart to sweep:\n%s" % described(left))
    wait_until(lambda: not [pid for pid in left if os.path.exists("/proc/" + pid)], 60,
               lambda: "the restarted arena to sweep the killed one's players: %s" %
               described([pid for pid in left if os.path.exists("/proc/" + pid)]))
wait_until(lambda: "voided" in served.said(), 10, "the restarted arena to void the match")
# The remote bots come back (connect tries again) and play on.
before = {b: played(b) for b in ("r1", "r2")}
# Matches of four seats with the slow levels take a while, more so on a loaded machine.
wait_until(lambda: all(played(b) > before[b] for b in before), 180,
           lambda: "the remote bots to play again: %s" % served.said())
served.process.send_signal(15)
served.process.wait(timeout=60)
served.process.said_reader.join(10)
check(served.process.returncode == 0 and "closed (SIGTERM)" in served.said(),
      "SIGTERM: %s" % served.said())
# The connected bots were told the arena restarts (1012): their bananagrams-connect keeps trying
# (--restart-wait), until stopped.
for bot in bots[:2] + bots[3:]:
    if bot.poll() is not None:
        check(False, "a remote bot's connect ended as the arena restarted: %s" %
              bot.communicate()[1])
    bot.send_signal(signal.SIGTERM)
    try:
        bot_out, bot_err = bot.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        bot.kill()
        bot_out, bot_err = bot.communicate()
        check(False, "a remote bot's connect still runs 30 s after SIGTERM: %s" % bot_err)
    check(bot.returncode == 128 + signal.SIGTERM and "the host is restarting" in bot_err,
          "a remote bot when the arena restarted: %d %s" % (bot.returncode, bot_err))
check(not players_left(), "players left: %s" % described(players_left()))

# ---- afterwards: the archive ----
rerated = run("rerate", "--db", db, "--json")
check(rerated.returncode == 0 and json.loads(rerated.stdout)["agree"], rerated.stdout)
con = sqlite3.connect(db)
owners = dict(con.execute("SELECT e.id, b.owner FROM entries e JOIN bots b ON b.id = e.bot_id"))
states = dict(con.execute("SELECT state, COUNT(*) FROM matches GROUP BY state"))
check(states.get("void", 0) >= 1 and states.get("rated", 0) >= 4 and "running" not in states,
      "the matches' states: %s" % states)
for (match,) in con.execute("SELECT id FROM matches WHERE state = 'rated'"):
    entries = [e for (e,) in con.execute("SELECT entry_id FROM match_entries WHERE match_id = ?",
                                         (match,))]
    games = list(con.execute("SELECT rotation, log, result FROM games WHERE match_id = ? "
                             "ORDER BY rotation", (match,)))
    check(len(set(owners[e] for e in entries)) == len(entries), "match %d: one owner twice" % match)
    check([g[0] for g in games] == list(range(len(entries))), "match %d: its rotations" % match)
    for rotation, log, result in games:
        stored = json.loads(result)
        replay = subprocess.run([host, "--replay", log, "--json", "--quiet"], capture_output=True,
                                text=True, timeout=60)
        check(replay.returncode == 0, "match %d game %d: %s" % (match, rotation, replay.stderr))
        replayed = json.loads(replay.stdout)
        check(replayed["winner"] == stored["winner"] and
              [p["rank"] for p in replayed["players"]] == [p["rank"] for p in stored["players"]],
              "match %d game %d replays to another result" % (match, rotation))
for (match,) in con.execute("SELECT id FROM matches WHERE state = 'void'"):
    check(con.execute("SELECT COUNT(*) FROM match_entries WHERE match_id = ?",
                      (match,)).fetchone()[0] == 0, "a void match %d rated" % match)

standings = json.loads(run("standings", "--db", db, "--json").stdout)["leaderboard"]
order = [row["name"] for row in standings]
outs = [(g[0], p["command"], p["reason"]) for g in con.execute("SELECT match_id, result FROM games")
        for p in [dict(q) for q in json.loads(g[1])["players"]] if p["reason"]]
# Level 5 beats level 1 where they meet. (Not their ratings: those come from different
# opponents, and a sandboxed house bot starved of CPU under a loaded suite loses races to the
# unsandboxed remote bots, which rates it below a level 1 that met weaker ones.) Only a game one
# of them wins tells them apart (the others share the losers' place): under a loaded suite the
# remote bots may win every game the two meet in, which says nothing of either.
def level_places(result):
    places = {}
    for p in result["players"]:
        level = re.search(r"--level (\d)$", p["command"])
        if level:
            places[int(level.group(1))] = p["rank"] or 99  # out: last
    return places


met = [places for places in (level_places(json.loads(r)) for (r,) in
                             con.execute("SELECT result FROM games")) if 5 in places and 1 in places]
ahead = (sum(p[5] < p[1] for p in met), sum(p[1] < p[5] for p in met))
check(ahead[0] > ahead[1] or ahead == (0, 0),
      "level 1 ahead of level 5 in %d of the %d games they met (level 5 in %d): %s\nplayers "
      "out: %s\n%s" % (ahead[1], len(met), ahead[0], standings, outs, served.said()))
print("arena_test: level 5 ahead of level 1 in %d of the %d games they met, behind in %d"
      % (ahead[0], len(met), ahead[1]))
anchor = next(row for row in standings if row["name"] == "L3")
check(anchor["rating"] == {"mu": 25.0, "sigma": 0.0}, "the anchor moved: %s" % anchor)
check(all(row["matches"] >= 1 for row in standings), "a bot never played: %s" % standings)
r1 = [row for row in standings if row["name"] == "r1"][0]
check(r1["version"] == "v1", "r1's version: %s" % r1)
# ---- limits: past them, 429 with the seconds to wait; and the API's documents ----
r3 = run("bot", "add", "--db", db, "r3").stdout.strip()
served = Arena(limits=("--matches-a-day", "1", "--connections-a-minute", "2", "--people", "open"))
# Where people may sign up: the page's name and code make the account, once.
sam = "/person?session=1&signup=1&name=sam&code=" + "s" * 24
check(upgrade_status(served.port, sam) == 101, "signing up where people may")
check(re.search(r"^sam ", run("person", "list", "--db", db).stdout, re.M), "sam's account")
check(upgrade_status(served.port, sam.replace("s" * 24, "t" * 24)) == 409, "a name taken")
status, config = api(served.port, "/api/config")
check(status == 200 and config["version"] == 1 and config["matchmaker"]["max_players"] == 4 and
      config["rating"]["model"] == "weng-lin-plackett-luce", "/api/config: %s" % config)
# The loop's lag, as its operator reads it: a minute of samples, and what held its busiest turn.
status, server = api(served.port, "/api/server")
lag = server.get("loop_lag", {})
check(status == 200 and lag.get("samples", 0) > 0 and
      0 <= lag["p50_ms"] <= lag["p99_ms"] <= lag["max_ms"] and lag["busiest_turn_ms"] > 0 and
      lag["longest_handler"] and 0 < lag["longest_handler_ms"] <= lag["busiest_turn_ms"],
      "/api/server's loop_lag: %s" % server)
(rated_id,) = con.execute("SELECT id FROM matches WHERE state = 'rated' LIMIT 1").fetchone()
status, match = api(served.port, "/api/matches/%d" % rated_id)
check(status == 200 and match["state"] == "rated" and
      len(match["games"]) == len(match["entrants"]) and
      all(set(e) >= {"bot", "bot_version", "seat", "rank", "before", "after"}
          for e in match["entrants"]) and
      all(g["result"]["players"] for g in match["games"]),
      "/api/matches/%d: %s" % (rated_id, match))
status, bot = api(served.port, "/api/bots/L5")
check(status == 200 and bot["kind"] == "house" and bot["versions"][0]["matches"] and
      set(bot["versions"][0]["matches"][0]) >= {"match", "rank", "before", "after"},
      "/api/bots/L5: %s" % bot)
for missing in ("/api/matches/999999", "/api/bots/nobody", "/api/nothing"):
    check(api(served.port, missing)[0] == 404, missing + " found")
with urllib.request.urlopen("http://127.0.0.1:%d/events" % served.port, timeout=10) as stream:
    first = []
    while len(first) < 10 and not first[-1:] == [""] and \
            not any(line.startswith("data:") for line in first):
        first.append(stream.readline().decode())
snapshot = next((line for line in first if line.startswith("data:")), "")
check("event: snapshot" in "".join(first) and
      json.loads(snapshot[len("data:"):])["leaderboard"], "/events: %s" % first)
session = ("X-Bananagrams-Session: 1",)
status, headers = upgrade(served.port, "/bot", ("Authorization: Bearer " + tokens["r2"],) + session)
check(status == 429 and 0 < int(headers.get("retry-after", "0")) <= 86400,
      "a bot past its matches a day: %d %s" % (status, headers))
for attempt in range(3):
    status, headers = upgrade(served.port, "/bot", ("Authorization: Bearer " + r3,) + session)
    time.sleep(0.3)  # closed: the arena sees it go before the next
    expected = 101 if attempt < 2 else 429
    check(status == expected, "r3's connection %d: %d, not %d" % (attempt + 1, status, expected))
check(0 < int(headers.get("retry-after", "0")) <= 60, "past its connections a minute: %s" % headers)
served.process.send_signal(15)
served.process.wait(timeout=60)
print("arena_test: all passed in %.0f s" % (time.monotonic() - started))
