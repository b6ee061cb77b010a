"""HTTP/1.1 spoken by hand over a socket, so a case can send what no client library would (bad
request lines, bad chunk sizes, huge heads, pipelined or trickled requests) and read exactly what
the server answers, within a deadline: a server that does not answer in time is a hang."""
import socket, time


class Hang(Exception):
    """No complete answer (and no close) within the deadline."""


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self):
        return self.body.decode("utf-8", "replace")

    def __repr__(self):
        return f"{self.status} {self.text[:160]!r}"


def connect(port, timeout=5):
    return socket.create_connection(("127.0.0.1", port), timeout=timeout)


def read_answers(sock, count=1, deadline=5.0):
    """Up to `count` answers from sock. Stops early when the server closes. Raises Hang when the
    deadline passes with neither an answer nor a close."""
    end = time.monotonic() + deadline
    buf, answers = b"", []
    closed = False

    def more():
        nonlocal buf, closed
        left = end - time.monotonic()
        if left <= 0:
            raise Hang(f"no answer within {deadline} s")
        sock.settimeout(left)
        try:
            data = sock.recv(65536)
        except socket.timeout:
            raise Hang(f"no answer within {deadline} s")
        except ConnectionResetError:
            data = b""
        if not data:
            closed = True
        buf += data

    while len(answers) < count:
        while b"\r\n\r\n" not in buf and not closed:
            more()
        if b"\r\n\r\n" not in buf:
            break
        head, buf = buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        if "content-length" in headers:
            n = int(headers["content-length"])
            while len(buf) < n and not closed:
                more()
            body, buf = buf[:n], buf[n:]
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                while b"\r\n" not in buf and not closed:
                    more()
                size_line, _, rest = buf.partition(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                while len(rest) < size + 2 and not closed:
                    buf = size_line + b"\r\n" + rest
                    more()
                    size_line, _, rest = buf.partition(b"\r\n")
                body += rest[:size]
                buf = rest[size + 2:]
                if size == 0:
                    break
        else:
            while not closed:
                more()
            body, buf = buf, b""
        answers.append(Answer(status, headers, body))
    return answers, closed


def exchange(port, data, deadline=5.0):
    """Send raw bytes, return the first answer, or None when the server closed without one."""
    with connect(port) as s:
        s.sendall(data)
        answers, _ = read_answers(s, 1, deadline)
        return answers[0] if answers else None


def request(method, path="/", body=b"", content_type="application/json", headers=None, version="HTTP/1.1"):
    lines = [f"{method} {path} {version}", "Host: 127.0.0.1"]
    if content_type is not None:
        lines.append(f"Content-Type: {content_type}")
    for k, v in (headers or {}).items():
        lines.append(f"{k}: {v}")
    if body is not None and not any(k.lower() in ("content-length", "transfer-encoding") for k in (headers or {})):
        lines.append(f"Content-Length: {len(body)}")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


def closed_within(sock, seconds):
    """True when the server closes (or resets) sock within `seconds`; any answer bytes are read past."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sock.settimeout(max(0.01, end - time.monotonic()))
        try:
            if not sock.recv(65536):
                return True
        except socket.timeout:
            return False
        except OSError:
            return True
    return False
