#!/usr/bin/env python3
"""The live tournament page in headless Chromium (Debian's chromium), driven over the DevTools
protocol on a pipe (--remote-debugging-pipe: no network, no package but the browser), while a
tournament plays with --serve.

    live_page_test.py BUILD_DIR SOURCE_DIR OUT_DIR

- While it plays: the page says it is live, shows the standings with both bots, and a running
  game's board changes (its peels and tiles) from one look to the next.
- When it ends: the page says it is over, and its standings are `tournament standings --json`'s
  (the bots in order, their games and wins) with every game done.
- A screenshot taken while it plays is kept (OUT_DIR/live.png; docs/live-page.png is one).
- A finished game's page (GET /games/N) says its deal's seed (above 2^53, as nearly every
  deal's is) digit for digit in its title, heading and the command that deals it again.
- Then a game played by `host --serve`: its page follows it (the seed said only at the end), a
  board changes from one look to the next, and at the end the page shows the result `--json`
  prints, and its seed, above 2^53 (where a JavaScript number would round it), digit for digit
  in its title, heading and the command that deals it again.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from browser import Browser

build, source, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
tournament = os.path.join(build, "tournament")
chromium = shutil.which("chromium") or sys.exit("live_page_test: chromium is not installed")
work = tempfile.mkdtemp(prefix="live-page-test-")


# What the page shows, read from its DOM.
LOOK = """document.readyState === "loading" || !document.getElementById("connection") ? "null" : JSON.stringify({
  error: document.body.dataset.error || null,
  connection: document.getElementById("connection").textContent,
  over: document.body.dataset.over === "1",
  done: Number(document.getElementById("progress").dataset.done || -1),
  standings: Array.from(document.querySelectorAll("#standings tr[data-bot]")).map(
      (tr) => [tr.dataset.bot, Number(tr.dataset.games), Number(tr.cells[5].textContent)]),
  games: Array.from(document.querySelectorAll("section.live-game")).map((s) => [
      Number(s.dataset.game), Number(s.dataset.peels),
      Array.from(s.querySelectorAll(".board")).map((b) => b.dataset.rows).join("/")]),
  pages: Array.from(document.querySelectorAll("#finished li a")).map((a) => a.getAttribute("href")),
})"""
# What a game's page says of its seed: the window's title, the heading, and the command that
# deals the game again (null while the seed is not known).
SEED_LOOK = """JSON.stringify({
  error: document.body.dataset.error || null,
  window: document.title,
  title: document.getElementById("title").textContent,
  again: document.getElementById("again").hidden ? null :
      document.getElementById("replay").textContent,
})"""


def deal_again(start):
    """The command a game's page should show to deal its game again, as sh splits it."""
    words = ["host", "--seed", str(start["seed"])]
    if start["dictionary"]:
        words += ["--dict", start["dictionary"]]
    if start["game_timeout_ms"] != 600000:
        words += ["--game-timeout", "%g" % (start["game_timeout_ms"] / 1000)]
    if start.get("stall_timeout_ms", 0) != 30000:  # none before log version 4
        words += ["--stall-timeout", "%g" % (start.get("stall_timeout_ms", 0) / 1000)]
    return words + start["players"]

