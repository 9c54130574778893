"""What the remote seat tests share: a host with remote seats, started and read as a person reads
it (the URL of each seat on its stderr), an upgrade's answer, and the check that ends a test with
what went wrong."""
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading


class Tree:
    """What a test of remote seats plays with: BUILD_DIR's programs, SOURCE_DIR's two-letter word
    list, and a folder of its own (readable by the sandbox's user) holding the hog bot."""

    def __init__(self, argv, prefix):
        build, source = argv[1:3]
        self.build, self.source = build, source
        self.host = os.path.join(build, "host")
        self.connect = os.path.join(build, "connect")
        self.reference = os.path.join(build, "reference_bot")
        self.two_letters = os.path.join(source, "tests", "data", "two_letters.txt")
        self.work = tempfile.mkdtemp(prefix=prefix)
        os.chmod(self.work, 0o755)  # as root, the players run as nobody
        for name in ("hog.py", "staircase.py"):
            with open(os.path.join(source, "tests", "bots", name)) as f, \
                    open(os.path.join(self.work, name), "w") as copy:
                copy.write(f.read())
        self.hog = os.path.join(self.work, "hog.py")


def check(condition, what, name="remote"):
    if not condition:
        sys.exit("%s: %s" % (name, what))


def arena_port(arena):
    """The port `arena serve` (a process with its stderr piped) says it listens on; None if it
    ends without saying. Every line it said meanwhile is in `arena.said_lines` (kept on, as it
    says more, by the thread `arena.said_reader`, which ends at the process's end: join it before
    reading what an ended arena said)."""
    arena.said_lines = []
    for line in iter(arena.stderr.readline, ""):
        arena.said_lines.append(line)
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if found:
            arena.said_reader = threading.Thread(
                target=lambda: arena.said_lines.extend(arena.stderr), daemon=True)
            arena.said_reader.start()
            return int(found.group(1))
    return None


def upgrade(port, path, extra=(), source="127.0.0.1"):
    """A WebSocket upgrade to 127.0.0.1:`port` from the address `source`: its status and its
    response's headers (lower-case names)."""
    from ws_client import handshake_bytes
    with socket.create_connection(("127.0.0.1", port), timeout=10,
                                  source_address=(source, 0)) as s:
        s.sendall(handshake_bytes("127.0.0.1", port, path, extra=extra))
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    lines = head.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, _, v in
                   (line.partition(":") for line in lines[1:]))
    return int(lines[0].split()[1]), headers


