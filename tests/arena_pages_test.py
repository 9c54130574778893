#!/usr/bin/env python3
"""The arena's pages (docs/arena.md, "Pages"), in headless Chromium, read and driven as a person
does (tests/browser.py: clicks and keys), beside the API they are drawn from.

    arena_pages_test.py BUILD_DIR [SCREENSHOT_DIR]

An arena with a house bot at full strength (L5), a remote bot (r1, through bananagrams-connect)
and a person's account (pat); one match at a time.

- The leaderboard (/): its rows are the API's, in the API's order, bots and people apart; when a
  match finishes they change without a reload; sorted by name from the keyboard (Tab to the
  column's heading, Enter), and back.
- Spectators: an event stream read all along never says anything of a match's games before the
  match is over (no grid any of its players laid), and while it plays its games' logs and
  pages are not served (404).
- A bot's page (/bots/r1), after r1 has played as v1 and then as v2: one point on its chart per
  rated match, and a mark where each version played its first, where the API says.
- A match's page (/matches/ID): one rotation a game, each with its replay, which is opened from
  the page and stepped through to its end.
- /live: the rule said; the boards of the match just over move as they are replayed.
- A person's evening (/play): pat signs in while the table is full and sees its place in the
  queue, plays L5; then, without a reload, plays again against the reference bot at level 1
  (added while the arena runs) a whole match to its end, dumping a tile in each game, sees the
  rating's change, and the leaderboard (open in another tab all along) shows it.

Screenshots of the leaderboard, the bot's page and /live go to SCREENSHOT_DIR (docs/'s are
these).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from browser import Browser
from remote_host import arena_port

build = os.path.abspath(sys.argv[1])
shots = sys.argv[2] if len(sys.argv) > 2 else None
arena, connect = os.path.join(build, "arena"), os.path.join(build, "connect")
reference = os.path.join(build, "reference_bot")
chromium = shutil.which("chromium") or sys.exit("arena_pages_test: chromium is not installed")
work = tempfile.mkdtemp(prefix="arena-pages-test-")
db = os.path.join(work, "arena.db")
served = None
processes = []


def check(condition, what):
    if not condition:
        said = "".join(getattr(served, "said_lines", []))
        sys.exit("arena_pages_test: %s\nthe arena said:\n%s" % (what, said[-6000:]))


def run(*args):
    done = subprocess.run([arena, *args, "--db", db], capture_output=True, text=True, timeout=60)
    check(done.returncode == 0, "arena %s: %s" % (" ".join(args), done.stderr))
    return done.stdout.strip()


def get(path):
    """(status, body) of a GET to the arena."""
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def api(path):
    status, body = get(path)
    check(status == 200, "%s: %d %s" % (path, status, body))
    return json.loads(body)


def wait_until(ready, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = ready()
        if found:
            return found
        time.sleep(0.2)
    check(False, what() if callable(what) else what)


def page(expression):
    return browser.evaluate(expression)


def text(id):
    """The text of the element of that id, "" while there is none (the page loading)."""
    return page("(document.getElementById(%s) || {}).textContent || ''" % json.dumps(id))


def page_state():
    """Its script's failure, the API's, and how many times it has been drawn (nothing while it
    loads)."""
    return json.loads(page("""!document.body ? '{"error": null, "failed": null, "drawn": 0}' :
        JSON.stringify({error: document.body.dataset.error || null,
        failed: document.body.dataset.failed || null, drawn: Number(document.body.dataset.drawn || 0)})"""))


def wait_page(ready, seconds, what):
    def look():
        state = page_state()
        check(not state["error"] and not state["failed"], "%s: the page failed: %s" % (what, state))
        return ready()
    return wait_until(look, seconds, what)


def start_r1(version, level=5):
    bot = subprocess.Popen([connect, "--token-file", token_file, "--retry", "20", "--words",
                            "from-seat", "--bot-version", version,
                            "ws://127.0.0.1:%d/bot" % port, "--", reference + " --level %d" % level],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.append(bot)
    return bot


def stop(process):
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def retire(process):
    """r1 leaves between two matches, as the organiser's disable lets it (and is enabled again for
    later): its last match is played out. A bot stopped mid-match leaves the rest of it at once,
    a match with nothing on its boards, which /live would replay as the match just over."""
    run("bot", "disable", "r1")
    served.send_signal(signal.SIGHUP)
    process.wait(timeout=240)  # told there are no more games once its match is over
    run("bot", "enable", "r1")
    served.send_signal(signal.SIGHUP)


def matches_of(name, person=False):
    account = api(("/api/people/" if person else "/api/bots/") + name)
    return sum(v["matches_played"] for v in account["versions"])


class Events:
    """Every event of /events, read from the arena's start: (name, data) in order."""

    def __init__(self):
        self.seen = []
        self.response = urllib.request.urlopen("http://127.0.0.1:%d/events" % port, timeout=600)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        name, data = "message", []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())
                elif not line and data:
                    self.seen.append((name, "\n".join(data)))
                    name, data = "message", []
        except (OSError, ValueError):
            pass  # the arena closed


