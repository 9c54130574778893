"""A season of the arena, end to end (docs/arena.md, "Seasons"): six house bots, the best
three of its board finalists of known order (the reference bot at full strength; two copies
of a bot that never moves, which cannot be told apart), on the season's board in the wrong
order (no one played while it was open: every rating is the first belief, ranked by name),
and three more below the cut (the example player and two of the reference bot's slow
levels). The season closes; its board is frozen with its tiers, its best three play the
finals by paired deals (every deal both ways), which narrow to the top two and stop once
settled; the arena is SIGKILLed mid-finals and started
again, and goes on where it was with nothing rated twice; the frozen standings put the full
strength first, ahead, and say the copies cannot be told apart; `arena rerate` recomputes the
season as frozen; the API and `season show` say the same, and so does its page in headless
Chromium, reached from the seasons' page by its link, at a desktop's width and a phone's (no
sideways page, every column in view, touch targets 44 px tall); and a bot's page says its tier
and its place in the finals.

usage: arena_season_test.py BUILD_DIR [SCREENSHOT_DIR]"""
import collections
import json
import os
import shutil
import signal
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_support import ArenaRun  # noqa: E402
from browser import Browser  # noqa: E402

build = sys.argv[1]
shots = sys.argv[2] if len(sys.argv) > 2 else None
chromium = shutil.which("chromium") or sys.exit("arena_season_test: chromium is not installed")
t = ArenaRun("arena_season_test", build)
reference = os.path.join(t.build, "reference_bot")
example = os.path.join(t.build, "example_player_cpp")
idle = "sh -c 'printf r; exec cat >/dev/null'"  # ready, and never a move: out of every race