db = os.path.join(work, "live.db")
# Each peel a few hundredths of a second after the last: a game lasts a second or two, so a
# look at the page every 50 ms sees its board change however slow the machine is.
bot = "exec python3 %s staircase --pace 0.03" % os.path.join(source, "tests", "bots", "test_bot.py")
runner = subprocess.Popen(
    [tournament, "run", "--db", db, "--dict", os.path.join(source, "tests", "data", "two_letters.txt"),
     "--deals", "10", "--concurrency", "2", "--logs", db + ".logs", "--serve", "127.0.0.1:0",
     "--bot", "staircase=" + bot, "--bot", "stairs-too=" + bot],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
said = runner.stderr.readline()
port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", said).group(1))


def watch(expression, seconds, pause):
    """Each look the page gives (`expression`), every `pause` seconds, up to the one that says
    it is over."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        look = json.loads(browser.evaluate(expression))
        if look is None:  # not loaded yet
            time.sleep(pause)
            continue
        assert not look["error"], look["error"]
        yield look
        if look["over"]:
            return
        time.sleep(pause)


browser = Browser(chromium, os.path.join(work, "profile"))
browser.open("http://127.0.0.1:%d/" % port)
looks = []
changed = None
shot = False
kept_page = None  # a finished game's page, as the server sent it: (its game, the file)
for look in watch(LOOK, 240, 0.05):
    looks.append(look)
    if look["pages"] and not kept_page:
        link = look["pages"][0]
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, link), timeout=30) as got:
            kept_page = (int(link.rsplit("/", 1)[1]), os.path.join(work, "served-game.html"))
            with open(kept_page[1], "wb") as f:
                f.write(got.read())
    if look["connection"] == "live" and not shot and any(g[1] >= 8 for g in look["games"]):
        browser.screenshot(os.path.join(out, "live.png"))
        shot = True
    # A game seen twice, with more peels and other tiles the second time.
    if not changed and len(looks) > 1:
        before = {g[0]: g for g in looks[-2]["games"]}
        for game in look["games"]:
            if game[0] in before and game[1] > before[game[0]][1] and game[2] != before[game[0]][2]:
                changed = (before[game[0]], game)
out_text, err_text = runner.communicate(timeout=120)
assert runner.returncode == 0, err_text

live_looks = [l for l in looks if l["connection"] == "live"]
assert live_looks, looks[:3]
assert any(sorted(b[0] for b in l["standings"]) == ["staircase", "stairs-too"] for l in live_looks)
assert changed, "no board was seen to change"
assert shot, "no screenshot while it played"

final = looks[-1]
assert final["over"], final
assert final["connection"].startswith("over:"), final["connection"]
standings = json.loads(subprocess.run([tournament, "standings", "--db", db, "--json"], check=True,
                                      capture_output=True, text=True).stdout)
assert final["done"] == standings["done"] == 20, (final["done"], standings["done"])
assert final["standings"] == [[b["name"], b["games"], b["wins"]] for b in standings["bots"]], \
    (final["standings"], standings["bots"])
print("live page: %d looks; game %d went from %d to %d peels; final standings %s" %
      (len(looks), changed[0][0], changed[0][1], changed[1][1], final["standings"]))


def seed_look(url):
    """What the game page at `url` says of its seed, once its script has drawn it."""
    browser.open(url)
    for attempt in range(200):
        look = json.loads(browser.evaluate(
            "document.getElementById('again') ? %s : 'null'" % SEED_LOOK))
        if look and look["title"] != "Bananagrams game":
            assert not look["error"], look["error"]
            return look
        time.sleep(0.05)
    raise AssertionError("the page at %s was not drawn" % url)


# A finished game's page, as the server sent it: its deal's seed, digit for digit.
assert kept_page, "no finished game's page was offered"
with open(os.path.join(db + ".logs", "game-%06d.jsonl" % kept_page[0])) as f:
    start = json.loads(f.readline())["start"]
games = json.loads(subprocess.run([tournament, "games", "--db", db, "--json"], check=True,
                                  capture_output=True, text=True).stdout)
assert start["seed"] == [g["seed"] for g in games if g["id"] == kept_page[0]][0]
assert start["seed"] > 2**53, start["seed"]
served = seed_look("file://%s#step=last" % kept_page[1])
want = "Bananagrams game, seed %d, 2 players" % start["seed"]
assert served["title"] == want and served["window"] == want, (served, want)
assert served["again"] and shlex.split(served["again"]) == deal_again(start), \
    (served["again"], deal_again(start))
print("game %d's page: %s" % (kept_page[0], served["again"]))

# A game served by host --serve: the game's page follows it, its boards change while it plays,
# and at its end it shows the result --json prints.
LOOK_GAME = """document.readyState === "loading" || !document.getElementById("connection") ? "null" : JSON.stringify({
  error: document.body.dataset.error || null,
  connection: document.getElementById("connection").textContent,
  over: document.body.dataset.over === "1",
  title: document.getElementById("title").textContent,
  window: document.title,
  again: document.getElementById("again").hidden ? null :
      document.getElementById("replay").textContent,
  boards: Array.from(document.querySelectorAll("#boards section.player")).map(
      (s) => s.dataset.rows || ""),
  result: Array.from(document.querySelectorAll("#result tr")).slice(1).map(
      (tr) => tr.cells[1].textContent),
})"""
# The staircases peel once the page is live (they wait for a file of this test's, in a folder
# their commands name, so that the sandbox shows it to them), a peel every few hundredths of a
# second: the page is watched from the deal to the end.
gate = os.path.join(work, "gate")
os.makedirs(gate)
os.chmod(work, 0o755)
os.chmod(gate, 0o755)
shutil.copy(os.path.join(source, "tests", "bots", "test_bot.py"), gate)
shutil.copy(os.path.join(source, "tests", "bots", "staircase.py"), gate)
go = os.path.join(gate, "go")
paced = "exec python3 %s staircase --pace 0.05 --wait-for %s" % (
    os.path.join(gate, "test_bot.py"), go)
# Above 2^53: as a double, 18446744073709551616 (JavaScript prints 18446744073709552000).
seed = 18446744073709551557
two_letters = os.path.join(source, "tests", "data", "two_letters.txt")
host = subprocess.Popen(
    [os.path.join(build, "host"), "--serve", "127.0.0.1:0", "--seed", str(seed), "--json",
     "--quiet", "--dict", two_letters, paced, paced],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
said = host.stderr.readline()
port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", said).group(1))
browser.open("http://127.0.0.1:%d/" % port)
game_looks = []
for look in watch(LOOK_GAME, 120, 0.02):
    game_looks.append(look)
    if look["connection"] == "live" and not os.path.exists(go):
        open(go, "w").close()
result = json.loads(host.communicate(timeout=60)[0])
assert host.returncode == 0, host.returncode
playing = [l for l in game_looks if l["connection"] == "live" and not l["result"]]
assert playing, game_looks[:3]
assert "seed said at its end" in playing[0]["title"], playing[0]["title"]
assert all(l["again"] is None for l in playing), "a command with the seed before the end"
seen = {tuple(l["boards"]) for l in playing if any(l["boards"])}
assert len(seen) >= 2, ("no board was seen to change while the game played",
                        [(l["connection"], l["title"], l["boards"]) for l in game_looks[:5]],
                        len(game_looks), len(playing))
last = game_looks[-1]
assert last["over"] and last["connection"] == "over", last
want = "Bananagrams game, seed 18446744073709551557, 2 players"
assert last["title"] == want and last["window"] == want, (last["title"], last["window"])
assert result["seed"] == seed, result["seed"]
words = ["host", "--seed", "18446744073709551557", "--dict", two_letters, paced, paced]
assert last["again"] and shlex.split(last["again"]) == words, (last["again"], words)
assert [r.split(":")[0] for r in last["result"]] == [p["outcome"] for p in result["players"]], \
    (last["result"], result["players"])
browser.close()
print("live game page: %d looks, %d boards seen; result %s; %s" %
      (len(game_looks), len(seen), last["result"], last["again"]))
# What is left of Chromium's helpers may take a moment to go from its profile.
for attempt in range(50):
    try:
        shutil.rmtree(work)
        break
    except OSError:
        time.sleep(0.1)
else:
    shutil.rmtree(work)