ROWS = """JSON.stringify([...document.querySelectorAll("#%s tr[data-name]")].map((r) =>
    [r.dataset.name, Number(r.dataset.matches)]))"""


def phone_check(what, shot=None, wide_shot=None):
    """The page at a desktop's width (screenshot `wide_shot`), then at a phone's: no sideways
    page, every column shown in view, every touch target 44 px tall or more, and no word of the
    wire (screenshot `shot`); back at the desktop's width after."""
    if shots and wide_shot:
        browser.screenshot(os.path.join(shots, wide_shot))
    browser.viewport(390, 844, phone=True)
    time.sleep(0.4)
    layout = browser.layout()
    check(layout["width"] <= 390 and all(right <= 390 for _, right in layout["columns"])
          and not layout["small"] and not layout["wire"], "%s on a phone: %s" % (what, layout))
    if shots and shot:
        browser.screenshot(os.path.join(shots, shot))
    browser.viewport(1280, 900)
    time.sleep(0.2)


def rows_shown(which):
    return json.loads(page(ROWS % which))


def rows_of(path):
    return [[row["name"], row["matches"]] for row in api(path)["leaderboard"]]


# ---- the arena ----
run("bot", "add", "L5", "--command", reference + " --level 5", "--about", "level 5: full strength")
token_file = os.path.join(work, "r1.token")
with open(token_file, "w") as f:
    f.write(run("bot", "add", "r1", "--owner", "ann") + "\n")
