"""Hostile answers and URLs for what SubDash sends (issue 37): a URL with a port no socket has
(once accepted by `serve`'s Configure Realtime URL and the command lines, then a SwiftNIO trap in
`serve`, `subdash-retention` and `subdash deliver`), and a server that answers 200 at once and
then trickles its body a byte every 50 ms (once a performance test PENDING until restart, and
`deliver --timeout 2` recording "200 in 120031 ms"). Each case asserts its exact outcome, that
nothing was written where refused, and that no process crashed or hung."""
import json, os, shutil, socket, subprocess, threading, time
from filecase import FileCases
from httpcase import HTTPCases
from rawhttp import exchange, request
from server import Server
from tokens import Tokens, new_p8

APP = "com.example.birdwatch"
OWN = "2000000871234560"      # Examples/active.json (Sandbox)
KID, ISS = "TESTKEY123", "57246542-96fe-1a63-e053-0824d011072a"
BAD_PORTS = {"port 99999": "http://127.0.0.1:99999/retention", "port 0": "http://127.0.0.1:0/retention",
             "port 65536": "http://127.0.0.1:65536/retention", "an empty port": "http://127.0.0.1:/retention",
             "an IPv6 literal with port 99999": "http://[::1]:99999/retention"}


class Trickler:
    """A loopback server that answers every request with 200 and a Content-Length of `size`, then
    sends the body one byte every `interval` seconds (size × interval in all)."""

    def __init__(self, size, interval=0.05):
        self.size, self.interval, self.requests = size, interval, 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, path="/"):
        return f"http://127.0.0.1:{self.port}{path}"

    def _accept(self):
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn):
        try:
            conn.settimeout(10)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(l.split(b":", 1)[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")), 0)
            while len(body) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                body += chunk
            self.requests += 1
            conn.sendall(f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {self.size}\r\n\r\n".encode())
            for _ in range(self.size):
                if self.stopped:
                    return
                conn.sendall(b" ")
                time.sleep(self.interval)
        except OSError:
            pass  # the client gave up on us: what the cases want
        finally:
            conn.close()

    def stop(self):
        self.stopped = True
        self.sock.close()


def api(method, path, auth, body=None, deadline=5.0):
    headers = {"Authorization": auth}
    return lambda port: exchange(port, request(method, path, body, "application/json" if body is not None else None, headers), deadline)


def run(tally, ctx, servers):
    work = f"{ctx.work}/outbound"
    d = f"{work}/serve/state"
    os.makedirs(d)
    shutil.copy(f"{ctx.repo}/Examples/active.json", f"{d}/{OWN}.json")
    key = new_p8(f"{work}/key.p8")
    subprocess.run([ctx.subdash, "ca", "init", f"{work}/serve-ca"], check=True, stdout=subprocess.DEVNULL)
    serve_argv = [ctx.subdash, "serve", "--port", "0", "--key-id", KID, "--issuer-id", ISS, "--key", f"{work}/key.p8",
                  "--bundle-id", APP, "--ca", f"{work}/serve-ca"]
    server = Server(serve_argv + [d], f"{ctx.work}/logs/outbound-serve.log").start()
    servers.append(server)
    h = HTTPCases(tally, "outbound", server, [f"{work}/serve"])
    good = Tokens(key, KID, ISS, APP).good()
    messaging = "/sandbox/inApps/v1/messaging"
    trickle = Trickler(size=400)  # 20 s of body: far past any limit here

    try:
        # --- Configure Realtime URL: a port no socket has is Apple's 400 4000215, nothing kept ---------
        for name, url in BAD_PORTS.items():
            h.case(f"Configure Realtime URL with {name} → 400 4000215, nothing kept",
                   api("PUT", f"{messaging}/realtime/url", good, json.dumps({"realtimeURL": url}).encode()), 400, "4000215")
        h.case("after the refusals no realtime URL is configured: a performance test → 404 4040021",
               api("POST", f"{messaging}/performanceTest", good, json.dumps({"originalTransactionId": OWN}).encode()), 404, "4040021")

        # --- A realtime URL that trickles its body: the performance test ends, the next one starts -----
        h.case("Configure Realtime URL of a server that trickles its body → 200",
               api("PUT", f"{messaging}/realtime/url", good, json.dumps({"realtimeURL": trickle.url("/retention")}).encode()), 200,
               writes=lambda diff: None if diff == ["+state/.retention-messaging.json"] else f"expected the configuration written: {diff}")

        def performance_test(port):
            """Start a test, poll its result until it is not PENDING (each of its 10 requests has
            1 s: 10 s and some); the last result as the answer."""
            started = api("POST", f"{messaging}/performanceTest", good, json.dumps({"originalTransactionId": OWN}).encode())(port)
            if started is None or started.status != 200:
                return started
            rid = json.loads(started.text)["requestId"]
            end = time.monotonic() + 40
            while True:
                a = api("GET", f"{messaging}/performanceTest/result/{rid}", good)(port)
                if a is None or a.status != 200 or json.loads(a.text).get("result") != "PENDING" or time.monotonic() > end:
                    return a
                time.sleep(0.2)

        def failed_by_time_out(port):
            a = performance_test(port)
            if a is not None and a.status == 200:
                r = json.loads(a.text)
                if (r.get("result"), r.get("failures"), r.get("numPending")) != ("FAIL", {"TIMED_OUT": 10}, 0):
                    a.status = f"200 but {a.text[:200]}"
            return a
        h.case("a performance test against the trickling server ends FAIL, all 10 requests TIMED_OUT (not PENDING)",
               failed_by_time_out, 200, writes=lambda diff: None)
        h.case("the next performance test is accepted (not 4000213: the first one ended)",
               api("POST", f"{messaging}/performanceTest", good, json.dumps({"originalTransactionId": OWN}).encode()), 200, "requestId",
               writes=lambda diff: None)

        # --- The command lines: one line (and the usage hint), exit 64, nothing written --------------
        files = f"{work}/files"
        os.makedirs(files)
        shutil.copy(f"{ctx.repo}/Examples/active.json", f"{files}/active.json")
        f = FileCases(tally, ctx.subdash, files, group="outbound")
        f.case("deliver --to with port 99999 → 64, one line, the file untouched",
               ["deliver", "--to", "http://127.0.0.1:99999/apple", f"{files}/active.json"], 64, "the port 99999 is outside 1-65535")
        f.case("simulate --deliver with port 65536 → 64, one line, the file untouched",
               ["simulate", "--steps", "1", "--deliver", "http://127.0.0.1:65536/apple", f"{files}/active.json"], 64,
               "the port 65536 is outside 1-65535")
        f.case("fetch --base-url with port 0 → 64, one line, nothing written",
               ["fetch", "--base-url", "http://127.0.0.1:0", "-o", f"{files}/fetched.json", OWN], 64, "the port 0 is outside 1-65535")
        f.case("serve --notify with an empty port → 64, one line, nothing created",
               serve_argv[1:] + ["--notify", "http://127.0.0.1:/apple", f"{files}/served"], 64, "the port after ':' is empty")

        # --- A bad realtime URL kept from before: the cancel page falls back, says why, no trap ---------
        kept = f"{work}/kept"
        os.makedirs(kept)
        shutil.copy(f"{ctx.repo}/Examples/active.json", f"{kept}/active.json")
        with open(f"{kept}/.retention-messaging.json", "w") as fh:
            json.dump({"realtimeURL": "http://127.0.0.1:99999/retention"}, fh)
        os.chmod(f"{kept}/.retention-messaging.json", 0o600)
        retention = os.path.join(os.path.dirname(ctx.subdash), "subdash-retention")
        k = FileCases(tally, retention, kept, group="outbound")
        k.case("subdash-retention with a kept realtime URL of port 99999 → 0, no offer, the reason in its JSON line",
               ["--ca", f"{work}/serve-ca", f"{kept}/active.json"], 0, "the port 99999 is outside 1-65535")

        # --- deliver --timeout against the trickling server ------------------------------------------
        deliver_timeout(tally, ctx, work, trickle)
    finally:
        trickle.stop()


def deliver_timeout(tally, ctx, work, trickle):
    """`subdash deliver --timeout 1` follows a file; a renewal is written; the trickling server's
    200 never ends within the second: the attempt is TIMED_OUT, recorded within the bound, and
    deliver exits when told (its stdin closes) instead of waiting 20 s for the body."""
    name = "deliver --timeout 1 against the trickling server → TIMED_OUT recorded in about 1 s, deliver exits"
    d = f"{work}/deliver"
    os.makedirs(d)
    path = f"{d}/active.json"
    shutil.copy(f"{ctx.repo}/Examples/active.json", path)
    env = {**os.environ, "SWIFT_BACKTRACE": "enable=no"}
    problems, crash, hang = [], False, False
    p = subprocess.Popen([ctx.subdash, "deliver", "--to", trickle.url("/apple"), "--timeout", "1", "--retry-schedule", "sandbox",
                          "--ca", f"{work}/serve-ca", "--until-stdin-closes", path],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    started = time.monotonic()
    try:
        if p.stdout.readline().strip() != b"ready":
            problems.append("deliver did not say ready")
        else:
            step = subprocess.run([ctx.subdash, "simulate", "--steps", "1", path], capture_output=True, env=env, timeout=30)
            if step.returncode != 0:
                problems.append(f"simulate --steps 1 failed: {step.stderr.decode(errors='replace')[:200]}")
        _, err = p.communicate(timeout=12)  # closes deliver's stdin: "the writer is done"
        err = err.decode("utf-8", "replace")
        if p.returncode != 0:
            crash = p.returncode < 0
            problems.append(f"deliver exited {p.returncode}: {err.strip()[-200:]!r}")
        if "TIMED_OUT" not in err:
            problems.append(f"no TIMED_OUT line: {err.strip()[-300:]!r}")
        book = json.load(open(path)).get("deliveries", {})
        attempts = [a for x in book.get("recent", []) + book.get("pending", []) for a in x.get("sendAttempts", [])]
        if not attempts or any(a.get("sendAttemptResult", a.get("result")) != "TIMED_OUT" for a in attempts):
            problems.append(f"attempts recorded: {attempts}")
        slow = [a for a in attempts if a.get("milliseconds", 0) > 3000]
        if slow:
            problems.append(f"an attempt took more than 3 s against a 1 s --timeout: {slow}")
    except subprocess.TimeoutExpired:
        hang = True
        p.kill()
        p.wait()
        problems.append(f"deliver still running {time.monotonic() - started:.0f} s after its stdin closed (waiting for the body?)")
    tally.record("outbound", name, problems, crash, hang)
