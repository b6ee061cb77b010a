#!/usr/bin/env python3
"""Load and crash tests of `subdash listen` (issue 12): 32 concurrent senders on loopback POST
pre-signed App Store Server Notifications V2 (a local test CA, nested transaction and renewal info)
for many subscribers.

  listen_load.py bench SUBDASH [--notifications 10000] [--subscribers 1000] [--senders 32]
      Throughput and p50/p99 latency of `subdash listen` (verify, apply, fsync, 200), then of a
      receiver built on Apple's app-store-server-library doing the same verification (notification +
      nested JWS) and a durable append per notification, with the same senders, in one run.
  listen_load.py db SUBDASH --db postgres://… [--notifications 10000] [--subscribers 1000]
      Two `listen --db` processes on one (empty) database, every notification sent to one of them
      at random by 32 senders; then the database is exported and compared with a serial
      application of the same notifications (one sender, one directory listen): every
      notification applied exactly once and each subscriber's state equal (no lost update).
  listen_load.py kill SUBDASH [--notifications 10000] [--subscribers 1000] [--kill-after 3000]
      kill -9 of listen while 32 senders deliver; restart on the same port; senders retry every
      failed or unanswered notification until 200, as Apple does. Every subscriber's file must end
      with every one of its notifications exactly once.

Needs .venv-oracle (cryptography, app-store-server-library): run with .venv-oracle/bin/python.
"""
import argparse, base64, http.client, json, os, shutil, signal, socket, statistics, subprocess, sys, tempfile, threading, time
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography import x509

BUNDLE = "com.example.load"


def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


class Signer:
    """ES256 compact JWS with the x5c chain of a CA made by `subdash ca init`."""
    def __init__(self, ca):
        self.key = serialization.load_pem_private_key(open(f"{ca}/leaf-key.pem", "rb").read(), None)
        chain = []
        for name in ["leaf.pem", "intermediate.pem", "root.pem"]:
            cert = x509.load_pem_x509_certificate(open(f"{ca}/{name}", "rb").read())
            chain.append(base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode())
        self.header = b64url(json.dumps({"alg": "ES256", "x5c": chain}, separators=(",", ":")).encode())

    def sign(self, payload):
        data = self.header + "." + b64url(json.dumps(payload, separators=(",", ":")).encode())
        r, s = decode_dss_signature(self.key.sign(data.encode(), ec.ECDSA(hashes.SHA256())))
        return data + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def bodies(signer, notifications, subscribers):
    """Notification k is renewal k // subscribers of subscriber k % subscribers, signed in order."""
    start, month = 1_780_000_000_000, 30 * 86_400_000
    out = []
    for k in range(notifications):
        sub, n = k % subscribers, k // subscribers
        original = f"{3000000000 + sub}"
        signed = start + n * month + sub
        tx = {"transactionId": f"{original}{n:05d}", "originalTransactionId": original, "productId": "com.example.monthly",
              "bundleId": BUNDLE, "purchaseDate": start + n * month, "originalPurchaseDate": start, "expiresDate": start + (n + 1) * month,
              "signedDate": signed, "environment": "Sandbox", "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
              "price": 9990, "currency": "USD"}
        rn = {"originalTransactionId": original, "autoRenewProductId": "com.example.monthly", "productId": "com.example.monthly",
              "autoRenewStatus": 1, "signedDate": signed, "environment": "Sandbox", "renewalDate": start + (n + 1) * month}
        note = {"notificationType": "SUBSCRIBED" if n == 0 else "DID_RENEW", "subtype": "INITIAL_BUY" if n == 0 else None,
                "notificationUUID": f"00000000-0000-4000-8000-{k:012d}", "version": "2.0", "signedDate": signed,
                "data": {"bundleId": BUNDLE, "environment": "Sandbox", "status": 1,
                         "signedTransactionInfo": signer.sign(tx), "signedRenewalInfo": signer.sign(rn)}}
        if note["subtype"] is None:
            del note["subtype"]
        out.append((original, note["notificationUUID"], json.dumps({"signedPayload": signer.sign(note)}).encode()))
    return out


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.02)
    raise SystemExit(f"nothing listens on {port}")