pat = run("person", "add", "pat")
served = subprocess.Popen([arena, "serve", "--db", db, "--listen", "127.0.0.1:0", "--no-sandbox",
                           "--logs", os.path.join(work, "logs"), "--max-players", "2",
                           "--max-wait", "1", "--concurrency", "1", "--stall-timeout", "10",
                           "--game-timeout", "30", "--people-game-timeout", "30",
                           "--ready-timeout", "30"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
port = arena_port(served)
check(port, "the arena said no address")
events = Events()
browser = Browser(chromium, os.path.join(work, "profile"))
try:
    # ---- the leaderboard follows the matches ----
    r1 = start_r1("v1")
    wait_until(lambda: matches_of("r1") >= 2, 240, "r1 (v1) played no 2 matches")
    browser.open("http://127.0.0.1:%d/" % port)
    browser.viewport(1280, 900)
    board_tab = browser.tab()
    wait_page(lambda: page_state()["drawn"] > 0, 30, "the leaderboard not drawn")
    page("window.notReloaded = true")
    shown = rows_shown("bots")
    check(shown == rows_of("/api/leaderboard"), "the bots' rows: %s, the API's %s"
          % (shown, rows_of("/api/leaderboard")))
    before = dict(shown)["r1"]
    wait_page(lambda: dict(rows_shown("bots")).get("r1", 0) > before, 240,
              "the leaderboard did not follow r1's next match")
    check(page("window.notReloaded === true"), "the leaderboard was reloaded")
    wait_page(lambda: rows_shown("bots") == rows_of("/api/leaderboard"), 20,
              "the rows are not the API's after a match")
    # Sorted by name from the keyboard: the headings' buttons after the header's four links.
    for _ in range(6):
        browser.press("Tab")
    check(page("document.activeElement.dataset.key") == "name",
          "Tab did not reach the name's heading: %s" % page("document.activeElement.outerHTML"))
    browser.press("Enter")
    names = [name for name, _ in rows_shown("bots")]
    check(names == sorted(names, key=str.lower), "sorted by name: %s" % names)
    browser.press("Enter")
    names = [name for name, _ in rows_shown("bots")]
    check(names == sorted(names, key=str.lower, reverse=True), "sorted by name, down: %s" % names)
    # One rating a row, "?" while provisional; the house bot in the organiser's words.
    house = page("""document.querySelector('#bots tr[data-name="L5"]').innerText""")
    check("level 5: full strength" in house and "\u00b1" not in house, "L5's row: %r" % house)
    # On a phone: no sideways page, and every column still shown in view (the narrow ones go).
    browser.viewport(390, 844, phone=True)
    time.sleep(0.3)
    shown = json.loads(page("""JSON.stringify([...document.querySelectorAll('#bots th')]
      .filter((th) => th.offsetParent).map((th) => th.textContent))"""))
    check(any(name.startswith("now") for name in shown), "'now' not on a phone: %s" % shown)
    browser.viewport(1280, 900)
    phone_check("the leaderboard", "arena-leaderboard-phone.png", "arena-leaderboard.png")

    # ---- a running match's games are not shown ----
    running = wait_until(lambda: api("/api/live")["playing"], 120, "no match playing")[0]["match"]
    for path in ("/api/matches/%d/games/0" % running, "/matches/%d/games/0" % running):
        status, _ = get(path)
        check(status == 404, "%s served while its match plays: %d" % (path, status))
    check(api("/api/matches/%d" % running)["games"] == [], "a running match's games shown")

    # ---- a bot's page: one point a rated match, each version marked ----
    stop(r1)
    r1 = start_r1("v2")
    wait_until(lambda: len(api("/api/bots/r1")["versions"]) == 2
               and api("/api/bots/r1")["versions"][1]["matches_played"] >= 2, 240,
               "r1 (v2) played no 2 matches")
    retire(r1)  # from here on, only the person plays
    bot = api("/api/bots/r1")
    browser.open("http://127.0.0.1:%d/bots/r1" % port)
    wait_page(lambda: page("window.ratingChart && document.body.dataset.drawn ? 1 : 0"), 30,
              "no chart on r1's page")
    points = page("window.ratingChart.data.datasets[0].data.length")
    played = sum(v["matches_played"] for v in bot["versions"])
    check(points == played and page('document.getElementById("chart").dataset.points') ==
          str(played), "%s points for %d rated matches" % (points, played))
    finished = sorted((m["finished"], m["match"], v["version"]) for v in bot["versions"]
                      for m in v["matches"])
    firsts = ["%d:%s" % (min(i for i, m in enumerate(finished) if m[2] == v), v)
              for v in ("v1", "v2")]
    marks = page('document.getElementById("chart").dataset.marks')
    check(marks == ",".join(firsts), "the version marks: %s, not %s" % (marks, firsts))
    check(page('document.getElementById("matches").querySelectorAll("tr").length') == played + 1,
          "the matches' table")
    phone_check("a remote bot's page", "arena-bot-page-phone.png", "arena-bot-page.png")
    # A house bot's page: what it is in words, its version never its command.
    browser.open("http://127.0.0.1:%d/bots/L5" % port)
    wait_page(lambda: "level 5: full strength" in text("about"), 30, "L5's page")
    body = page("document.body.innerText")
    check("reference_bot" not in body and build not in body, "a command on L5's page")
    phone_check("a house bot's page")

    # ---- a match's page, and each game's replay ----
    match = finished[-1][1]
    games = api("/api/matches/%d" % match)["games"]
    browser.open("http://127.0.0.1:%d/matches/%d" % (port, match))
    wait_page(lambda: page("document.querySelectorAll('#rotations .rotation').length") ==
              len(games), 30, "the match's rotations")
    phone_check("a match's page", "arena-match-page-phone.png", "arena-match-page.png")
    for game in games:
        browser.open("http://127.0.0.1:%d/matches/%d" % (port, match))
        wait_page(lambda: page("document.querySelectorAll('#rotations a.replay').length") ==
                  len(games), 30, "the replay links")
        browser.click('#rotations .rotation[data-rotation="%d"] a.replay' % game["rotation"])
        wait_until(lambda: page("location.pathname") == "/matches/%d/games/%d"
                   % (match, game["rotation"]) and page("document.readyState") == "complete",
                   30, "the replay did not open")
        last = int(page('document.getElementById("step").max'))
        check(last > 10, "the replay's moments: %d" % last)
        # A game over opens at its end, its players named, a link back to its match, and no
        # command (the operator's paths) anywhere on it.
        check(int(page('document.getElementById("step").value')) == last, "not opened at its end")
        laid = page("document.querySelectorAll('#boards .tile').length")
        check(laid > 0, "no tile on the replay's boards at its end")
        names = ",".join(seat["bot"] for seat in game["seats"])
        wait_page(lambda: page("document.body.dataset.names") == names, 30, "the players' names")
        check(all(name in page("document.getElementById('boards').innerText")
                  for name in names.split(",")), "a board without its player's name")
        check(page('document.getElementById("to-match").getAttribute("href")') ==
              "/matches/%d" % match, "no link back to the match")
        body = page("document.body.innerText")
        check("reference_bot" not in body and build not in body and
              not page("document.querySelector('.command')"), "a command on a public page")
        for _ in range(3):
            browser.click("#back")
        check(int(page('document.getElementById("step").value')) == last - 3, "stepped back")
        # On a phone: one column, no sideways page, the boards as wide as the screen allows.
        browser.viewport(390, 844, phone=True)
        time.sleep(0.3)
        width = page("document.documentElement.scrollWidth")
        boards = page("document.getElementById('boards').getBoundingClientRect().width")
        check(width <= 390 and boards >= 300, "the replay on a phone: page %s px, boards %s px"
              % (width, boards))
        browser.viewport(1280, 900)
        phone_check("a game's replay", *(("arena-replay-phone.png", "arena-replay.png")
                                         if game["rotation"] == 0 else ()))

    # ---- /live: the rule, and the boards of the match just over moving ----
    # At the games' own pace (?speed=1): a replay at 8x of a match of a few seconds is over
    # before a look can see it move.
    browser.open("http://127.0.0.1:%d/live?speed=1" % port)
    wait_page(lambda: text("rule").startswith(
        "A match is shown once every rotation"), 30, "the rule is not said")
    seen_boards = set()

    def boards_move():
        seen_boards.add(page("""[...document.querySelectorAll('#shown .board')].map((b) =>
            b.dataset.rows).join('/')"""))
        return len(seen_boards) >= 3
    wait_page(boards_move, 60, "the boards on /live did not move")
    if shots:
        time.sleep(2)
    phone_check("/live", "arena-live-page-phone.png", "arena-live-page.png")

    # ---- a person's evening ----
    # A match of r1 and L5 holds the only table while pat signs in: pat waits, and is told where.
    # r1 plays at level 1 here, whose first grid comes after the stall timeout: its games last
    # that long, and pat is in the queue well before its match is over. (Level 1 plays at a
    # person's pace: the game timeout ends those games.)
    r1 = start_r1("v2", 1)
    wait_until(lambda: [m for m in api("/api/live")["playing"] if m["games_over"] == 0], 120,
               "r1 is not playing")
    browser.open("http://127.0.0.1:%d/play" % port)
    wait_until(lambda: page("document.querySelectorAll('#opponent option').length") >= 2, 30,
               "no opponents to choose")
    browser.click("#person-name")
    browser.call("Input.insertText", text="pat")
    browser.click("#person-code")
    browser.call("Input.insertText", text=pat)
    browser.press("Tab")
    browser.press("ArrowDown")  # L5
    browser.click("#sign-in-play")
    wait_until(lambda: page("document.body.dataset.place") == "1"
               and "1st of" in text("phase"), 60,
               lambda: "pat's place in the queue not shown: %s"
               % text("phase"))
    check(any(w["bot"] == "pat" and w["place"] == 1 for w in api("/api/queue")["waiting"]),
          "pat not first in /api/queue")
    wait_until(lambda: "The match is over" in text("outcome")
               and not page("document.getElementById('end').hidden"),
               240, "pat's first match did not end")
    stop(r1)
    # The reference bot at level 1, added while the arena runs; pat plays it without a reload.
    run("bot", "add", "L1", "--command", reference + " --level 1")
    served.send_signal(signal.SIGHUP)
    wait_until(lambda: "house bot L1 added" in "".join(served.said_lines), 30, "L1 not added")
    check("L1" in [row["name"] for row in api("/api/leaderboard")["leaderboard"]],
          "L1 is not on the leaderboard once added")
    page("window.notReloaded = true")
    browser.click("#play-again")  # the sign-in form, as the person left it
    # The list, gone to from the keyboard, is read again: L1 is there, and chosen with the keys.
    browser.click("#person-code")
    browser.press("Tab")
    wait_until(lambda: page("[...document.querySelectorAll('#opponent option')].some((o) => "
                            "o.value === 'L1')"), 30, "L1 is not in the page's opponents")
    for _ in range(5):
        if page("document.getElementById('opponent').value") == "L1":
            break
        browser.press("ArrowDown")
    check(page("document.getElementById('opponent').value") == "L1", "L1 not chosen")
    games_before = text("said").count("of the match begins")
    browser.click("#sign-in-play")
    for game in (1, 2):
        wait_until(lambda: text("said").count("of the match begins") == games_before + game
                   and page("document.body.dataset.phase") == "playing"
                   and page("document.querySelectorAll('#hand .tile').length") > 0, 120,
                   lambda: "pat's game %d did not begin: %d games before, %d now, %s, %r"
                   % (game, games_before, text("said").count("of the match begins"),
                      page("document.body.dataset.phase"), text("status")))
        browser.click("#hand .tile")
        browser.click("#dump")
        wait_until(lambda: "your dump gave you" in text("said"), 30,
                   lambda: "pat's dump in game %d: %s; %s" % (game, text("status"), text("said")))
    wait_until(lambda: "after 2 matches" in text("how")
               and not page("document.getElementById('end').hidden"), 240,
               "pat's match against L1 did not end")
    check(page("window.notReloaded === true"), "the page was reloaded")
    said = text("how")
    person = api("/api/people/pat")["versions"][0]
    last = person["matches"][-1]
    shown = re.search(r"\(([+\u2212])(\d+\.\d) in this match\)", said)
    check(person["matches_played"] == 2 and "after 2 matches" in said and shown and
          abs(float(shown.group(2)) * (1 if shown.group(1) == "+" else -1) - last["change"])
          <= 0.051
          and page('document.getElementById("end-match-page").getAttribute("href")') ==
          "/matches/%d" % last["match"],
          "the rating's change shown: %r, the API's %s" % (said, last))
    check(sorted(e["bot"] for e in api("/api/matches/%d" % last["match"])["entrants"]) ==
          ["L1", "pat"], "pat's second match was not against L1")
    # The leaderboard, open all along, shows pat's two matches.
    browser.switch(board_tab)
    wait_page(lambda: rows_shown("people") == rows_of("/api/people")
              and dict(rows_shown("people")).get("pat") == 2, 60,
              "the leaderboard does not show pat's matches")
    shown_rating = page("""document.querySelector('#people tr[data-name="pat"] .rating-cell .figure')
        .textContent""")
    rating = api("/api/people/pat")["versions"][0]["rating"]
    check(shown_rating == "%.1f?" % rating["mu"],  # provisional: 2 matches of 10
          "pat's rating on the leaderboard: %r, the API's %s" % (shown_rating, rating))
    # A person's page: a person's sections only (no versions, no CPU), the rating as the board's.
    browser.open("http://127.0.0.1:%d/people/pat" % port)
    wait_page(lambda: page_state()["drawn"] > 0 and "A person" in text("about"), 30, "pat's page")
    check(page("document.getElementById('versions-part').hidden") and "CPU" not in text("per-game")
          and ("Rating %.1f?" % rating["mu"]) in text("about"), "pat's page: %r; %r"
          % (text("about"), text("per-game")))
    phone_check("a person's page", "arena-person-page-phone.png", "arena-person-page.png")

    # ---- nothing of a match's games was streamed before it was over ----
    over_at = {}
    for i, (name, data) in enumerate(events.seen):
        if name == "match":
            over_at[json.loads(data)["id"]] = i
    check(len(over_at) >= 5, "the stream said %d matches" % len(over_at))
    for id, at in over_at.items():
        # (A small grid could be another match's too: only those of more than 12 squares.)
        grids = [p["grid"] for g in api("/api/matches/%d" % id)["games"]
                 for p in g["result"]["players"] if len(p.get("grid") or "") > 18]
        for name, data in events.seen[:at]:
            leaked = [grid for grid in grids if grid in data]
            check(not leaked, "the stream said a grid of match %d before it was over (%s)"
                  % (id, name))
finally:
    browser.close()
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()
    served.terminate()
    served.wait(timeout=60)
shutil.rmtree(work, ignore_errors=True)
print("arena_pages_test: all passed")
