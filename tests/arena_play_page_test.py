#!/usr/bin/env python3
"""A person in the arena (docs/arena.md, "People"), in headless Chromium: the arena's /play page
driven as a person drives it (tests/browser.py: clicks and keys), never the protocol underneath.

    arena_play_page_test.py BUILD_DIR [SHOTS_DIR]

- A wrong code, and a taken name's sign-up: the page says why in a sentence of its own, and
  asks again. The sign-in form at a desktop's and a phone's width, every field 44 px tall there.
- The organiser's account: name and code typed, the house bot chosen from the list with the
  keyboard (each named in the organiser's words, with its rating), Play: the page waits in the
  queue, then plays the match's games one after another (each a new hand, the last one's end
  shown), and at the match's end shows the person's rating after one match; the arena rated
  the match, pat and the house bot alone, and put pat on the people's board, not the bots'.
- Signing up (--people open): a new name and Sign up: the page draws the code and shows it where
  it can be copied, once, until the person says it is kept; the new account plays its match.
- Nothing lost for a reload or a dropped connection, on a phone (390x844, taps) and at a desk
  (clicks): a person (through a TCP proxy, as over a network) playing a match against a slower
  house bot reloads the page mid-game and is back in the same game, the hand as it was; then
  the proxy cuts every connection, and the page comes back by itself. The arena says both times that it held the
  seat and that the person came back; the match is rated, and the person is out of none of its
  games. No request of the page carried the code in its URL: it took a ticket each time.
"""
import collections
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from browser import Browser
from remote_host import Proxy, arena_port

build = sys.argv[1]
shots = sys.argv[2] if len(sys.argv) > 2 else None  # a folder for its screenshots
arena = os.path.join(build, "arena")
reference = os.path.abspath(os.path.join(build, "reference_bot"))
chromium = shutil.which("chromium") or sys.exit("arena_play_page_test: chromium is not installed")
work = tempfile.mkdtemp(prefix="arena-play-page-test-")
db = os.path.join(work, "arena.db")

LOOK = """document.readyState === "loading" || !document.getElementById("sign-in") ? "null" : JSON.stringify({
  error: document.body.dataset.error || null,
  phase: document.body.dataset.phase || null,
  hand: document.body.dataset.hand || "",
  outcome: document.body.dataset.outcome || null,
  sign_in: !document.getElementById("sign-in").hidden,
  sign_in_said: document.getElementById("sign-in-said").textContent,
  status: document.getElementById("status").textContent,
  said: document.getElementById("said").textContent,
  opponents: [...document.querySelectorAll("#opponent option")].map((o) => o.value),
  offered: [...document.querySelectorAll("#opponent option")].map((o) => o.textContent),
  code: document.getElementById("person-code").value,
  end: document.getElementById("end").hidden ? "" : document.getElementById("end").textContent,
  match_line: document.getElementById("match-line").hidden ? "" :
    document.getElementById("match-line").textContent,
  others: document.getElementById("others").textContent,
  code_box: document.getElementById("code-box").hidden ? "" :
    document.getElementById("code-box").textContent + " " + document.getElementById("code-shown").value,
})"""


served = None  # the arena, once started: what it said goes into a failure's message


def check(condition, what):
    if not condition:
        said = "".join(getattr(served, "said_lines", []))
        sys.exit("arena_play_page_test: %s\nthe arena said:\n%s" % (what, said))


def run(*args):
    return subprocess.run([arena, *args, "--db", db], capture_output=True, text=True, timeout=60)


def api(path):
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=10) as r:
        return json.loads(r.read())


NOT_YET = {"error": None, "phase": None, "hand": "", "outcome": None, "sign_in": False,
           "sign_in_said": "", "said": "", "opponents": [], "offered": [], "code": "", "end": "",
           "match_line": "", "others": "", "code_box": "", "status": ""}


TILE_AT = '#board .square[data-x="%d"][data-y="%d"]'


def laid(x=0, y=0):
    """The letter of the tile laid at (x, y) on the board, or ""."""
    return browser.evaluate("(document.querySelector('%s.tile') || {}).textContent || ''"
                            % (TILE_AT % (x, y)))