def start_host(host, *args):
    """The host with --serve 127.0.0.1:0, once it has said its remote seats' URLs: (process,
    port, {player: path})."""
    game = subprocess.Popen([host, "--serve", "127.0.0.1:0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seats, port = {}, None
    said = ""
    while True:
        line = game.stderr.readline()
        if not line:
            sys.exit("the host said no seat: " + said)
        said += line
        found = re.search(r"player (\d+) is remote: a bot connects to ws://127\.0\.0\.1:(\d+)"
                          r"(/seat/[A-Za-z0-9_-]+) .* a person opens "
                          r"http://127\.0\.0\.1:\d+/play#([A-Za-z0-9_-]+)", line)
        if found:
            seats[int(found.group(1))] = found.group(3)
            port = int(found.group(2))
            if not found.group(3).endswith(found.group(4)):
                sys.exit("the page's token is not the seat's: " + line)
        if seats and "is remote" not in line:
            break
        if len(seats) == sum(1 for a in args if a.startswith("remote:")):
            break
    return game, port, seats


def finish(game):
    out, err = game.communicate(timeout=120)
    return game.returncode, out, err


class Listener:
    """A socket on a free port of 127.0.0.1 that hands each connection to take(), on a thread of
    its own."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.take(client)

    def take(self, client):
        raise NotImplementedError


def shut(*sockets):
    """Each socket shut both ways, as a network cut leaves it (one already gone is let be)."""
    for s in sockets:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def upstream_for(client, port):
    """A connection to 127.0.0.1:`port` for the proxied `client`, both without Nagle's delay (as
    the host and connect set theirs); None, the client closed, where the server is gone."""
    try:
        upstream = socket.create_connection(("127.0.0.1", port))
    except OSError:
        client.close()
        return None
    for s in (client, upstream):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return upstream


class Proxy(Listener):
    """Forwards connections to 127.0.0.1:`upstream` (counting the bytes it forwarded), and can
    cut every one of them at once, as a network does: no close frame, the sockets shut."""

    def __init__(self, upstream):
        self.upstream, self.pairs, self.forwarded = upstream, [], 0
        self.lock = threading.Lock()
        self.requested = []  # what clients sent, as it came
        super().__init__()

    def take(self, client):
        upstream = upstream_for(client, self.upstream)
        if upstream is None:
            return
        with self.lock:
            self.pairs.append((client, upstream))
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=self.pump, args=(a, b, a is client), daemon=True).start()

    def request_lines(self):
        """The request lines of the HTTP requests that came through ("GET /path HTTP/1.1")."""
        with self.lock:
            sent = [data.decode("latin-1") for data in self.requested]
        return [line for data in sent for line in data.split("\r\n")
                if re.match(r"(GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS) \S+ HTTP/1\.[01]$", line)]

    def pump(self, source, sink, from_client):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                self.forwarded += len(data)
                if from_client:
                    with self.lock:
                        self.requested.append(data)
                sink.sendall(data)
        except OSError:
            pass
        shut(source, sink)

    def cut(self):
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            shut(*pair)
            for s in pair:
                s.close()


class _Frames:
    """A WebSocket connection's bytes from one side, read as an HTTP head, then whole frames."""

    def __init__(self, sock):
        self.sock, self.pending = sock, b""

    def _read(self, n):
        while len(self.pending) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.pending += chunk
        out, self.pending = self.pending[:n], self.pending[n:]
        return out

    def head(self):
        while b"\r\n\r\n" not in self.pending:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.pending += chunk
        end = self.pending.index(b"\r\n\r\n") + 4
        head, self.pending = self.pending[:end], self.pending[end:]
        return head

    def frame(self):
        """(its opcode, its bytes as they came)"""
        first = self._read(2)
        n, raw = first[1] & 0x7F, first
        if n == 126:
            more = self._read(2)
            n, raw = struct.unpack(">H", more)[0], raw + more
        elif n == 127:
            more = self._read(8)
            n, raw = struct.unpack(">Q", more)[0], raw + more
        raw += self._read(n + (4 if first[1] & 0x80 else 0))
        return first[0] & 0x0F, raw


class SlowPongs(Listener):
    """Forwards connections to 127.0.0.1:`upstream` as the host sees a client that answers its
    pings slowly, and one at a time: each pong reaches the host `delay` seconds after the client
    sent it (the client's other frames go on meanwhile), and a ping that comes while one is
    unanswered is dropped, as libwebsockets drops it (RFC 6455 lets a client answer only one).
    `dropped` counts the pings dropped."""

    def __init__(self, upstream, delay):
        self.upstream, self.delay, self.dropped = upstream, delay, 0
        super().__init__()

    def take(self, client):
        upstream = upstream_for(client, self.upstream)
        if upstream is None:
            return
        link = {"lock": threading.Lock(), "unanswered": False}

        def to_host(raw, answer=False):
            with link["lock"]:
                # A pong's ping is answered as the pong goes, as libwebsockets has it: the host's
                # next ping may follow at once.
                if answer:
                    link["unanswered"] = False
                try:
                    upstream.sendall(raw)
                except OSError:
                    pass

        def up():  # the client's frames, its pongs late
            frames = _Frames(client)
            try:
                to_host(frames.head())
                while True:
                    opcode, raw = frames.frame()
                    if opcode == 0xA:
                        threading.Timer(self.delay, to_host, args=(raw, True)).start()
                    else:
                        to_host(raw)
            except (OSError, EOFError):
                pass
            shut(client, upstream)

        def down():  # the host's frames, a ping beside an unanswered one dropped
            frames = _Frames(upstream)
            try:
                client.sendall(frames.head())
                while True:
                    opcode, raw = frames.frame()
                    if opcode == 0x9:
                        with link["lock"]:
                            drop, link["unanswered"] = link["unanswered"], True
                        if drop:
                            self.dropped += 1
                            continue
                    client.sendall(raw)
            except (OSError, EOFError):
                pass
            shut(client, upstream)

        for pump in (up, down):
            threading.Thread(target=pump, daemon=True).start()