try:
    # No one comes to play while the season is open: every rating on its board is the first
    # belief, ranked in the order of the names, the known order reversed (the copies first).
    for name, command in (("a-still", idle), ("b-still", idle), ("c-full", reference),
                          ("d-example", example), ("e-level4", reference + " --level 4"),
                          ("f-level3", reference + " --level 3")):
        t.run("bot", "add", name, "--command", command)
    # Three rounds a stage, each of every pair both ways: the first stage cannot settle the
    # full strength's lead in three (a pair of wins is worth at most 0.68 of the log-likelihood
    # ratio's 2.20), so the finals narrow to the top two, which one more settles; the copies
    # draw every game (no one moves) and are even after two. (The example player is no middle
    # level: on a loaded machine it is out of time against a bot that never moves, holding more
    # tiles after its dumps.)
    t.run("season", "add", "autumn", "--closes", "+4s", "--stages", "3,2",
          "--finals-deals", "3", "--finals-sprt", "elo0=0 elo1=400 alpha=0.1 beta=0.1",
          "--tiers", "top:20,middle:60,rest:100")
    listed = t.run("season", "list")
    t.check("autumn" in listed and "open" in listed, "season list: %s" % listed)
    served = t.serve("--game-timeout", "6", "--ready-timeout", "10", "--house-seats", "2",
                     "--cores", "4")
    t.wait_until(lambda: t.api("/api/seasons/autumn")["state"] == "finals", 60,
                 "the season closed")
    season = t.api("/api/seasons/autumn")
    board = season["board"]
    t.check(board["frozen"] and board["matches"] == 0, "the frozen board: %s" % board)
    names = [row["name"] for row in board["bots"]]
    t.check(names == ["a-still", "b-still", "c-full", "d-example", "e-level4", "f-level3"],
            "the board's order at the close: %s" % names)
    t.check([row["finalist"] for row in board["bots"]] == [True] * 3 + [False] * 3,
            "the finalists: %s" % board["bots"])
    t.check([row["tier"] for row in board["bots"]] ==
            ["top", "top", "middle", "middle", "rest", "rest"], "the tiers: %s" % board["bots"])
    t.check(season["rules"]["seed"] is None, "the finals' seed shown before they are over")

    # Killed once some finals matches are rated; started again, it goes on.
    t.wait_until(lambda: (t.api("/api/seasons/autumn")["finals"] or {}).get("rounds", 0) >= 1,
                 180, "the finals' first round")
    served.send_signal(signal.SIGKILL)
    served.wait()
    shown = t.run("season", "show", "autumn")
    t.check("finals: playing, stage 1 of 2" in shown, "season show mid-finals: %s" % shown)
    served = t.serve("--game-timeout", "6", "--ready-timeout", "10", "--house-seats", "2",
                     "--cores", "4")
    t.wait_until(lambda: t.api("/api/seasons/autumn")["state"] == "over", 400,
                 lambda: "the finals over: %s" % t.api("/api/seasons/autumn")["finals"])
    # Its page, as a person reads it: at a desktop's width and a phone's, the API's places.
    browser = Browser(chromium, os.path.join(t.work, "profile"))
    browser.open("http://127.0.0.1:%d/seasons" % served.port)
    drawn = "Number(document.body && document.body.dataset.drawn || 0) > 0"
    t.wait_until(lambda: browser.evaluate(drawn), 30, "the seasons' page drawn")
    browser.click('a[href="/seasons/autumn"]')
    t.wait_until(lambda: browser.evaluate("document.title").startswith("Season autumn") and
                 browser.evaluate(drawn), 30, "the season's page, from its link")
    shown = json.loads(browser.evaluate("""JSON.stringify({failed: document.body.dataset.failed ||
        null, finals: [...document.querySelectorAll("#finals tr[data-name]")].map((r) =>
        [r.dataset.name, r.dataset.verdict]), bots: [...document.querySelectorAll(
        "#bots tr[data-name]")].map((r) => r.dataset.name)})"""))
    places = t.api("/api/seasons/autumn")["finals"]["places"]
    t.check(not shown["failed"] and shown["finals"] == [[p["name"], p["against_next"]]
                                                        for p in places] and
            shown["bots"] == names, "the season's page: %s, the API's %s" % (shown, places))
    if shots:
        browser.screenshot(os.path.join(shots, "arena-season-page.png"))
    browser.viewport(390, 844, phone=True)
    time.sleep(0.4)
    layout = browser.layout()
    t.check(layout["width"] <= 390 and all(right <= 390 for _, right in layout["columns"]) and
            not layout["small"] and not layout["wire"], "the season's page on a phone: %s" % layout)
    if shots:
        browser.screenshot(os.path.join(shots, "arena-season-page-phone.png"))
    # A bot's page says its tier and its place in the finals.
    own = t.api("/api/bots/c-full")["seasons"]
    t.check(own == [{"season": "autumn", "state": "over", "rank": 3, "tier": "middle",
                     "finalist": True, "finals_place": 1}], "c-full's seasons: %s" % own)
    browser.viewport(1280, 900)
    browser.open("http://127.0.0.1:%d/bots/c-full" % served.port)
    t.wait_until(lambda: browser.evaluate(drawn), 30, "c-full's page drawn")
    row = browser.evaluate("document.querySelector('#seasons tr:nth-child(2)').innerText")
    t.check("autumn" in row and "middle" in row and "place 1" in row, "c-full's page: %s" % row)
    if shots:  # its seasons, at both widths, for a person to look at
        browser.evaluate("document.getElementById('seasons-part').scrollIntoView()")
        browser.screenshot(os.path.join(shots, "bot-page-seasons.png"))
        browser.viewport(390, 844, phone=True)
        time.sleep(0.4)
        browser.evaluate("document.getElementById('seasons-part').scrollIntoView()")
        browser.screenshot(os.path.join(shots, "bot-page-seasons-phone.png"))
    browser.close()
    served.send_signal(signal.SIGTERM)
    t.check(served.wait(timeout=60) == 0, "the arena after SIGTERM")

    season = json.loads(t.run("season", "show", "autumn", "--json"))
    finals = season["finals"]
    places = finals["places"]
    order = [p["name"] for p in places]
    t.check(finals["over"] and finals["stage"] == 2, "the finals narrowed and ended: %s" % finals)
    t.check(order[0] == "c-full" and places[0]["against_next"] == "ahead",
            "the full strength first, settled: %s" % places)
    t.check(set(order[1:]) == {"a-still", "b-still"} and places[1]["against_next"] == "even",
            "the copies after it, and even: %s" % places)
    t.check(places[0]["stage"] == 2 and places[1]["stage"] == 2 and places[2]["stage"] == 1,
            "the top two played the second stage: %s" % places)
    t.check(season["rules"]["seed"] is not None, "the finals' seed once they are over")

    # Nothing rated twice: each pair once a round; the match the kill cut short void and
    # played again.
    with sqlite3.connect(t.db) as db:
        rows = db.execute("SELECT f.stage, f.round, m.state, group_concat(e.entry_id) FROM "
                          "finals_matches f JOIN matches m ON m.id = f.match_id LEFT JOIN "
                          "match_entries e ON e.match_id = m.id GROUP BY m.id").fetchall()
        seeds = db.execute("SELECT f.stage, f.round, COUNT(DISTINCT m.seed) FROM finals_matches "
                           "f JOIN matches m ON m.id = f.match_id GROUP BY f.stage, f.round"
                           ).fetchall()
    rated = collections.Counter((s, r, tuple(sorted(e.split(",")))) for s, r, state, e in rows
                                if state == "rated")
    t.check(rated and max(rated.values()) == 1, "a finals pair rated twice in a round: %s" % rows)
    # Three rounds of the first stage's three pairs, and the second stage's rounds of one.
    t.check(len(rated) == 3 * 3 + finals["rounds"] and finals["rounds"] >= 1,
            "every pair of each round rated: %s, %s" % (sorted(rated), finals))
    t.check(all(n == 1 for _, _, n in seeds), "one deal a round: %s" % seeds)
    t.check(all(state in ("rated", "void") for _, _, state, _ in rows), "a finals match left "
            "running: %s" % rows)

    rerate = t.run("rerate")
    t.check("the 1 seasons closed are exactly as frozen" in rerate, "rerate: %s" % rerate)
finally:
    t.end()
print("arena_season_test: all passed")
