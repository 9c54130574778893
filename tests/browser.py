"""Headless Chromium (Debian's chromium), driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: no network, no package but the browser), for the tests of the pages.
Besides looking (evaluate, screenshot), it can act as a person does: click where an element is
drawn, and press keys.
"""
import base64
import json
import os
import subprocess
import time


class Browser:
    """Chromium with the DevTools protocol on fds 3 (its input) and 4 (its output), each message
    JSON ended by a NUL."""

    def __init__(self, chromium, profile):
        to_browser, self.writer = os.pipe()
        self.reader, from_browser = os.pipe()

        def pipes():
            # Copied out of the way first: a pipe may already be fd 3 or 4, where dup2 onto
            # itself would leave it closed at exec.
            into, out_of = os.dup(to_browser), os.dup(from_browser)
            os.dup2(into, 3)
            os.dup2(out_of, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--user-data-dir=" + profile, "--window-size=1280,900",
             "about:blank"],
            preexec_fn=pipes, close_fds=False, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self.next_id = 0
        self.buffer = b""
        self.session = None

    def send(self, method, **params):
        """Sends a command without waiting for its answer (which call() passes over later)."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        os.write(self.writer, json.dumps(message).encode() + b"\0")

    def call(self, method, **params):
        self.send(method, **params)
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
        self.session = None
        self.target = self.call("Target.createTarget", url=url)["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=self.target,
                                 flatten=True)["sessionId"]

    def tab(self):
        """The page open now, to come back to with switch() after opening others (tabs)."""
        return (self.target, self.session)

    def switch(self, tab):
        """Back to a page open() opened, as a person clicks its tab."""
        self.target, self.session = tab[0], None
        self.call("Target.activateTarget", targetId=self.target)
        self.session = tab[1]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def evaluate_settled(self, expression):
        """As evaluate, but None while the page is navigating (a reload's first moments, which
        Chromium answers "Inspected target navigated or closed"): for a look that is repeated
        until the page shows what it waits for."""
        try:
            return self.evaluate(expression)
        except AssertionError as e:
            if "navigated or closed" not in str(e):
                raise
            return None

    def viewport(self, width, height, phone=False):
        """The page's size, as a desktop window's or (phone) as a phone's: touch, a coarse
        pointer, a mobile layout."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=2 if phone else 1, mobile=phone)
        self.call("Emulation.setTouchEmulationEnabled", enabled=phone, maxTouchPoints=5)

    # How a page sits on a phone's screen: its width, the right edge of every table column
    # shown, the touch targets (links, buttons, a summary to open) under 44 px tall, and words of
    # the wire (an out code, a protocol's name) where a person reads.
    LAYOUT = """JSON.stringify({
  width: document.documentElement.scrollWidth,
  columns: [...document.querySelectorAll("table th")].filter((th) => th.offsetParent)
    .map((th) => [th.textContent, Math.round(th.getBoundingClientRect().right)]),
  small: [...document.querySelectorAll("a, button, summary, select, input")]
    .filter((e) => e.offsetParent && e.getBoundingClientRect().height < 44)
    .map((e) => (e.id || e.textContent.trim().slice(0, 24)) + ": " + Math.round(e.getBoundingClientRect().height)),
  wire: (document.body.innerText.match(/\\b[a-z]+_[a-z_]+\\b|legacy-v1/g) || []),
})"""

    def layout(self):
        """The page's LAYOUT, as a dict."""
        return json.loads(self.evaluate(self.LAYOUT))

    def close_page(self):
        """Closes the page, as a person closes its tab."""
        self.call("Target.closeTarget", targetId=self.target)
        self.session = None

    def reload(self):
        self.call("Page.reload", ignoreCache=False)

    def reload_asking(self, leave, seconds=10):
        """Reloads a page that asks first (beforeunload: "Leave site?"), and answers it: leaves
        or stays. Whether it asked within `seconds`."""
        self.call("Page.enable")
        self.send("Page.reload", ignoreCache=False)  # answered once the dialog is
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.call("Page.handleJavaScriptDialog", accept=leave)
                return True
            except AssertionError:  # no dialog showing yet
                time.sleep(0.1)
        return False

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

    def center(self, selector):
        """Where the middle of the element `selector` names is drawn, scrolled into view as a
        person scrolls to what they want."""
        box = self.evaluate("""(() => { const e = document.querySelector(%s);
            if (!e) return null; e.scrollIntoView({block: "nearest", inline: "nearest"});
            const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; })()""" % json.dumps(selector))
        assert box, "nothing at " + selector
        return box

    def click(self, selector):
        """A left click at the middle of the element `selector` names, as a mouse makes it."""
        x, y = self.center(selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def tap(self, selector):
        """A finger's tap at the middle of the element `selector` names (touch events, as a
        phone's screen makes them)."""
        x, y = self.center(selector)
        point = [{"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 1}]
        self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=point)
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def drag(self, source, target, touch=False):
        """Presses the element `source` names, moves in steps to `target`'s, and lets go: with the
        mouse's left button, or a finger."""
        (x0, y0), (x1, y1) = self.center(source), self.center(target)
        steps = [(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8) for i in range(1, 9)]
        if touch:
            def point(x, y):
                return [{"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 1}]
            self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=point(x0, y0))
            for x, y in steps:
                self.call("Input.dispatchTouchEvent", type="touchMove", touchPoints=point(x, y))
            self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
            return
        self.call("Input.dispatchMouseEvent", type="mousePressed", x=x0, y=y0, button="left",
                  clickCount=1)
        for x, y in steps:
            self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="left",
                      buttons=1)
        self.call("Input.dispatchMouseEvent", type="mouseReleased", x=x1, y=y1, button="left",
                  clickCount=1)

    def press(self, key):
        """A key pressed and let go: a letter, or a named key (Enter, Backspace, ArrowLeft)."""
        named = {"Enter": 13, "Backspace": 8, "Delete": 46, "Escape": 27, " ": 32, "Tab": 9,
                 "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40}
        if key in named:
            code = named[key]
            text = "\r" if key == "Enter" else (" " if key == " " else "")
        else:
            code = ord(key.upper())
            text = key
        down = {"type": "keyDown", "key": key, "windowsVirtualKeyCode": code,
                "nativeVirtualKeyCode": code}
        if text:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", **down)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, windowsVirtualKeyCode=code,
                  nativeVirtualKeyCode=code)
