#!/usr/bin/env python3
"""The game and report pages in a real browser: headless Chromium (Debian's chromium) loads the
pages written by `host --html` and `tournament report`, and its DOM is checked against the log
and the database; screenshots of both pages are kept.

    viewer_test.py BUILD_DIR SOURCE_DIR OUT_DIR

- The game page: no script error; stepped to the end (#step=last), every player's board holds
  the grid of the result, letter for letter (within the tiles' bounding box); at a stale peel
  (#step=SEQ) it names the tiles the log names; a bot whose command is markup shows it as text.
- The report: its standings are `tournament standings --json`'s, its games link to pages that
  load; a bot named as markup is text.
- Seeds above 2^53 (a JavaScript number would round them): a game page (`host --seed S
  --html`) and a report's game page (its deal's seed) say the seed digit for digit in the
  window's title, the heading and the command that deals the game again, which gives the
  game's options and commands back through sh.
"""
import html.parser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

build, source, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
host = os.path.join(build, "host")
tournament = os.path.join(build, "tournament")
chromium = shutil.which("chromium") or sys.exit("viewer_test: chromium is not installed")
HOSTILE = '</script><img src=x onerror="document.body.dataset.pwned=1">'
# Above 2^53: as a double it is 18446744073709551616, which JavaScript prints
# 18446744073709552000.
BIG_SEED = 18446744073709551557


def browse(url, *extra):
    """The DOM after the page's scripts ran, and the console's complaints."""
    run = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                          "--enable-logging=stderr", "--v=0", *extra, url],
                         capture_output=True, text=True, timeout=120)
    errors = [line for line in run.stderr.splitlines()
              if "CONSOLE" in line and ("Uncaught" in line or "Error" in line)]
    return run.stdout, errors


def dom(url):
    page, errors = browse(url, "--dump-dom")
    assert page.strip(), "chromium printed no DOM for " + url
    assert not errors, errors
    assert "data-error" not in page, re.findall(r'data-error="[^"]*"', page)
    assert "data-pwned" not in page
    return page


class Elements(html.parser.HTMLParser):
    """Every element's tag and attributes, and the text inside those with an id."""
    def __init__(self):
        super().__init__()
        self.elements = []
        self.text = {}
        self.open = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        self.open.append(dict(attrs).get("id"))

    def handle_endtag(self, tag):
        if self.open:
            self.open.pop()

    def handle_data(self, data):
        for name in self.open:
            if name:
                self.text[name] = self.text.get(name, "") + data


def parse(page):
    p = Elements()
    p.feed(page)
    return p


def bounding_rows(grid):
    """The rows of a grid's tiles within their bounding box, as the page draws them."""
    if not grid:
        return ""
    w, h, cells = int(grid[:3]), int(grid[3:6]), grid[6:]
    spots = [(x, y) for y in range(h) for x in range(w) if cells[y * w + x] != "."]
    if not spots:
        return ""
    left, right = min(x for x, _ in spots), max(x for x, _ in spots)
    top, bottom = min(y for _, y in spots), max(y for _, y in spots)
    return "|".join(cells[y * w + left:y * w + right + 1] for y in range(top, bottom + 1))


def seed_shown(page, start):
    """A game page (its DOM) says the seed of its log's start record digit for digit: in the
    window's title, in its heading and in the command that deals the game again, which sh reads
    back as the game's seed, options and commands."""
    shown = parse(page)
    seed = start["seed"]
    want = "Bananagrams game, seed %d, %d players" % (seed, len(start["players"]))
    title = re.search(r"<title>([^<]*)</title>", page).group(1)
    assert html.unescape(title) == want, (title, want)
    assert shown.text.get("title") == want, (shown.text.get("title"), want)
    again = [a for tag, a in shown.elements if a.get("id") == "again"][0]
    assert "hidden" not in again, "no command to deal the game again"
    words = ["host", "--seed", str(seed)]
    if start["sets"] != 1:
        words += ["--sets", str(start["sets"])]
    if start["dictionary"]:
        words += ["--dict", start["dictionary"]]
    if start["game_timeout_ms"] != 600000:
        words += ["--game-timeout", "%g" % (start["game_timeout_ms"] / 1000)]
    if start.get("stall_timeout_ms", 0) != 30000:  # none before log version 4
        words += ["--stall-timeout", "%g" % (start.get("stall_timeout_ms", 0) / 1000)]
    command = shown.text.get("replay", "")
    assert shlex.split(command) == words + start["players"], (command, words)
    return command


