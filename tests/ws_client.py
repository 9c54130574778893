"""A small WebSocket client (RFC 6455) for the remote seat tests: the standard library only.

It speaks the protocol's bytes as any client may (frames split anywhere), and can also misbehave
as a test needs: send no token, a wrong origin, an oversized frame, or a handshake that never
ends.
"""

import base64
import os
import socket
import struct


class Refused(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


def handshake_bytes(host, port, path, origin=None, extra=()):
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    if origin:
        lines.append(f"Origin: {origin}")
    lines.extend(extra)
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def frame(opcode, data):
    """A client's frame of `data` (bytes), masked as RFC 6455 requires of clients."""
    header = bytes([0x80 | opcode])
    mask = os.urandom(4)
    n = len(data)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", n)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


class Client:
    """One connection to a seat. connect() raises Refused with the host's status."""

    def __init__(self, host, port, path, origin=None, timeout=10):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.sendall(handshake_bytes(host, port, path, origin))
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise Refused(0, "closed during the handshake")
            response += chunk
        head, _, self.pending = response.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        if status != 101:
            body = self.pending
            try:
                self.sock.settimeout(2)
                while len(body) < int(self.headers.get("content-length", "0")):
                    chunk = self.sock.recv(4096)
                    if not chunk:
                        break
                    body += chunk
            except OSError:
                pass
            self.sock.close()
            raise Refused(status, body.decode("latin-1").strip())
        self.close_code = None
        self.close_reason = ""
        self.pings = 0

    def send(self, data, opcode=1):
        if isinstance(data, str):
            data = data.encode()
        self.sock.sendall(frame(opcode, data))

    def _read(self, n):
        while len(self.pending) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the connection closed")
            self.pending += chunk
        out, self.pending = self.pending[:n], self.pending[n:]
        return out

    def frame(self):
        """The next data frame's bytes (pings are answered); None once the host closed."""
        while True:
            b0, b1 = self._read(2)
            opcode = b0 & 0x0F
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            if opcode == 0x9:
                self.pings += 1
                self.send(payload, opcode=0xA)
                continue
            if opcode == 0x8:
                if len(payload) >= 2:
                    self.close_code = struct.unpack(">H", payload[:2])[0]
                    self.close_reason = payload[2:].decode("utf-8", "replace")
                return None
            if opcode in (0x1, 0x2):
                self.opcode = opcode  # of the message: 1 text, 2 binary
            if opcode in (0x1, 0x2, 0x0):
                return payload

    def read_until(self, marker):
        """Data until `marker` (bytes) has come; what came."""
        got = b""
        while marker not in got:
            data = self.frame()
            if data is None:
                raise EOFError(f"closed before {marker!r}; had {got!r}")
            got += data
        return got

    def close(self, code=1000, reason=""):
        """A close frame, and (as RFC 6455 has it) the host's close frame before the socket
        goes: a host that reads the socket's end first would take it for a dropped connection."""
        try:
            self.send(struct.pack(">H", code) + reason.encode(), opcode=0x8)
            self.sock.settimeout(5)
            while self.frame() is not None:
                pass
        except (OSError, EOFError):
            pass
        self.sock.close()

    def drop(self):
        """Gone without a close frame, as a network that fails."""
        self.sock.close()