def said_by_arena():
    return "".join(served.said_lines)


def arena_says(text, seconds, count=1):
    deadline = time.monotonic() + seconds
    while said_by_arena().count(text) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    check(said_by_arena().count(text) >= count, "the arena did not say %r %d times" % (text, count))


def look():
    """What the page shows; while it loads (its script not run yet, or the page still
    navigating after a reload), as good as nothing."""
    seen = browser.evaluate_settled(LOOK)
    return dict(NOT_YET, **(json.loads(seen) if seen is not None else {}) or {})


def wait_for(ready, seconds, what):
    deadline = time.monotonic() + seconds
    seen = None
    while time.monotonic() < deadline:
        seen = look()
        check(not seen["error"], "the page's script failed: %s" % seen["error"])
        if ready(seen):
            return seen
        time.sleep(0.1)
    check(False, "%s: %s" % (what, seen))


def on_a_phone(what, targets, shot):
    """The page as it is, at a desktop's width (screenshot SHOT.png) and on a phone's (SHOT-phone.png):
    no sideways page, and every element `targets` names that is shown 44 px tall or more."""
    if shots:
        browser.screenshot(os.path.join(shots, shot + ".png"))
    browser.viewport(390, 844, phone=True)
    time.sleep(0.5)
    layout = json.loads(browser.evaluate("""JSON.stringify({
      width: document.documentElement.scrollWidth,
      shown: [...document.querySelectorAll(%s)].filter((e) => e.offsetParent).length,
      small: [...document.querySelectorAll(%s)]
        .filter((e) => e.offsetParent && e.getBoundingClientRect().height < 44)
        .map((e) => [e.id || e.textContent, e.getBoundingClientRect().height])})"""
                                         % (json.dumps(targets), json.dumps(targets))))
    check(layout["width"] <= 390 and layout["shown"] and not layout["small"],
          "%s on a phone: %s" % (what, layout))
    if shots:
        browser.screenshot(os.path.join(shots, shot + "-phone.png"))
    browser.viewport(1280, 800)


def a_match_come_back_to(name, phone):
    """`name` (a new account) plays a match against L3 through a proxy, as over a network, at a
    phone's size with a finger's taps or at a desktop's with clicks: a tile laid, the page
    reloaded mid-game (asked first: stayed, then left), back in the same game with its hand
    and its tile; then every connection cut, and the page back by itself. The match is rated,
    the person out of none of its games, and no request's URL held the code."""
    code = run("person", "add", name).stdout.strip()
    touch = browser.tap if phone else browser.click
    proxy = Proxy(port)  # the page's every connection goes through it, as through a network
    browser.viewport(*((390, 844) if phone else (1280, 800)), phone=phone)
    browser.open("http://127.0.0.1:%d/play" % proxy.port)
    wait_for(lambda s: s["sign_in"], 20, "no sign-in form through the proxy")
    type_into("#person-name", name)
    type_into("#person-code", code)
    browser.evaluate('document.getElementById("opponent").focus()')  # the list read again
    wait_for(lambda s: "L3" in s["opponents"], 20, "L3 not offered")
    # Chosen by its value (the keys choosing an opponent are tried above).
    browser.evaluate('document.getElementById("opponent").value = "L3"')
    touch("#sign-in-play")
    seen = wait_for(lambda s: s["phase"] == "playing" and s["hand"], 90, "%s's game" % name)
    # A tile laid (a touch on it in the hand, a touch on a square), then the page reloaded.
    letter = seen["hand"][0]
    touch('#hand .tile[data-letter="%s"]' % letter)
    touch(TILE_AT % (0, 0))
    check(laid() == letter, "the tile %s not laid: %r" % (letter, laid()))
    before = look()["hand"]
    # Reloading mid-match asks first: stayed, the page goes on; then left (reloaded).
    check(browser.reload_asking(leave=False), "a reload mid-match did not ask first")
    time.sleep(1)
    check(look()["phase"] == "playing" and laid() == letter, "the page after staying: %s" % look())
    check(browser.reload_asking(leave=True), "the second reload did not ask")
    seen = wait_for(lambda s: "back in your seat" in s["said"] and s["phase"] in ("playing", "over"),
                    30, "no return to the game after the reload")
    check(not collections.Counter(before) - collections.Counter(seen["hand"]),
          "the hand after the reload: %s, before: %s" % (seen["hand"], before))
    check(laid() == letter, "the laid tile after the reload: %r, not %s" % (laid(), letter))
    arena_says("person %s's connection dropped within its match: held" % name, 10)
    arena_says("person %s came back into its match" % name, 10)
    proxy.cut()
    arena_says("person %s's connection dropped within its match: held" % name, 20, 2)
    arena_says("person %s came back into its match" % name, 30, 2)
    wait_for(lambda s: "connected again: back in your match" in s["said"], 10,
             "the page's word of its return")
    wait_for(lambda s: "The match is over" in s["end"], 180,
             "no rating at the end of %s's match" % name)
    match = api("/api/people/%s" % name)["versions"][0]["matches"][0]["match"]
    games = api("/api/matches/%d" % match)["games"]
    check(len(games) == 2 and all(seat["out_code"] is None for game in games
                                  for seat in game["seats"] if seat["bot"] == name),
          "%s out of a game of its match: %s" % (name, games))
    check("did not come back" not in said_by_arena(), "a seat let go: %s" % said_by_arena())
    # The code in no URL: the page's every request (seen by the proxy) took a ticket instead.
    lines = proxy.request_lines()
    check(any(l.startswith("POST /person/ticket ") for l in lines)
          and any(l.startswith("GET /person?") and "ticket=" in l for l in lines)
          and not any(code in l for l in lines), "the page's requests: %s" % lines)
    browser.viewport(1280, 800)