work = tempfile.mkdtemp(prefix="bg-viewer-")
os.chmod(work, 0o755)
try:
    # A real game with a stale peel: the reference bot in both protocols race for every tile.
    players = ["exec %s/reference_bot" % build, "exec %s/reference_bot --legacy" % build,
               "exec python3 %s/tests/bots/test_bot.py staircase --tag '%s'" % (source, HOSTILE)]
    for seed in range(276, 316):
        log, page = os.path.join(work, "game.jsonl"), os.path.join(work, "game.html")
        subprocess.run([host, "--quiet", "--seed", str(seed), "--log", log, *players],
                       check=True, capture_output=True)
        records = [json.loads(line) for line in open(log)]
        stale = [r for r in records if r.get("decision", {}).get("type") == "peel_stale"]
        dumps = [r for r in records if r.get("decision", {}).get("type") == "dumped"]
        if stale and dumps:
            break
    assert stale and dumps, "no game with a stale peel and a dump in forty"
    subprocess.run([host, "--replay", log, "--html", page, "--quiet"], check=True,
                   capture_output=True)
    result = records[-1]["result"]

    end = parse(dom("file://%s#step=last" % page))
    boards = {int(a["data-player"]): a.get("data-rows", "")
              for tag, a in end.elements if "data-player" in a}
    assert sorted(boards) == [0, 1, 2], boards
    for i, player in enumerate(result["players"]):
        assert boards[i] == bounding_rows(player["grid"]), (i, boards[i], player["grid"])
    assert not any(tag == "img" for tag, _ in end.elements), "markup from a command ran"
    assert HOSTILE in end.text.get("boards", ""), "the hostile command is not shown as text"
    assert "game over" in end.text.get("current", "")
    # Whether its race was fair (log version 7): said under the result, as the result has it.
    fair = [a for tag, a in end.elements if a.get("id") == "contention"][0]
    assert fair["data-contended"] == json.dumps(result["contended"]), (fair, result["contended"])
    assert end.text.get("contention"), "the page does not say whether the race was contended"
    # The bunch chart: the bunch after the deal, two fewer at each dump, a disqualified
    # player's tiles back, and what every accepted peel and refused dump says.
    bunch, hands = [], {}
    for r in records:
        d = r.get("decision", {})
        if d.get("type") == "hands_dealt":
            hands = {p: len(h) for p, h in enumerate(d["hands"])}
            bunch.append(144 * records[0]["start"]["sets"] - sum(hands.values()))
        elif d.get("type") == "dumped":
            hands[d["player"]] += 2
            bunch.append(bunch[-1] - 2)
        elif d.get("type") == "disqualified" and d["player"] in hands:
            bunch.append(bunch[-1] + hands.pop(d["player"]))
        elif d.get("type") == "peel_accepted":
            # The model holds: a peel takes one tile for each player still in (none when there
            # are fewer than players: the peel that ends the game).
            taken = len(hands) if bunch[-1] >= len(hands) else 0
            assert d["bunch"] == bunch[-1] - taken, (r, bunch[-1], hands)
            hands = {p: size + (taken > 0) for p, size in hands.items()}
            bunch.append(d["bunch"])
        elif d.get("type") == "dump_refused":
            bunch.append(d["bunch"])
    bunch.append(result["bunch"])
    assert all(b >= 0 for b in bunch), bunch
    chart = [a for tag, a in end.elements if a.get("id") == "bunch"][0]
    assert chart["data-bunch"] == ",".join(map(str, bunch)), (chart["data-bunch"], bunch)

    at = parse(dom("file://%s#step=%d" % (page, stale[0]["seq"])))
    wanted = "its grid lacks " + stale[0]["decision"]["unseen"]
    assert wanted in at.text.get("current", ""), (wanted, at.text.get("current"))
    print("game page: %d boards equal the result, stale peel names %s, the bunch chart has %d dumps"
          % (len(boards), stale[0]["decision"]["unseen"], len(dumps)))
    browse("file://%s#step=last" % page, "--screenshot=%s" % os.path.join(out, "game.png"),
           "--window-size=1400,900")

    # A live game's page, its log kept in memory only.
    live = os.path.join(work, "live.html")
    played = subprocess.run([host, "--quiet", "--json", "--seed", "9", "--html", live,
                             *players[:2]], check=True, capture_output=True, text=True)
    boards = {int(a["data-player"]): a.get("data-rows", "")
              for tag, a in parse(dom("file://%s#step=last" % live)).elements
              if "data-player" in a}
    assert [boards[i] for i in range(2)] == \
        [bounding_rows(p["grid"]) for p in json.loads(played.stdout)["players"]]

    # A seed above 2^53, and a command quoted for sh (the hostile one holds quotes).
    big_log, big = os.path.join(work, "big.jsonl"), os.path.join(work, "big.html")
    subprocess.run([host, "--quiet", "--seed", str(BIG_SEED), "--log", big_log, "--html", big,
                    *players], check=True, capture_output=True)
    start = json.loads(open(big_log).readline())["start"]
    assert start["seed"] == BIG_SEED and start["players"] == players, start
    command = seed_shown(dom("file://%s#step=last" % big), start)
    print("game page of seed %d: %s" % (BIG_SEED, command))

    # A tournament's report, with a bot named as markup.
    db, logs, report = (os.path.join(work, n) for n in ("t.db", "logs", "report.html"))
    name = "<script>alert(1)</script><b>"  # a bot name holds no spaces and no "="
    bot = "exec python3 %s/tests/bots/test_bot.py" % source
    subprocess.run([tournament, "run", "--db", db, "--logs", logs, "--dict",
                    os.path.join(source, "tests/data/two_letters.txt"), "--game-timeout", "1",
                    "--bot", "a=%s staircase" % bot, "--bot", "b=%s staircase" % bot,
                    "--bot", "%s=%s peel-once" % (name, bot)], check=True, capture_output=True)
    subprocess.run([tournament, "report", "--db", db, "--html", report], check=True,
                   capture_output=True)
    standings = json.loads(subprocess.run([tournament, "standings", "--db", db, "--json"],
                                          check=True, capture_output=True, text=True).stdout)
    shown = parse(dom("file://" + report))
    rows = [a for tag, a in shown.elements if tag == "tr" and "data-bot" in a]
    assert [r["data-bot"] for r in rows] == [b["name"] for b in standings["bots"]]
    for r, b in zip(rows, standings["bots"]):
        assert r["data-elo"] == "%.3f" % b["elo"], (r, b)
        assert int(r["data-wins"]) == b["wins"] and int(r["data-games"]) == b["games"]
    # The page's own four scripts (data, error hook, grid, report) and no element from the name.
    assert sum(tag == "script" for tag, _ in shown.elements) == 4, "markup from a bot's name"
    assert not any(tag == "b" for tag, _ in shown.elements), "markup from a bot's name"
    assert name in shown.text.get("standings", "")
    links = [a["href"] for tag, a in shown.elements if tag == "a" and "href" in a]
    assert len(links) == standings["games"], links
    # Its game pages say their deal's seed, above 2^53 as nearly every one is (SplitMix64).
    games = {g["id"]: g for g in json.loads(subprocess.run(
        [tournament, "games", "--db", db, "--json"], check=True, capture_output=True,
        text=True).stdout)}
    big_games = [link for link in links
                 if games[int(re.search(r"game-(\d+)\.html", link).group(1))]["seed"] > 2**53]
    assert big_games, [g["seed"] for g in games.values()]
    game = games[int(re.search(r"game-(\d+)\.html", big_games[0]).group(1))]
    with open(os.path.join(logs, "game-%06d.jsonl" % game["id"])) as f:
        start = json.loads(f.readline())["start"]
    assert start["seed"] == game["seed"], (start["seed"], game["seed"])
    seed_shown(dom("file://" + os.path.join(work, big_games[0]) + "#step=last"), start)
    dom("file://" + os.path.join(work, links[0]) + "#step=last")
    # What each rating is, and a scale under the ratings.
    assert "fitted to the standings of every game" in shown.text.get("elo-note", "")
    ticks = [a for tag, a in shown.elements if tag == "text" and a.get("class") == "tick"]
    assert len(ticks) >= 3, ticks
    print("report: %d bots as standings --json says, %d game pages, %d ticks on the ratings; "
          "game %d's page says its seed %d" % (len(rows), len(links), len(ticks), game["id"],
                                               game["seed"]))

    # Two bots: the pair line with its likelihood of superiority, and what it is.
    pair_db, pair_report = os.path.join(work, "pair.db"), os.path.join(work, "pair.html")
    subprocess.run([tournament, "run", "--db", pair_db, "--deals", "3", "--dict",
                    os.path.join(source, "tests/data/two_letters.txt"), "--game-timeout", "1",
                    "--bot", "a=%s staircase" % bot, "--bot", "b=%s staircase" % bot],
                   check=True, capture_output=True)
    subprocess.run([tournament, "report", "--db", pair_db, "--html", pair_report], check=True,
                   capture_output=True)
    pairs = json.loads(subprocess.run([tournament, "standings", "--db", pair_db, "--json"],
                                      check=True, capture_output=True, text=True).stdout)["pairs"]
    shown = parse(dom("file://" + pair_report))
    line = [a for tag, a in shown.elements if a.get("id") == "pair-line"][0]
    assert line["data-los"] == "%.4f" % pairs["los"], (line, pairs)
    assert "likelihood of superiority %.1f%%" % (100 * pairs["los"]) in shown.text["pairs"]
    assert "on game pairs alone" in shown.text["pairs"]
    print("report of two bots: likelihood of superiority %.1f%%" % (100 * pairs["los"]))
    browse("file://" + report, "--screenshot=%s" % os.path.join(out, "report.png"),
           "--window-size=1200,1100")
finally:
    shutil.rmtree(work)
