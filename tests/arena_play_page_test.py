#!/usr/bin/env python3
"""A person in the arena (docs/arena.md, "People"), in headless Chromium: the arena's /play page
driven as a person drives it (tests/browser.py: clicks and keys), never the protocol underneath.

    arena_play_page_test.py BUILD_DIR

- A wrong code: the page says the person was not let in, and asks again.
- The organiser's account: name and code typed, the house bot chosen from the list with the
  keyboard, Play: the page waits in the queue, then plays the match's games one after another
  (each a new hand, the last one's end shown), and at the match's end shows the person's rating
  after one match; the arena rated the match, pat and the house bot alone, and put pat on the
  people's board, not the bots'.
- Signing up (--people open): a new name and Sign up: the page draws the code, says it once, and
  the new account plays its match too.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from browser import Browser
from remote_host import arena_port

build = sys.argv[1]
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
  said: document.getElementById("said").textContent,
  opponents: [...document.querySelectorAll("#opponent option")].map((o) => o.value),
  code: document.getElementById("person-code").value,
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
           "sign_in_said": "", "said": "", "opponents": [], "code": ""}


def look():
    """What the page shows; while it loads (its script not run yet), as good as nothing."""
    return dict(NOT_YET, **(json.loads(browser.evaluate(LOOK)) or {}))


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
    # A wrong code: not let in, asked again.
    type_into("#person-name", "pat")
    type_into("#person-code", "W" * 32)
    browser.press("Enter")
    seen = wait_for(lambda s: "Not let in" in s["sign_in_said"], 20, "a wrong code let in")
    # The right one, against L5 chosen with the keyboard.
    type_into("#person-code", pat)
    browser.press("Tab")
    browser.press("ArrowDown")
    check(browser.evaluate('document.getElementById("opponent").value') == "L5",
          "the opponent chosen with the keys")
    browser.click("#sign-in-play")
    seen = wait_for(lambda s: "game 2 of the match begins" in s["said"], 90, "no second game")
    seen = wait_for(lambda s: s["sign_in"] and "Your rating" in s["sign_in_said"], 90,
                    "no rating at the match's end")
    check("after 1 match." in seen["sign_in_said"] and seen["outcome"],
          "the match's end: %s" % seen)
    people = api("/api/people")["leaderboard"]
    check([row["name"] for row in people] == ["pat"] and people[0]["matches"] == 1,
          "/api/people: %s" % people)
    check("pat" not in [row["name"] for row in api("/api/leaderboard")["leaderboard"]],
          "a person on the bots' board")
    match = api("/api/people/pat")["versions"][0]["matches"][0]["match"]
    entrants = sorted(e["bot"] for e in api("/api/matches/%d" % match)["entrants"])
    check(entrants == ["L5", "pat"], "pat's match: %s" % entrants)
    # Signing up: the page draws the code, says it, and the account plays.
    type_into("#person-name", "newbie")
    browser.click("#sign-up")
    seen = wait_for(lambda s: "your account is made" in s["said"], 20, "not signed up")
    check(re.fullmatch(r"[A-Za-z0-9_-]{24}", seen["code"]) and seen["code"] in seen["said"],
          "the code drawn and shown: %s" % seen)
    wait_for(lambda s: s["sign_in"] and "Your rating" in s["sign_in_said"], 90,
             "the new account's match")
    check(re.search(r"^newbie ", run("person", "list").stdout, re.M), "newbie's account")
finally:
    browser.close()
    served.terminate()
    served.wait(timeout=60)
shutil.rmtree(work, ignore_errors=True)
print("arena_play_page_test: all passed")
