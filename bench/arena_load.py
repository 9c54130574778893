"""A load generator for the arena: many remote bots in one process, each a WebSocket session
(RFC 6455, the standard library's asyncio only) to the arena's /bot, playing the protocol's
legacy dialect as `bench/peel_bot play` does: staircase peels, legal under a word list of every
two-letter string (tests/data/two_letters.txt, with CAT and CATS for the arena's check).

Used by bench/arena_soak.py (bots, some of them hostile at the network: connections cut
mid-game, wrong tokens in bursts, handshakes held open, oversized messages, reconnect storms)
and bench/arena_capacity.py (paced bots whose peels' round trips are timed, beside their round
trips to an echo server of the generator's own, `arena_load.py echo`: the baseline).

    sessions = [Session(port, token, ...), ...]
    asyncio.run(...)
"""
import asyncio
import base64
import hashlib
import json
import os
import random
import re
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests", "bots"))
from staircase import staircase  # noqa: E402
from ws_client import frame, handshake_bytes  # noqa: E402

TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA


class Refused(Exception):
    def __init__(self, status):
        super().__init__("HTTP %d" % status)
        self.status = status


async def upgrade(port, path, headers=(), source=None, timeout=10):
    """(reader, writer) of a WebSocket connection to 127.0.0.1:port; Refused with the status."""
    local = (source, 0) if source else None
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection("127.0.0.1", port, local_addr=local), timeout)
    writer.write(handshake_bytes("127.0.0.1", port, path, extra=headers))
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    except (asyncio.IncompleteReadError, asyncio.TimeoutError, OSError):
        writer.close()
        raise Refused(0)
    status = int(head.split(b" ", 2)[1])
    if status != 101:
        writer.close()
        raise Refused(status)
    return reader, writer


async def read_frame(reader):
    """(opcode, payload) of the next frame."""
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", await reader.readexactly(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", await reader.readexactly(8))[0]
    return b0 & 0x0F, await reader.readexactly(n)


class Counts:
    """What a generator's sessions did, by kind, and the round trips they timed (seconds)."""

    def __init__(self):
        self.kinds = {}
        self.peel_trips = []
        self.echo_trips = []

    def add(self, kind, n=1):
        self.kinds[kind] = self.kinds.get(kind, 0) + n


class Session:
    """One connection of a remote bot, kept up: it plays every game the arena gives it, and
    connects again (after `backoff` seconds) whenever its connection ends, until stop() or
    until it is refused with a status in `give_up`.

    think: seconds before each peel (a bot's thinking time). timed: its peels' round trips
    (from its peel to the tile it brings) and its pings' are kept in counts (its opponents
    should not peel: a tile then comes of its own peel alone), and so are those of an echo
    server's answers (at echo_port) sent beside them, the baseline. cut: the chance, at each tile,
    that it drops its connection there (a network that fails mid-game)."""

    def __init__(self, port, token, counts, version="v1", think=0.0, timed=False, cut=0.0,
                 peel=True, backoff=1.0, rng=None, give_up=(401, 403, 400), echo_port=None):
        self.port, self.token, self.counts, self.version = port, token, counts, version
        self.think, self.timed, self.cut, self.peel = think, timed, cut, peel
        self.backoff, self.give_up, self.echo_port = backoff, give_up, echo_port
        self.rng = rng or random.Random()
        self.stopping = False
        self.writer = None
        self.games = 0

    def stop(self):
        self.stopping = True
        self.drop()

    def drop(self):
        """Its connection gone at once, without a close frame (it connects again)."""
        if self.writer:
            self.writer.transport.abort()

    async def run(self):
        while not self.stopping:
            try:
                await self.connection()
            except Refused as refused:
                self.counts.add("refused %d" % refused.status)
                if refused.status in self.give_up:
                    return
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, EOFError):
                self.counts.add("dropped")
            self.writer = None
            if not self.stopping:
                await asyncio.sleep(self.backoff * (0.5 + self.rng.random()))

    def send(self, opcode, data):
        if self.writer.is_closing():
            raise EOFError("its connection closed")
        self.writer.write(frame(opcode, data))

    async def connection(self):
        headers = ["Authorization: Bearer " + self.token, "X-Bananagrams-Session: 1",
                   "X-Bananagrams-Bot-Version: " + self.version]
        reader, self.writer = await upgrade(self.port, "/bot", headers)
        self.counts.add("connected")
        hand, pending, playing, sent_at = [], "", False, None
        playing_now = [False]
        echo_task = asyncio.ensure_future(self.echo(playing_now)) if self.timed else None
        try:
            while True:
                opcode, payload = await read_frame(reader)
                if opcode == PING:
                    self.send(PONG, payload)
                    continue
                if opcode == CLOSE:
                    code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                    self.counts.add("closed %d" % code)
                    self.send(CLOSE, payload[:2])
                    await self.writer.drain()
                    self.writer.close()
                    return
                if opcode == BINARY:
                    message = json.loads(payload)
                    if message.get("type") == "start":
                        hand, pending, playing, sent_at = [], "", True, None
                        playing_now[0] = True
                        self.send(TEXT, b"r")
                    elif message.get("type") == "end":
                        if playing:
                            self.games += 1
                            self.counts.add("games")
                            if self.timed:  # one a game where only the timed peel
                                self.counts.add("timed games")
                        playing = playing_now[0] = False
                    continue
                if opcode != TEXT or not playing:
                    continue
                pending += payload.decode("ascii", "replace")
                while "." in pending:
                    message, pending = pending.split(".", 1)
                    hand.extend(message)
                    if sent_at is not None and self.timed:
                        self.counts.peel_trips.append(time.monotonic() - sent_at)
                    sent_at = None
                    if self.cut and self.rng.random() < self.cut:
                        self.counts.add("cut mid-game")
                        self.writer.transport.abort()
                        raise EOFError("cut")
                    if not self.peel:
                        continue
                    if self.think:
                        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
                    sent_at = time.monotonic()
                    if hand and set(hand) == {"Q"}:
                        # As peel_bot play: the arena's check deals Qs alone to see a dump.
                        hand.remove("Q")
                        self.send(TEXT, b"dQ")
                        continue
                    self.send(TEXT, ("p" + staircase(hand)).encode())
        finally:
            if echo_task:
                echo_task.cancel()

    async def echo(self, playing):
        """The baseline: twice a second, a message of a peel's size to an echo server (echo_main,
        a process of its own that answers each WebSocket message with its bytes and does
        nothing else), timed to its answer while a game plays."""
        reader, writer = await upgrade(self.echo_port, "/echo")
        try:
            while True:
                await asyncio.sleep(0.5 * (0.5 + self.rng.random()))
                payload = b"p" + staircase("ABCDEFGHIJKLMNOPQRSTU").encode()
                sent = time.monotonic()
                writer.write(frame(TEXT, payload))
                opcode, _ = await read_frame(reader)
                if playing[0] and opcode == TEXT:
                    self.counts.echo_trips.append(time.monotonic() - sent)
        finally:
            writer.close()