def send_all(port, items, senders, retry=False, acknowledged=None):
    """Each sender takes the next notification and POSTs it on its own keep-alive connection.
    Returns (seconds, latencies in ms of the successful attempts, failures)."""
    lock = threading.Lock()
    index = [0]
    latencies, failures = [], [0]

    def worker():
        conn = None
        while True:
            with lock:
                if index[0] >= len(items):
                    return
                _, _, body = items[index[0]]
                index[0] += 1
            while True:
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    t0 = time.perf_counter()
                    conn.request("POST", "/", body, {"Content-Type": "application/json"})
                    resp = conn.getresponse()
                    resp.read()
                    ms = (time.perf_counter() - t0) * 1000
                    if resp.status == 200:
                        with lock:
                            latencies.append(ms)
                            if acknowledged is not None:
                                acknowledged[0] += 1
                        break
                    with lock:
                        failures[0] += 1
                except (OSError, http.client.HTTPException):
                    with lock:
                        failures[0] += 1
                    if conn is not None:
                        conn.close()
                    conn = None
                if not retry:
                    break
                time.sleep(0.05)  # Apple's retry waits hours; here, until the server is back

    threads = [threading.Thread(target=worker) for _ in range(senders)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, latencies, failures[0]


def send_native(bench, port, items, senders, work, trace=None):
    """The same senders in a native process (SubDashBench post). Returns (seconds, stats, failures).
    trace: a CSV path for each request's start and latency (when the slow ones happen)."""
    path = f"{work}/bodies.jsonl"
    if not os.path.exists(path):
        with open(path, "wb") as f:
            for _, _, body in items:
                f.write(body + b"\n")
    out = subprocess.run([bench, "post", "--bodies", path, "--port", str(port), "--senders", str(senders)] + (["--trace", trace] if trace else []),
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    return r["seconds"], r, r["failed"]


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def notification_uuids(directory, doc):
    """A subscriber's notificationUUIDs, oldest first: its inline history (a young subscriber's
    whole history), then the committed part of its journal."""
    uuids = [n.get("notificationUUID") for n in doc.get("subscriber", {}).get("notifications") or []]
    journal = doc.get("journal") or {}
    if journal.get("file"):
        with open(os.path.join(directory, journal["file"]), "rb") as f:
            committed = f.read(journal.get("committedBytes", 0))
        for line in committed.splitlines():
            e = json.loads(line)
            if "notification" in e:
                uuids.append(e["notification"]["notificationUUID"])
    return uuids


def count_in_files(directory):
    """notificationUUID → how many times it is in the subscribers' histories."""
    seen = {}
    for name in os.listdir(directory):
        if name.endswith(".json") and not name.startswith("."):
            for u in notification_uuids(directory, json.load(open(os.path.join(directory, name)))):
                seen[u] = seen.get(u, 0) + 1
    return seen


class Crowd:
    """Strangers holding connections: `idle` sockets that connect and say nothing, and `slow` ones
    that send a request head one byte every `interval` s. Each reconnects 50 ms after the server
    closes it, as an attacker would, so the crowd stays the same size for the whole run."""
    def __init__(self, port, idle, slow, interval=0.5):
        self.port, self.stop, self.closed = port, threading.Event(), {"idle": 0, "slow": 0}
        self.threads = [threading.Thread(target=self.hold_idle, args=(idle,), daemon=True)]
        self.threads += [threading.Thread(target=self.trickle, args=(interval,), daemon=True) for _ in range(slow)]
        for t in self.threads:
            t.start()

    def connect(self):
        while not self.stop.is_set():
            try:
                return socket.create_connection(("127.0.0.1", self.port), timeout=5)
            except OSError:
                time.sleep(0.05)

    def hold_idle(self, n):
        import selectors
        sel = selectors.DefaultSelector()
        def hold(sock):
            if sock is not None:  # None: the run is ending
                sel.register(sock, selectors.EVENT_READ)
        for _ in range(n):
            hold(self.connect())
        while not self.stop.is_set():
            for key, _ in sel.select(timeout=0.1):
                sel.unregister(key.fileobj)
                key.fileobj.close()
                self.closed["idle"] += 1
                time.sleep(0.05)
                hold(self.connect())
        for key in list(sel.get_map().values()):
            key.fileobj.close()

    def trickle(self, interval):
        head = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Slow: " + b"a" * 100000
        while not self.stop.is_set():
            s = self.connect()
            if s is None:
                return
            try:
                for i in range(len(head)):
                    if self.stop.wait(interval):
                        break
                    s.sendall(head[i:i + 1])
            except OSError:
                self.closed["slow"] += 1
                time.sleep(0.05)
            finally:
                s.close()

    def end(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=10)


def one_by_one(port, items):
    """Each notification on a new connection, one at a time: (latencies in ms, failures)."""
    latencies, failures = [], 0
    for _, _, body in items:
        t0 = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", "/", body, {"Content-Type": "application/json", "Connection": "close"})
            resp = conn.getresponse()
            resp.read()
            conn.close()
            if resp.status == 200:
                latencies.append((time.perf_counter() - t0) * 1000)
                continue
        except (OSError, http.client.HTTPException):
            pass
        failures += 1
    return latencies, failures


STARTED = []  # every server this run starts, stopped in main's finally however the run ends


def started(proc):
    STARTED.append(proc)
    return proc


def start_listen(subdash, port, ca, directory, log, db=None):
    target = ["--db", db] if db else [directory]
    return started(subprocess.Popen([subdash, "listen", "--port", str(port), "--root", f"{ca}/root.pem", "--bundle-id", BUNDLE] + target,
                            stdout=subprocess.DEVNULL, stderr=log))


def subscriber_states(directory):
    """file name → (latestTransaction, renewalInfo, sorted notification UUIDs, count of them)."""
    out = {}
    for name in os.listdir(directory):
        if not name.endswith(".json") or name.startswith("."):
            continue
        doc = json.load(open(os.path.join(directory, name)))
        uuids = notification_uuids(directory, doc)
        sub = doc["subscriber"]
        out[name] = (json.dumps(sub.get("latestTransaction"), sort_keys=True), json.dumps(sub.get("renewalInfo"), sort_keys=True),
                     sorted(uuids), len(uuids))
    return out


def send_split(ports, items, senders, seed=7):
    """Each notification to one of `ports` chosen at random (seeded), retried there until 200."""
    import random
    rng = random.Random(seed)
    by_port = {p: [] for p in ports}
    for item in items:
        by_port[rng.choice(ports)].append(item)
    results = {}
    threads = [threading.Thread(target=lambda p=p: results.__setitem__(p, send_all(p, by_port[p], senders // len(ports), retry=True))) for p in ports]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    return seconds, sum((r[1] for r in results.values()), []), sum(r[2] for r in results.values()), {p: len(v) for p, v in by_port.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["bench", "kill", "db", "crowd"])
    ap.add_argument("--idle", type=int, default=300, help="crowd: silent connections held open")
    ap.add_argument("--slow", type=int, default=8, help="crowd: slow-loris clients trickling a head")
    ap.add_argument("--single", type=int, default=50, help="crowd: notifications sent one at a time, each on a new connection")
    ap.add_argument("--db")
    ap.add_argument("subdash")
    ap.add_argument("--notifications", type=int, default=10000)
    ap.add_argument("--subscribers", type=int, default=1000)
    ap.add_argument("--senders", type=int, default=32)
    ap.add_argument("--kill-after", type=int, default=3000)
    ap.add_argument("--native-sender", help="bench: SubDashBench (release) to send with, instead of 32 Python threads that share the GIL and the cores with the server")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="subdash-listen-load-")
    try:
        ca = f"{work}/ca"
        subprocess.run([a.subdash, "ca", "init", ca], check=True, stdout=subprocess.DEVNULL)
        t0 = time.perf_counter()
        items = bodies(Signer(ca), a.notifications, a.subscribers)
        print(f"signed {len(items)} notifications for {a.subscribers} subscribers in {time.perf_counter() - t0:.1f} s")
        log = open(f"{work}/listen.log", "w")
        if a.mode == "bench":
            rows = []
            port = free_port()
            p = start_listen(a.subdash, port, ca, f"{work}/subdash", log)
            wait_port(port)
            seconds, lat, fails = send_native(a.native_sender, port, items, a.senders, work) if a.native_sender else send_all(port, items, a.senders)
            p.terminate(); p.wait()
            counts = count_in_files(f"{work}/subdash")
            ok = len(counts) == len(items) and all(v == 1 for v in counts.values())
            rows.append(("subdash listen", seconds, lat, fails, ok))
            port = free_port()
            here = os.path.dirname(os.path.abspath(__file__))
            py = started(subprocess.Popen([sys.executable, f"{here}/apple_receiver.py", f"{ca}/root.der", BUNDLE, str(port), f"{work}/python"],
                                          stdout=subprocess.DEVNULL, stderr=log))
            wait_port(port)
            seconds, lat, fails = send_native(a.native_sender, port, items, a.senders, work) if a.native_sender else send_all(port, items, a.senders)
            py.terminate(); py.wait()
            lines = sum(1 for name in os.listdir(f"{work}/python") for _ in open(f"{work}/python/{name}"))
            rows.append(("Apple's Python library", seconds, lat, fails, lines == len(items)))
            sender = "native senders (SubDashBench post)" if a.native_sender else "Python sender threads"
            print(f"\n{len(items)} notifications, {a.subscribers} subscribers, {a.senders} concurrent {sender} (keep-alive), loopback\n")
            print("| receiver | notifications/s | p50 ms | p99 ms | max ms | failed | every notification stored once |")
            print("|---|---:|---:|---:|---:|---:|---|")
            def stats(lat):
                if isinstance(lat, dict):
                    return lat["ok"], lat["p50"], lat["p99"], lat["max"]
                return len(lat), percentile(lat, 50), percentile(lat, 99), max(lat)
            for name, seconds, lat, fails, ok in rows:
                n, p50, p99, mx = stats(lat)
                print(f"| {name} | {n / seconds:,.0f} | {p50:.1f} | {p99:.1f} | {mx:.1f} | {fails} | {'yes' if ok else 'NO'} |")
            ratio = (stats(rows[0][2])[0] / rows[0][1]) / (stats(rows[1][2])[0] / rows[1][1])
            print(f"\nsubdash listen ÷ Apple's Python library: {ratio:.1f}× the throughput")
            if not all(r[4] for r in rows):
                sys.exit(1)
        elif a.mode == "crowd":
            port = free_port()
            p = start_listen(a.subdash, port, ca, f"{work}/subdash", log)
            wait_port(port)
            crowd = Crowd(port, a.idle, a.slow)
            time.sleep(2)  # the crowd is in: every idle connection open, every trickler sending
            single = items[:a.single]
            lat1, fails1 = one_by_one(port, single)
            rest = items[a.single:]
            seconds, lat, fails = send_native(a.native_sender, port, rest, a.senders, work) if a.native_sender else send_all(port, rest, a.senders)
            crowd.end()
            p.terminate(); p.wait()
            counts = count_in_files(f"{work}/subdash")
            ok = len(counts) == len(items) and all(v == 1 for v in counts.values())
            n = lat["ok"] if isinstance(lat, dict) else len(lat)
            p99 = lat["p99"] if isinstance(lat, dict) else percentile(lat, 99)
            print(f"crowd of {a.idle} silent and {a.slow} slow-loris connections (reconnecting when closed; closed by the server: "
                  f"{crowd.closed['idle']} silent, {crowd.closed['slow']} slow)")
            print(f"one at a time, new connection each: {len(lat1)} answered, {fails1} failed; p50 {percentile(lat1, 50):.1f} ms, "
                  f"max {max(lat1) if lat1 else float('nan'):.1f} ms")
            print(f"under load, {a.senders} senders: {n / seconds:,.0f}/s, p99 {p99:.1f} ms, {fails} failed; every notification stored once: {'yes' if ok else 'NO'}")
            if not ok or fails1 or not lat1 or max(lat1) >= 1000:
                sys.exit(1)
        elif a.mode == "db":
            if not a.db:
                raise SystemExit("db mode needs --db postgres://… (an empty database)")
            ports = [free_port(), free_port()]
            procs = [start_listen(a.subdash, p, ca, None, log, db=a.db) for p in ports]
            for p in ports:
                wait_port(p)
            seconds, lat, fails, split = send_split(ports, items, a.senders)
            for p in procs:
                p.terminate(); p.wait()
            subprocess.run([a.subdash, "db", "export", f"{work}/exported", "--db", a.db], check=True, stdout=subprocess.DEVNULL)
            print(f"two listen --db: {len(lat)} notifications in {seconds:.1f} s ({len(lat) / seconds:,.0f}/s; p50 {percentile(lat, 50):.1f} ms, "
                  f"p99 {percentile(lat, 99):.1f} ms; {split[ports[0]]} to one, {split[ports[1]]} to the other; {fails} failed attempts retried)")
            serial_port = free_port()
            p = start_listen(a.subdash, serial_port, ca, f"{work}/serial", log)
            wait_port(serial_port)
            s_seconds, _, _ = send_all(serial_port, items, 1, retry=True)
            p.terminate(); p.wait()
            print(f"serial reference: one sender, one directory listen, {s_seconds:.1f} s")
            got, want = subscriber_states(f"{work}/exported"), subscriber_states(f"{work}/serial")
            differ = [n for n in want if got.get(n) != want[n]]
            counts = {}
            for state in got.values():
                for u in state[2]:
                    counts[u] = counts.get(u, 0) + 1
            missing = [u for _, u, _ in items if u not in counts]
            twice = [u for u, c in counts.items() if c > 1]
            print(f"{len(got)} subscribers in the database, {len(want)} in the serial run; {len(differ)} differ; "
                  f"{len(missing)} notifications missing, {len(twice)} twice")
            if differ or missing or twice or len(got) != len(want):
                sys.exit(1)
            print("listen-db: ok, every notification applied exactly once; every subscriber equals the serial application")
        else:
            port = free_port()
            directory = f"{work}/subdash"
            p = start_listen(a.subdash, port, ca, directory, log)
            wait_port(port)
            acknowledged = [0]
            killed = {}

            def killer():
                while acknowledged[0] < a.kill_after:
                    time.sleep(0.002)
                p.send_signal(signal.SIGKILL)
                p.wait()
                killed["at"] = acknowledged[0]
                killed["new"] = start_listen(a.subdash, port, ca, directory, log)

            k = threading.Thread(target=killer)
            k.start()
            seconds, lat, fails = send_all(port, items, a.senders, retry=True, acknowledged=acknowledged)
            k.join()
            killed["new"].terminate(); killed["new"].wait()
            counts = count_in_files(directory)
            missing = [u for _, u, _ in items if counts.get(u, 0) == 0]
            twice = [u for u, c in counts.items() if c > 1]
            files = len([n for n in os.listdir(directory) if n.endswith(".json")])
            print(f"kill -9 after {killed['at']} acknowledged, restarted; {fails} failed attempts retried; "
                  f"{len(counts)} of {len(items)} notifications in {files} files, {len(missing)} missing, {len(twice)} twice")
            if missing or twice or files != a.subscribers:
                sys.exit(1)
            print("listen-kill: ok, every subscriber's file has every notification exactly once")
    finally:
        for proc in STARTED:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
