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
- Then a game played by `host --serve`: its page follows it (the seed said only at the end), a
  board changes from one look to the next, and at the end the page shows the result `--json`
  prints.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

build, source, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
tournament = os.path.join(build, "tournament")
chromium = shutil.which("chromium") or sys.exit("live_page_test: chromium is not installed")
work = tempfile.mkdtemp(prefix="live-page-test-")


class Browser:
    """Chromium with the DevTools protocol on fds 3 (its input) and 4 (its output), each message
    JSON ended by a NUL."""

    def __init__(self):
        to_browser, self.writer = os.pipe()
        self.reader, from_browser = os.pipe()

        def pipes():
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--user-data-dir=" + os.path.join(work, "profile"), "--window-size=1280,900",
             "about:blank"],
            preexec_fn=pipes, close_fds=False, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self.next_id = 0
        self.buffer = b""
        self.session = None

    def call(self, method, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        os.write(self.writer, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.reader, 1 << 20)
                assert chunk, "chromium closed its DevTools pipe"
                self.buffer += chunk
            raw, _, self.buffer = self.buffer.partition(b"\0")
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                assert "error" not in reply, reply
                return reply["result"]

    def open(self, url):
        target = self.call("Target.createTarget", url=url)["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        """Asks Chromium to close, and waits for it: killed, its helper processes could still be
        writing into its profile while this test removes it."""
        self.session = None
        try:
            self.call("Browser.close")
        except (AssertionError, OSError):
            pass  # it closed its pipe before it answered
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# What the page shows, read from its DOM.
LOOK = """!document.getElementById("connection") ? "null" : JSON.stringify({
  error: document.body.dataset.error || null,
  connection: document.getElementById("connection").textContent,
  over: document.body.dataset.over === "1",
  done: Number(document.getElementById("progress").dataset.done || -1),
  standings: Array.from(document.querySelectorAll("#standings tr[data-bot]")).map(
      (tr) => [tr.dataset.bot, Number(tr.dataset.games), Number(tr.cells[5].textContent)]),
  games: Array.from(document.querySelectorAll("section.live-game")).map((s) => [
      Number(s.dataset.game), Number(s.dataset.peels),
      Array.from(s.querySelectorAll(".board")).map((b) => b.dataset.rows).join("/")]),
})"""

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


browser = Browser()
browser.open("http://127.0.0.1:%d/" % port)
looks = []
changed = None
shot = False
for look in watch(LOOK, 240, 0.05):
    looks.append(look)
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

# A game served by host --serve: the game's page follows it, its boards change while it plays,
# and at its end it shows the result --json prints.
LOOK_GAME = """!document.getElementById("connection") ? "null" : JSON.stringify({
  error: document.body.dataset.error || null,
  connection: document.getElementById("connection").textContent,
  over: document.body.dataset.over === "1",
  title: document.getElementById("title").textContent,
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
host = subprocess.Popen(
    [os.path.join(build, "host"), "--serve", "127.0.0.1:0", "--seed", "3", "--json", "--quiet",
     "--dict", os.path.join(source, "tests", "data", "two_letters.txt"), paced, paced],
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
seen = {tuple(l["boards"]) for l in playing if any(l["boards"])}
assert len(seen) >= 2, ("no board was seen to change while the game played",
                        [(l["connection"], l["title"], l["boards"]) for l in game_looks[:5]],
                        len(game_looks), len(playing))
last = game_looks[-1]
assert last["over"] and last["connection"] == "over", last
assert "seed 3" in last["title"], last["title"]
assert [r.split(":")[0] for r in last["result"]] == [p["outcome"] for p in result["players"]], \
    (last["result"], result["players"])
browser.close()
print("live game page: %d looks, %d boards seen; result %s" %
      (len(game_looks), len(seen), last["result"]))
# What is left of Chromium's helpers may take a moment to go from its profile.
for attempt in range(50):
    try:
        shutil.rmtree(work)
        break
    except OSError:
        time.sleep(0.1)
else:
    shutil.rmtree(work)