async def echo_server(port_said):
    """A WebSocket server that answers each client message with its bytes (unmasked)."""
    async def serve(reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            key = re.search(rb"Sec-WebSocket-Key: *(\S+)", head, re.I).group(1)
            accept = base64.b64encode(hashlib.sha1(
                key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
            while True:
                b0, b1 = await reader.readexactly(2)
                n = b1 & 0x7F
                if n == 126:
                    n = struct.unpack(">H", await reader.readexactly(2))[0]
                mask = await reader.readexactly(4)
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(await reader.readexactly(n)))
                if b0 & 0x0F == CLOSE:
                    break
                header = bytes([0x80 | (b0 & 0x0F)])
                header += bytes([n]) if n < 126 else bytes([126]) + struct.pack(">H", n)
                writer.write(header + data)
        except (asyncio.IncompleteReadError, OSError, AttributeError):
            pass
        writer.close()
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port_said(server.sockets[0].getsockname()[1])
    async with server:
        await server.serve_forever()


def echo_main():
    """`arena_load.py echo`: the echo server, its port on the first line of its output."""
    asyncio.run(echo_server(lambda port: print(port, flush=True)))


async def wrong_tokens(port, counts, n, source):
    """n connections with tokens no bot has, from `source`: refused (401, then 429)."""
    for _ in range(n):
        headers = ["Authorization: Bearer " + base64.b32encode(os.urandom(20)).decode(),
                   "X-Bananagrams-Session: 1"]
        try:
            _, writer = await upgrade(port, "/bot", headers, source=source)
            writer.close()
            counts.add("wrong token let in")
        except Refused as refused:
            counts.add("wrong token %d" % refused.status)
        except OSError:
            counts.add("wrong token unanswered")


async def held_handshake(port, counts, hold=30.0):
    """A connection whose request never ends: the arena closes it (408) in its header time."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        counts.add("held handshake not opened")
        return
    writer.write(b"GET /bot HTTP/1.1\r\nHost: x\r\n")
    started = time.monotonic()
    try:
        await asyncio.wait_for(reader.read(), hold)
        counts.add("held handshake closed" if time.monotonic() - started < hold else
                   "held handshake held")
    except (asyncio.TimeoutError, OSError):
        counts.add("held handshake held")
    writer.close()


async def oversized(port, token, counts):
    """A session that sends a 100 KiB message: closed with 1009."""
    headers = ["Authorization: Bearer " + token, "X-Bananagrams-Session: 1",
               "X-Bananagrams-Bot-Version: oversized"]
    try:
        reader, writer = await upgrade(port, "/bot", headers)
    except Refused as refused:
        counts.add("oversized refused %d" % refused.status)
        return
    writer.write(frame(TEXT, b"p" * (100 << 10)))
    try:
        while True:
            opcode, payload = await asyncio.wait_for(read_frame(reader), 10)
            if opcode == CLOSE:
                counts.add("oversized closed %d" % struct.unpack(">H", payload[:2])[0])
                break
    except (asyncio.TimeoutError, asyncio.IncompleteReadError, OSError):
        counts.add("oversized dropped")
    writer.close()


if __name__ == "__main__" and sys.argv[1:] == ["echo"]:
    echo_main()