def type_into(selector, text):
    """Clicked, emptied (select all, delete) and typed, as a person does."""
    browser.click(selector)
    for kind in ("keyDown", "keyUp"):  # Ctrl+A
        browser.call("Input.dispatchKeyEvent", type=kind, key="a", code="KeyA",
                     windowsVirtualKeyCode=65, modifiers=2,
                     **({"commands": ["selectAll"]} if kind == "keyDown" else {}))
    browser.press("Backspace")
    browser.call("Input.insertText", text=text)


check(run("bot", "add", "L5", "--command", reference + " --level 5").returncode == 0, "bot add")
# What it is, in words, for the people who choose it.
said = run("bot", "about", "L5", "level 5: full strength")
check(said.returncode == 0 and "described" in said.stderr, "bot about: %s" % said.stderr)
added = run("person", "add", "pat")
check(added.returncode == 0, "person add: %s" % added.stderr)
pat = added.stdout.strip()
served = subprocess.Popen([arena, "serve", "--db", db, "--listen", "127.0.0.1:0", "--no-sandbox",
                           "--people", "open", "--max-wait", "1", "--ready-timeout", "30"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
port = arena_port(served)
check(port, "the arena said no address")
browser = Browser(chromium, os.path.join(work, "profile"))
try:
    browser.open("http://127.0.0.1:%d/play" % port)
    browser.viewport(1280, 800)
    seen = wait_for(lambda s: s["sign_in"] and "L5" in s["opponents"], 20, "no sign-in form")
    check(any(o.startswith("L5: level 5: full strength (rating 25.0?)") for o in seen["offered"]),
          "the opponents offered: %s" % seen["offered"])
    # The form at a desktop's width and on a phone: no sideways page, and each field and
    # button a finger's size.
    on_a_phone("the sign-in", "#sign-in input, #sign-in select, #sign-in button, a",
               "arena-play-sign-in")
    # A wrong code: not let in, asked again.
    type_into("#person-name", "pat")
    type_into("#person-code", "W" * 32)
    browser.press("Enter")
    seen = wait_for(lambda s: "That name and code are not an account's here" in s["sign_in_said"],
                    20, "a wrong code let in")
    # The right one, against L5 chosen with the keyboard.
    type_into("#person-code", pat)
    browser.press("Tab")
    browser.press("ArrowDown")
    check(browser.evaluate('document.getElementById("opponent").value') == "L5",
          "the opponent chosen with the keys")
    browser.click("#sign-in-play")
    # The match reads as one: the opponent by name, the game's number of the match's.
    seen = wait_for(lambda s: s["phase"] == "playing", 90, "no first game")
    check(re.search(r"Match \d+ against L5: game 1 of 2", seen["match_line"])
          and seen["others"].startswith("L5: "), "the match's line and the opponent: %s" % seen)
    # The first game's result stays as the second begins, until the person moves on.
    seen = wait_for(lambda s: "game 2 of 2 of the match begins" in s["said"], 90, "no second game")
    check("Game 1 of 2:" in seen["end"] and "game 1: you " in seen["match_line"],
          "the first game's result gone as the second began: %s" % seen)
    check(not re.search(r"[Pp]layer \d", seen["end"] + seen["said"]),
          "a player by number, not by name: %s" % seen)
    if shots:
        browser.screenshot(os.path.join(shots, "arena-play-between-games.png"))
    seen = wait_for(lambda s: "The match is over" in s["end"] and "Your rating" in s["end"], 90,
                    "no rating at the match's end")
    check("after 1 match" in seen["end"] and seen["outcome"] and not seen["sign_in"],
          "the match's end: %s" % seen)
    on_a_phone("the match's end", "#end button, #end a, #again, #to-board", "arena-play-match-over")
    browser.click("#play-again")
    wait_for(lambda s: s["sign_in"] and not s["end"], 10, "Play again shows no sign-in")
    check(api("/rules").get("people_game_timeout_ms") == 1200000, "the people's clock in /rules")
    people = api("/api/people")["leaderboard"]
    check([row["name"] for row in people] == ["pat"] and people[0]["matches"] == 1,
          "/api/people: %s" % people)
    check("pat" not in [row["name"] for row in api("/api/leaderboard")["leaderboard"]],
          "a person on the bots' board")
    match = api("/api/people/pat")["versions"][0]["matches"][0]["match"]
    entrants = sorted(e["bot"] for e in api("/api/matches/%d" % match)["entrants"])
    check(entrants == ["L5", "pat"], "pat's match: %s" % entrants)
    # Signing up with a name that is taken: its own sentence.
    type_into("#person-name", "pat")
    browser.click("#sign-up")
    wait_for(lambda s: s["sign_in"] and "The name pat is taken" in s["sign_in_said"], 20,
             "a taken name's sign-up")
    # Signing up: the page draws the code and shows it where it can be copied, once, until the
    # person says it is kept; the account plays.
    type_into("#person-name", "newbie")
    browser.click("#sign-up")
    seen = wait_for(lambda s: s["code_box"], 20, "not signed up")
    if shots:
        browser.screenshot(os.path.join(shots, "arena-play-code.png"))
    check(re.fullmatch(r"[A-Za-z0-9_-]{24}", seen["code"]) and seen["code_box"].endswith(seen["code"])
          and "shown only now" in seen["code_box"], "the code drawn and shown: %s" % seen)
    check(not re.match(r"You (won|lost)", seen["status"]),
          "the last match's end still said as the next begins: %r" % seen["status"])
    browser.click("#code-kept")
    wait_for(lambda s: not s["code_box"], 5, "the code's box stays once kept")
    wait_for(lambda s: "The match is over" in s["end"], 90, "the new account's match")
    check(re.search(r"^newbie ", run("person", "list").stdout, re.M), "newbie's account")

    # ---- a reload and a dropped connection mid-match: back into the game each time ----
    check(run("bot", "add", "L3", "--command", reference + " --level 3", "--about",
              "level 3: quick").returncode == 0, "L3")
    served.send_signal(signal.SIGHUP)  # the arena reads its house bots again
    arena_says("house bot L3 added", 10)
    # On a phone, a finger's taps; at a desk, a mouse's clicks.
    a_match_come_back_to("kim", phone=True)
    a_match_come_back_to("lee", phone=False)
finally:
    browser.close()
    served.terminate()
    served.wait(timeout=60)
shutil.rmtree(work, ignore_errors=True)
print("arena_play_page_test: all passed")
