"""What the live tests share: a client of a --serve server's event stream, read as a browser
would, and plain requests over real sockets."""
import http.client
import json
import socket


class Stream:
    """An event stream read as a browser would, one event at a time."""

    def __init__(self, port, last_id=None):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Accept": "text/event-stream"}
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        self.connection.request("GET", "/events", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next(self):
        """The next event as (id, name, data), or None at the end of the stream."""
        event = {}
        while True:
            line = self.response.readline()
            if not line:
                return None
            line = line.decode().rstrip("\n")
            if line == "":
                if "data" in event:
                    self.data = event["data"]  # the event's data as it was sent
                    return int(event["id"]), event["event"], json.loads(event["data"])
                event = {}
                continue
            field, _, value = line.partition(": ")
            event[field] = value

    def close(self):
        self.response.close()  # its file holds the socket open too
        self.connection.close()


def request(port, method, path, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(method, path, headers=headers or {})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


def raw(port, data):
    """What the server answers to bytes of our own, up to its closing (or 64 KiB)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        try:
            s.sendall(data)
        except OSError:
            pass  # it closed before reading everything: an answer too
        got = b""
        try:
            while len(got) < 65536:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
        except (socket.timeout, ConnectionResetError):
            pass
        return got
