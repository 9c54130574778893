#!/usr/bin/env python3
"""A person's seat in headless Chromium (docs/remote.md): the /play page driven as a person
drives it, with clicks and keys (tests/browser.py), never the protocol underneath.

    play_page_test.py BUILD_DIR SOURCE_DIR OUT_DIR

- A whole game against the reference bot at its lowest level, on a list of every two-letter
  string (so that a staircase of tiles is always legal): each tile laid by clicking a square and
  typing its letter, a peel by Enter, a dump by clicking a tile and the Dump button; to
  bananas. The page shows the end, the host's result is to bananas, and the log replays to it.
- A grid the host refuses (a tile not joined to the rest): the page shows the host's reason.
- A screenshot taken during the game is kept (OUT_DIR/play.png).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from browser import Browser

build, source, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
host = os.path.join(build, "host")
reference = os.path.join(build, "reference_bot")
two_letters = os.path.join(source, "tests", "data", "two_letters.txt")
chromium = shutil.which("chromium") or sys.exit("play_page_test: chromium is not installed")
work = tempfile.mkdtemp(prefix="play-page-test-")
TOKEN = "a_person_at_the_page_0001"

LOOK = """!document.getElementById("said") ? "null" : JSON.stringify({
  error: document.body.dataset.error || null,
  phase: document.body.dataset.phase,
  hand: document.body.dataset.hand || "",
  tiles: Number(document.body.dataset.tiles || 0),
  outcome: document.body.dataset.outcome || null,
  reason: document.getElementById("reason").textContent,
  status: document.getElementById("status").textContent,
  said: document.getElementById("said").textContent,
})"""


def check(condition, what):
    if not condition:
        sys.exit("play_page_test: " + what)


def start(log, *players):
    game = subprocess.Popen([host, "--serve", "127.0.0.1:0", "--dict", two_letters, "--log", log,
                             "--json", "--quiet", "--ready-timeout", "30", "--stall-timeout",
                             "120", *players], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    while True:
        line = game.stderr.readline()
        check(line, "the host said no seat")
        found = re.search(r"a person opens (http://127\.0\.0\.1:\d+/play#\S+)", line)
        if found:
            return game, found.group(1)


def look(browser):
    seen = json.loads(browser.evaluate(LOOK))
    if seen is None:  # not loaded yet
        return {"phase": None, "hand": "", "tiles": 0, "outcome": None, "said": "", "reason": ""}
    check(seen["error"] is None, "the page failed: %s" % seen["error"])
    return seen


def wait_for(browser, ready, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        seen = look(browser)
        if ready(seen):
            return seen
        time.sleep(0.05)
    check(False, "%s: the page shows %s" % (what, look(browser)))


def square(i):
    """Where the i-th tile of a staircase goes (row r holds tiles r and r + 1 of it): every
    pair across and down is a two-letter word, and every tile is joined."""
    row = i // 2
    return 1 + row + i % 2, 1 + row


def lay(browser, letter, x, y):
    browser.click('#board .square[data-x="%d"][data-y="%d"]' % (x, y))
    browser.press(letter.lower())


browser = Browser(chromium, os.path.join(work, "profile"))
try:
    # A whole game, to bananas.
    log = os.path.join(work, "game.jsonl")
    game, url = start(log, "remote:" + TOKEN, reference + " --level 1")
    browser.open(url)
    seen = wait_for(browser, lambda s: s["phase"] == "playing", 30, "no hand")
    # A dump: a tile of the hand taken with the mouse, and the Dump button.
    before = seen["tiles"]
    browser.click("#hand .tile")
    browser.click("#dump")
    seen = wait_for(browser, lambda s: "your dump" in s["said"], 20, "the dump")
    check(seen["tiles"] >= before, "the dump: %s" % seen)
    laid = 0
    shot = False
    while True:
        for letter in seen["hand"]:
            lay(browser, letter, *square(laid))
            laid += 1
        seen = look(browser)
        if seen["phase"] == "over":
            break
        check(seen["hand"] == "", "tiles left in the hand after laying them: %s" % seen)
        if not shot and laid > 30:
            browser.screenshot(os.path.join(out, "play.png"))
            shot = True
        tiles = seen["tiles"]
        browser.press("Enter")
        # A peel brings a tile (or, the bunch empty, the end); a stale one, the tiles it lacked.
        seen = wait_for(browser, lambda s: s["tiles"] > tiles or s["phase"] == "over", 60,
                        "after a peel")
        if seen["phase"] == "over":
            break
    out_text, err = game.communicate(timeout=60)
    check(game.returncode == 0, "the host exited %d: %s" % (game.returncode, err))
    result = json.loads(out_text)
    check(result["end"] == "bananas", "not to bananas: %s" % result["end"])
    person = result["players"][0]
    check(person["remote"]["connections"] == 1 and person["peels"] > 0, "the person: %s" % person)
    seen = wait_for(browser, lambda s: s["outcome"] is not None, 10, "no end shown")
    check(seen["outcome"] == ("W" if result["winner"] == 0 else "L"), "the end: %s" % seen)
    replay = subprocess.run([host, "--replay", log, "--json", "--quiet"], capture_output=True,
                            text=True, timeout=60)
    check(replay.returncode == 0 and json.loads(replay.stdout) == result, "the log's replay")
    check(shot, "no screenshot")

    # A grid refused: the last tile apart from the rest.
    log = os.path.join(work, "refused.jsonl")
    game, url = start(log, "remote:" + TOKEN, reference + " --level 1")
    browser.open(url)
    seen = wait_for(browser, lambda s: s["phase"] == "playing", 30, "no hand")
    for i, letter in enumerate(seen["hand"][:-1]):
        lay(browser, letter, *square(i))
    lay(browser, seen["hand"][-1], 40, 40)
    browser.press("Enter")
    seen = wait_for(browser, lambda s: s["phase"] == "over", 30, "no end after a bad grid")
    check(seen["outcome"] == "Q" and "is not joined" in seen["reason"],
          "the reason shown: %s" % seen)
    game.communicate(timeout=60)
finally:
    browser.close()
shutil.rmtree(work, ignore_errors=True)
print("play_page_test: all passed")
