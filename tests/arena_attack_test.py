#!/usr/bin/env python3
"""What an open arena invites (docs/security.md, "The arena's threat model"), each tried at the
wire against a real `arena serve`:

    arena_attack_test.py BUILD_DIR

- A page coming back into a match (`resume=1`) when nothing of its account is held: 410.
- A person's ticket (POST /person/ticket), which keeps the code out of URLs: each refusal its
  own kind and sentence; JSON only (a form another site's page could send without asking is
  refused), its size bounded; a ticket lets one connection in, once.
- A token guessed by brute force: past --failures-a-minute wrong tokens or codes from one
  address, every connection from there is refused with 429 and the seconds to wait, the right
  token too, before anything is looked up; another address is not, and neither is a token that
  was let in from the guesser's address before (a NAT's other bots).
- A flood of connections that never finish their handshake (held open, a byte at a time): each
  is closed by the server within its header time; meanwhile the API answers and a person signs
  in; afterwards the arena holds no more descriptors than before.
- An oversized message: a person's connection that sends more than a message may hold is closed
  (1009).
- A person's page driven by a script faster than a person: a second page of the same person
  (429), and sign-ups past ten a minute (429).
- Administration from the network: no method but GET and HEAD is served (405 on the API's
  paths), and nothing is added or changed by any request; accounts and tokens are made by the
  command line alone.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import remote_host
from remote_host import arena_port
from ws_client import Client, Refused

build = os.path.abspath(sys.argv[1])
arena = os.path.join(build, "arena")
work = tempfile.mkdtemp(prefix="arena-attack-test-")
db = os.path.join(work, "arena.db")
served = None


def check(condition, what):
    if not condition:
        said = "".join(getattr(served, "said_lines", []))
        sys.exit("arena_attack_test: %s\nthe arena said:\n%s" % (what, said[-4000:]))


def run(*args):
    done = subprocess.run([arena, *args, "--db", db], capture_output=True, text=True, timeout=60)
    check(done.returncode == 0, "arena %s: %s" % (" ".join(args), done.stderr))
    return done.stdout.strip()


def upgrade(path, extra=(), source="127.0.0.1"):
    return remote_host.upgrade(port, path, extra, source)


def request(method, path):
    try:
        with urllib.request.urlopen(urllib.request.Request(
                "http://127.0.0.1:%d%s" % (port, path), method=method, data=b"{}"
                if method in ("POST", "PUT") else None), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def post_ticket(body, kind="application/json"):
    """POST /person/ticket: its status and its JSON answer."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    asked = urllib.request.Request("http://127.0.0.1:%d/person/ticket" % port, data=data,
                                   headers={"Content-Type": kind}, method="POST")
    try:
        with urllib.request.urlopen(asked, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def descriptors():
    return len(os.listdir("/proc/%d/fd" % served.pid))


run("bot", "add", "L5", "--command", os.path.join(build, "reference_bot") + " --level 5")
token = run("bot", "add", "r1")
pat = run("person", "add", "pat")
served = subprocess.Popen([arena, "serve", "--db", db, "--listen", "127.0.0.1:0", "--no-sandbox",
                           "--people", "open", "--failures-a-minute", "10"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
try:
    port = arena_port(served)
    check(port, "the arena said no address")
    bot = ("X-Bananagrams-Session: 1",)

    # ---- a token guessed by brute force ----
    for guess in range(10):
        status, _ = upgrade("/bot", ("Authorization: Bearer %032d" % guess,) + bot,
                            source="127.0.0.2")
        check(status == 401, "guess %d: %d" % (guess, status))
    status, headers = upgrade("/bot", ("Authorization: Bearer " + token,) + bot,
                              source="127.0.0.2")
    check(status == 429 and 0 < int(headers.get("retry-after", "0")) <= 60,
          "the right token after ten wrong ones from one address: %d %s" % (status, headers))
    status, _ = upgrade("/person?session=1&name=pat&code=" + pat, source="127.0.0.2")
    check(status == 429, "a person's code from that address: %d" % status)
    # The arena's lines are read by a thread of remote_host's: wait for it to catch up.
    deadline = time.monotonic() + 10
    while ("wrong tokens or codes from this address" not in "".join(served.said_lines)
           and time.monotonic() < deadline):
        time.sleep(0.05)
    check("wrong tokens or codes from this address" in "".join(served.said_lines),
          "the refusal is not in the arena's lines")
    # Another address is not held back: the token lets its bot in.
    status, _ = upgrade("/bot", ("Authorization: Bearer " + token,) + bot)
    check(status == 101, "the right token from another address: %d" % status)
    # One guesser behind an address (a NAT, a proxy) does not lock out a bot that was let in
    # from there before; a token or code never let in from there it does, guessing bounded.
    status, _ = upgrade("/bot", ("Authorization: Bearer " + token,) + bot, source="127.0.0.3")
    check(status == 101, "the right token from a third address: %d" % status)
    for guess in range(10):
        upgrade("/bot", ("Authorization: Bearer %032d" % (100 + guess),) + bot,
                source="127.0.0.3")
    status, _ = upgrade("/bot", ("Authorization: Bearer %032d" % 200,) + bot, source="127.0.0.3")
    check(status == 429, "a guess past the address's failures: %d" % status)
    status, _ = upgrade("/bot", ("Authorization: Bearer " + token,) + bot, source="127.0.0.3")
    check(status == 101, "a token let in from the address before, after another's guesses: %d"
          % status)
    status, _ = upgrade("/person?session=1&name=pat&code=" + pat, source="127.0.0.3")
    check(status == 429, "a code never let in from the guesser's address: %d" % status)
    # Coming back (a page's resume=1) where nothing of the account is held: refused, never
    # queued for a match the person did not ask for.
    status, _ = upgrade("/person?session=1&resume=1&name=pat&code=" + pat)
    check(status == 410, "a person's resume with nothing held: %d" % status)

    # ---- a ticket in place of a code in the URL ----
    status, answer = post_ticket({"name": "pat", "code": pat})
    check(status == 200 and len(answer["ticket"]) == 32, "pat's ticket: %d %s" % (status, answer))
    status, answer = post_ticket({"name": "pat", "code": "W" * 32})
    check(status == 401 and answer["refused"] == "wrong-code" and "name and code" in answer["why"]
          and answer["retry_after_s"] == 0,
          "a wrong code's ticket: %d %s" % (status, answer))
    status, answer = post_ticket({"name": "pat", "code": pat, "opponent": "nobody"})
    check(status == 400 and answer["refused"] == "not-a-house-bot", "a ticket to play nobody: %s"
          % answer)
    status, answer = post_ticket({"name": "pat", "code": pat, "resume": True})
    check(status == 410 and answer["refused"] == "nothing-held", "a resume's ticket: %s" % answer)
    status, answer = post_ticket({"name": "pat", "signup": True, "code": "C" * 24})
    check(status == 409 and answer["refused"] == "name-taken", "a taken name's ticket: %s" % answer)
    # A name that would be a page's path ("." and "..": /people/.. was the leaderboard) is none.
    for name in (".", ".."):
        status, answer = post_ticket({"name": name, "signup": True, "code": "D" * 24})
        check(status == 400 and answer["refused"] == "bad-name",
              "signing up as %r: %d %s" % (name, status, answer))
    # Not JSON (a form of another site's page: no preflight needed, so not taken), too long.
    status, _ = post_ticket(b"name=pat&code=" + pat.encode(), "application/x-www-form-urlencoded")
    check(status == 415, "a form's POST: %d" % status)
    status, _ = post_ticket(b"{" + b" " * (20 << 10) + b"}")
    check(status == 413, "a POST of 20 KiB: %d" % status)
    # A ticket lets one connection in, once; a ticket never issued lets none in.
    _, answer = post_ticket({"name": "pat", "code": pat})
    ticket = answer["ticket"]
    status, _ = upgrade("/person?session=1&ticket=" + ticket)
    check(status == 101, "a person's connection with its ticket: %d" % status)
    time.sleep(0.5)  # that connection closed: pat plays nowhere
    status, _ = upgrade("/person?session=1&ticket=" + ticket)
    check(status == 401, "a ticket used twice: %d" % status)
    status, _ = upgrade("/person?session=1&ticket=" + "T" * 32 + "&name=pat&code=" + pat)
    check(status == 401, "a ticket never issued (its name and code beside it): %d" % status)

    # ---- a flood of handshakes held open ----
    before = descriptors()
    held = []
    for _ in range(100):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(b"GET /bot HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
        held.append(s)
    with urllib.request.urlopen("http://127.0.0.1:%d/api/leaderboard" % port, timeout=10) as r:
        check(r.status == 200, "the API under the flood")
    person = Client("127.0.0.1", port, "/person?session=1&name=pat&code=" + pat)
    # ---- an oversized message: closed with 1009 ----
    person.send(b"x" * (100 << 10), opcode=2)
    try:
        while person.frame() is not None:
            pass
    except (EOFError, OSError):
        pass
    check(person.close_code == 1009, "an oversized message: closed with %s" % person.close_code)
    person.drop()
    # Each held handshake is closed by the server within its header time (10 s).
    deadline = time.monotonic() + 40
    for s in held:
        s.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            closed = s.recv(4096) is not None  # b"" (closed) or an answer: either way, not held
        except socket.timeout:
            closed = False
        except OSError:
            closed = True
        check(closed, "a handshake held open was not closed")
        s.close()
    deadline = time.monotonic() + 20
    while descriptors() > before and time.monotonic() < deadline:
        time.sleep(0.2)
    check(descriptors() <= before, "descriptors: %d before the flood, %d after"
          % (before, descriptors()))

    # ---- a person's page driven by a script ----
    first = Client("127.0.0.1", port, "/person?session=1&name=pat&code=" + pat)
    try:
        Client("127.0.0.1", port, "/person?session=1&name=pat&code=" + pat)
        check(False, "a second page of one person let in")
    except Refused as refused:
        check(refused.status == 429, "a second page: %d" % refused.status)
    first.drop()
    statuses = [upgrade("/person?session=1&signup=1&name=script%d&code=%s" % (i, "C" * 24 +
                        "%02d" % i))[0] for i in range(11)]
    check(statuses[:10] == [101] * 10 and statuses[10] == 429,
          "sign-ups from a script: %s" % statuses)

    # ---- administration is the command line's ----
    accounts = run("bot", "list")
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for path in ("/api/bots/x", "/api/people/x", "/api/leaderboard", "/bots/x", "/"):
            status = request(method, path)
            check(status in (404, 405), "%s %s: %d" % (method, path, status))
    check(run("bot", "list") == accounts, "a request changed the accounts")
finally:
    served.terminate()
    served.wait(timeout=60)
shutil.rmtree(work, ignore_errors=True)
print("arena_attack_test: all passed")
