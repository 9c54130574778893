#!/usr/bin/env python3
"""A person's seat in headless Chromium (docs/remote.md): the /play page driven as a person
drives it (tests/browser.py), at a desktop's 1280x800 with the mouse and the keyboard and at a
phone's 390x844 with a finger's taps, never the protocol underneath. Each game is on a list of
every two-letter string, where a staircase of tiles is always legal and any longer run is not a
word.

    play_page_test.py BUILD_DIR SOURCE_DIR OUT_DIR

- At each size, a whole game against the reference bot at level 1, to bananas: every tile laid
  by hand, a peel after each tile dealt; first a tile dragged onto the board and back (the
  mouse's, a finger's), and the hand shown as a stack a letter. After every action the hand is in view (the tray within
  the screen, the page no wider than it) and the page agrees with the host: the person's player
  number, the bunch from the deal on, the tiles held. The host's result is bananas, the page
  shows the end and how it came, and the log replays to the result.
- At the desktop: a grid the page's check refuses (a run of three letters, a tile joined to
  nothing) is marked on the board and named, and not sent; fixed, it goes. A word typed through a
  tile laid before passes it. A tile taken from the
  board goes back to the hand when the hand is clicked, even on one of its tiles; a red message
  goes once the person lays a tile. A reload in the middle of the game comes back to it, every
  tile where it was, and so does the page opened again after its tab was closed; the game goes
  on (three connections in the result, the person still in).
- Against the reference bot at level 4, which peels while the person lays their first grid: the
  page shows its peel and the tile it dealt, says whose peel it was, and counts its peels as the
  host does.
- A grid sent anyway (Send anyway): the host refuses it, the page says the person is out, and
  marks on the board the tile the host named.
- At the phone: a tile dumped with a finger and the Dump button, its three tiles in the hand.
- Screenshots: OUT_DIR/play-desktop.png and play-phone.png while playing, play-marked.png of a
  grid refused by the page's check (docs/remote.md shows them).
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

LOOK = """document.readyState === "loading" || !document.getElementById("said") ? "null" : JSON.stringify({
  error: document.body.dataset.error || null,
  phase: document.body.dataset.phase || null,
  hand: document.body.dataset.hand || "",
  tiles: Number(document.body.dataset.tiles || 0),
  marked: Number(document.body.dataset.marked || 0),
  words: Number(document.body.dataset.words || 0),
  outcome: document.body.dataset.outcome || null,
  you: document.getElementById("you").textContent,
  others: document.getElementById("others").textContent,
  opponent_peels: Number(document.getElementById("others").dataset.peels || 0),
  bunch: document.getElementById("bunch").dataset.count,
  status: document.getElementById("status").textContent,
  status_bad: document.getElementById("status").className === "bad",
  said: document.getElementById("said").textContent,
  how: document.getElementById("how").textContent,
  end_shown: !document.getElementById("end").hidden,
  board: [...document.querySelectorAll("#board .square.tile")]
    .map((s) => s.dataset.x + "," + s.dataset.y + s.textContent).sort().join(" "),
  in_view: (() => {
    const tray = document.getElementById("tray").getBoundingClientRect();
    const hand = document.getElementById("hand").getBoundingClientRect();
    return tray.top >= 0 && tray.bottom <= innerHeight + 1 && hand.bottom <= innerHeight + 1 &&
      document.documentElement.scrollWidth <= innerWidth;
  })(),
})"""


def check(condition, what):
    if not condition:
        sys.exit("play_page_test: " + what)


def start(log, token, *players):
    game = subprocess.Popen([host, "--serve", "127.0.0.1:0", "--dict", two_letters, "--log", log,
                             "--json", "--quiet", "--ready-timeout", "30", "--stall-timeout",
                             "120", "remote:" + token, *players], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    while True:
        line = game.stderr.readline()
        check(line, "the host said no seat")
        found = re.search(r"a person opens (http://127\.0\.0\.1:\d+/play#\S+)", line)
        if found:
            return game, found.group(1)


def finished(game):
    out_text, err = game.communicate(timeout=60)
    check(game.returncode == 0, "the host exited %d: %s" % (game.returncode, err))
    return json.loads(out_text)


NOT_YET = {"error": None, "phase": None, "hand": "", "tiles": 0, "marked": 0, "words": 0,
           "outcome": None, "said": "", "status": "", "in_view": True, "opponent_peels": 0}


def look(browser):
    """What the page shows; while it loads (its script not run yet, or the page still
    navigating: a reload's, which Chromium answers "Inspected target navigated or closed"), as
    good as nothing."""
    seen = browser.evaluate_settled(LOOK)
    seen = json.loads(seen) if seen is not None else None
    seen = dict(NOT_YET, **(seen or {}))
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


def replays_to(log, result):
    replay = subprocess.run([host, "--replay", log, "--json", "--quiet"], capture_output=True,
                            text=True, timeout=60)
    check(replay.returncode == 0 and json.loads(replay.stdout) == result, "the log's replay")


def square(i):
    """Where the i-th tile of a staircase goes (row r holds tiles r and r + 1 of it): every
    pair across and down is a two-letter word, and every tile is joined."""
    row = i // 2
    return 1 + row + i % 2, 1 + row


SQUARE = '#board .square[data-x="%d"][data-y="%d"]'


class Person:
    """A person at the page: at a desktop (a mouse's clicks and the keyboard) or at a phone (a
    finger's taps: a tile of the hand, then a square)."""

    def __init__(self, browser, phone):
        self.browser, self.phone = browser, phone
        self.touch = browser.tap if phone else browser.click

    def lay(self, letter, x, y):
        if self.phone:
            self.touch('#hand .tile[data-letter="%s"]' % letter)
            self.touch(SQUARE % (x, y))
        else:
            self.touch(SQUARE % (x, y))
            self.browser.press(letter.lower())
        seen = look(self.browser)
        check(seen["in_view"], "the hand is out of view: %s" % seen)
        return seen

    def peel(self):
        if self.phone:
            self.touch("#peel")
        else:
            self.browser.press("Enter")


def play_to_the_end(person, seen, laid, shoot=None):
    """Lays each tile of the hand on the staircase and peels, until the game is over; how many
    tiles were laid. `shoot` is called once, with a dozen tiles laid and the rest in the hand."""
    while True:
        # Until the hand is empty: another player's peel may deal a tile meanwhile.
        while seen["hand"] and seen["phase"] != "over":
            seen = person.lay(seen["hand"][0], *square(laid))
            laid += 1
            if shoot and laid == 12:
                shoot()
        if seen["phase"] == "over":
            return laid
        tiles = seen["tiles"]
        person.peel()
        # A peel brings a tile (or, the bunch empty, the end); a stale one, the tiles it lacked.
        seen = wait_for(person.browser, lambda s: s["tiles"] > tiles or s["phase"] == "over",
                        60, "after a peel")
        check(seen["in_view"], "the hand is out of view: %s" % seen)
        if seen["phase"] == "over":
            return laid


def a_whole_game(browser, phone):
    """A whole game against level 1, at the desktop with a detour through the page's check, a
    tile taken back and a reload."""
    log = os.path.join(work, "game-%s.jsonl" % ("phone" if phone else "desktop"))
    token = "a_person_at_the_page_%s" % ("phone" if phone else "desk")
    game, url = start(log, token, reference + " --level 1")
    browser.open("about:blank")
    browser.viewport(*((390, 844) if phone else (1280, 800)), phone=phone)
    browser.call("Page.navigate", url=url)
    seen = wait_for(browser, lambda s: s["phase"] == "playing" and s["words"] > 0, 30, "no hand")
    check(seen["you"] == "You are player 1 of 2" and seen["bunch"] == "102"
          and seen["others"] == "Player 2: 0 peels, 21 tiles" and seen["in_view"],
          "the deal: %s" % seen)
    # The hand as stacks, a letter each, its count on it.
    stacks = json.loads(browser.evaluate("""JSON.stringify([...document.querySelectorAll(
        "#hand .tile")].map((t) => [t.dataset.letter, Number(t.dataset.count)]))"""))
    check([letter for letter, _ in stacks] == sorted(set(seen["hand"]))
          and sum(n for _, n in stacks) == 21, "the hand's stacks: %s" % stacks)
    # A tile dragged onto the board, and dragged back onto the hand.
    letter = seen["hand"][0]
    browser.drag('#hand .tile[data-letter="%s"]' % letter, SQUARE % (0, 0), touch=phone)
    seen = look(browser)
    check(seen["board"] == "0,0" + letter and len(seen["hand"]) == 20, "dragged: %s" % seen)
    browser.drag(SQUARE % (0, 0), "#hand", touch=phone)
    seen = look(browser)
    check(seen["board"] == "" and len(seen["hand"]) == 21, "dragged back: %s" % seen)
    person = Person(browser, phone)
    shot = os.path.join(out, "play-%s.png" % ("phone" if phone else "desktop"))
    laid = 0
    if phone:
        # A dump: a tile of the hand taken with a finger, and the Dump button.
        person.touch("#hand .tile")
        person.touch("#dump")
        seen = wait_for(browser, lambda s: "your dump gave you" in s["said"], 20, "the dump")
        check(seen["tiles"] == 23 and seen["bunch"] == "100" and len(seen["hand"]) == 23
              and seen["in_view"], "the dump: %s" % seen)
    else:
        # A run of three letters is no word of this list, and a tile apart is joined to
        # nothing: marked, named, not sent.
        hand = seen["hand"]
        for i, letter in enumerate(hand[:-1]):
            person.lay(letter, i, 0)
        person.lay(hand[-1], 0, 2)
        person.peel()
        seen = wait_for(browser, lambda s: s["marked"] > 0, 10, "no marks")
        check("Not sent" in seen["status"] and "not in the word list" in seen["status"]
              and "1 tile is not joined to the rest" in seen["status"]
              and seen["marked"] == len(hand) and "peel sent" not in seen["said"],
              "the page's check: %s" % seen)
        browser.screenshot(os.path.join(out, "play-marked.png"))
        # A board tile taken, and the hand clicked on one of its tiles: it goes back.
        browser.click(SQUARE % (0, 2))
        browser.click("#all-back")
        seen = look(browser)
        check(seen["hand"] == "".join(sorted(hand)) and seen["board"] == ""
              and seen["marked"] == 0, "all back: %s" % seen)
        person.lay(hand[0], *square(0))
        browser.click(SQUARE % square(0))
        browser.click("#hand .tile")
        seen = look(browser)
        check(seen["hand"] == "".join(sorted(hand)), "taken back: %s" % seen)
        # A word typed through a tile laid before: the cursor passes it.
        first, second = hand[0], hand[1]
        person.lay(first, 2, 1)  # a tile of `first`; the cursor before it, across (an arrow key)
        browser.click(SQUARE % (0, 1))
        browser.press("ArrowRight")
        browser.press(second.lower())
        browser.press(first.lower())
        browser.press(hand[2].lower())
        seen = look(browser)
        check(seen["board"] == " ".join(sorted(["1,1" + second, "2,1" + first, "3,1" + hand[2]])),
              "typed through a laid tile: %s" % seen["board"])
        browser.click("#all-back")
        # A letter the hand lacks: said in red, gone once a tile is laid.
        missing = next(c for c in "QZXJKVWYBCDEFGHILMNOPRSTUA" if c not in hand)
        browser.click(SQUARE % square(0))
        browser.press(missing.lower())
        check(look(browser)["status_bad"], "no word of a missing letter")
        seen = person.lay(hand[0], *square(0))
        check(not seen["status_bad"], "the red message stayed: %s" % seen["status"])
        laid = 1
        seen = look(browser)
        for letter in seen["hand"]:
            seen = person.lay(letter, *square(laid))
            laid += 1
            if laid == 12:
                browser.screenshot(shot)
        tiles = seen["tiles"]
        person.peel()
        seen = wait_for(browser, lambda s: s["tiles"] > tiles, 30, "the first peel")
        # A reload: the same game, every tile where it was.
        before = seen
        browser.reload()
        seen = wait_for(browser, lambda s: s["phase"] == "playing" and "back in your seat" in
                        s["status"], 30, "no return after the reload")
        check(seen["board"] == before["board"] and seen["hand"] == before["hand"]
              and seen["tiles"] == before["tiles"] and seen["bunch"] == before["bunch"]
              and seen["you"] == before["you"], "after the reload: %s, before: %s"
              % (seen, before))
        # The tab closed, and the page opened again: the same.
        browser.close_page()
        browser.open(url)
        browser.viewport(1280, 800)
        seen = wait_for(browser, lambda s: s["phase"] == "playing" and "back in your seat" in
                        s["status"], 30, "no return after the tab was closed")
        check(seen["board"] == before["board"] and seen["hand"] == before["hand"],
              "after the tab was closed: %s, before: %s" % (seen, before))
    play_to_the_end(person, seen, laid, (lambda: browser.screenshot(shot)) if phone else None)
    result = finished(game)
    check(result["end"] == "bananas", "not to bananas: %s" % result["end"])
    me, them = result["players"]
    check(me["outcome"] != "disqualified" and me["peels"] > 0
          and me["remote"]["connections"] == (1 if phone else 3), "the person: %s" % me)
    seen = wait_for(browser, lambda s: s["outcome"] is not None, 10, "no end shown")
    check(seen["outcome"] == ("W" if result["winner"] == 0 else "L") and seen["end_shown"]
          and ("Bananas" in seen["how"]) and seen["in_view"], "the end: %s" % seen)
    check(seen["opponent_peels"] == them["peels"] and seen["tiles"] == me["tiles"],
          "the page's count: %s, the host's: %s" % (seen, result))
    check(os.path.exists(shot), "no screenshot")
    replays_to(log, result)


browser = Browser(chromium, os.path.join(work, "profile"))
try:
    a_whole_game(browser, phone=False)
    a_whole_game(browser, phone=True)

    # The opponent's peels, counted as the host counts them: a bot that peels as it plays.
    log = os.path.join(work, "race.jsonl")
    game, url = start(log, "a_person_racing_a_quick_bot", reference + " --level 4")
    browser.open("about:blank")
    browser.viewport(1280, 800)
    browser.call("Page.navigate", url=url)
    seen = wait_for(browser, lambda s: s["phase"] == "playing", 30, "no hand")
    # The person takes their time over the first grid: the bot peels first, and the page shows
    # it, with the tile its peel dealt.
    racer = Person(browser, False)
    for i, letter in enumerate(seen["hand"]):
        racer.lay(letter, *square(i))
    seen = wait_for(browser, lambda s: s["opponent_peels"] > 0, 30, "the bot's peel not shown")
    # Its first peel, or more where it peeled again before the page was read (a loaded
    # machine): each peel takes a tile for each of the two from the bunch (102 after the deal).
    peels = seen["opponent_peels"]
    check(seen["others"].startswith("Player 2: %d peel%s, " % (peels, "" if peels == 1 else "s"))
          and seen["bunch"] == str(102 - 2 * peels) and seen["tiles"] == 21 + peels,
          "after the bot's peel: %s" % seen)
    seen = wait_for(browser, lambda s: "Player 2 peeled: you got " in s["said"], 5,
                    "whose peel it was not said")
    play_to_the_end(racer, seen, 21)
    result = finished(game)
    seen = wait_for(browser, lambda s: s["outcome"] is not None, 10, "no end shown")
    check(result["players"][1]["peels"] > 0
          and seen["opponent_peels"] == result["players"][1]["peels"],
          "the opponent's peels: the page %s, the host %s" % (seen["others"], result))

    # A grid sent anyway: the host refuses it, and the page marks the tile it names.
    log = os.path.join(work, "refused.jsonl")
    game, url = start(log, "a_person_sending_anyway", reference + " --level 1")
    browser.call("Page.navigate", url=url)
    seen = wait_for(browser, lambda s: s["phase"] == "playing" and s["words"] > 0, 30, "no hand")
    person = Person(browser, False)
    for i, letter in enumerate(seen["hand"][:-1]):
        person.lay(letter, *square(i))
    person.lay(seen["hand"][-1], 1, square(len(seen["hand"]) - 2)[1] + 2)  # two rows below
    person.peel()
    wait_for(browser, lambda s: s["marked"] == 1, 10, "the loose tile not marked")
    browser.click("#send-anyway")
    seen = wait_for(browser, lambda s: s["phase"] == "over", 30, "no end after a bad grid")
    check(seen["outcome"] == "Q" and "not a legal grid" in seen["how"] and seen["marked"] == 1
          and seen["end_shown"], "the refusal shown: %s" % seen)
    result = finished(game)
    check("is not joined" in result["players"][0]["reason"], "the host's reason: %s" % result)
finally:
    browser.close()
shutil.rmtree(work, ignore_errors=True)
print("play_page_test: all passed")
