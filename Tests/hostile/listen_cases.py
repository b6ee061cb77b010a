"""Hostile requests to `subdash listen` (issue 19): malformed HTTP, methods, Content-Type, limits,
JSON, every JWS trick, ids that would be paths, app-level notifications, other apps and
environments, replays, a local failure, a held lock and slow clients. Each asserts its exact
answer, that nothing was written where the request is refused, and that the server lives on."""
import json, os, re, subprocess, sys, time
import payloads as P
from jws import tampered, flipped_signature, apple_header, b64url, compact
from rawhttp import exchange, request, connect, read_answers, closed_within, Hang

JSON = "application/json"


def post(body, content_type=JSON, path="/", headers=None, deadline=5.0):
    return lambda port: exchange(port, request("POST", path, body, content_type, headers), deadline)


def raw(data, deadline=5.0):
    return lambda port: exchange(port, data, deadline)


def history_uuids(directory, otid):
    """The notificationUUIDs of subscriber `otid`'s whole history, as SubDash reads it: the document
    {otid}.json's inline notifications (a young subscriber's whole history is inline,
    StateFile.inlineHistoryLimit), then the journal the document names (journal.file), only its
    first journal.committedBytes bytes (past them: a crashed writer's, which readers ignore)."""
    path = os.path.join(directory, f"{otid}.json")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    uuids = [n.get("notificationUUID") for n in doc.get("subscriber", {}).get("notifications", [])]
    journal = doc.get("journal")
    if journal:
        with open(os.path.join(directory, journal["file"]), "rb") as f:
            committed = f.read(journal.get("committedBytes", 0))
        for line in committed.decode("utf-8").splitlines():
            entry = json.loads(line)
            if "notification" in entry:
                uuids.append(entry["notification"].get("notificationUUID"))
    return uuids


LOCK_FILE = ".subdash.lock"
SPARE = re.compile(r"\.subdash-spare-[0-9]+")


def lock_offset(name):
    """The byte of the directory's lock file (LOCK_FILE) that locks the state file `name`: FNV-1a
    (64 bits) of the name's UTF-8 bytes, its low 61 bits (FileLock.offset(of:))."""
    h = 0xcbf29ce484222325
    for byte in name.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001b3) % (1 << 64)
    return h & ((1 << 61) - 1)


# A neighbour process holding one state file's lock: its byte of the directory's lock file, locked
# as FileLock documents another program takes it (a record lock, lockf, on one byte, which conflicts
# with the writers' open-file-description locks). Its own process: a record lock belongs to the
# process and goes as soon as the process closes any descriptor of the file, which this one does
# whenever it snapshots the directory. Holds until its stdin closes.
HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.lockf(fd, fcntl.LOCK_EX, 1, int(sys.argv[2]))
print("held", flush=True)
sys.stdin.read()
"""


def hold_lock(directory, name):
    """Starts a neighbour process holding `name`'s lock in `directory`; returns it once it holds it.
    Let go with release_lock."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, os.path.join(directory, LOCK_FILE), str(lock_offset(name))],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if holder.stdout.readline().strip() != "held":
        holder.kill()
        raise RuntimeError(f"the lock holder for {name} did not take the lock")
    return holder


def release_lock(holder):
    holder.stdin.close()
    holder.wait(10)


def holds_a_version_of(directory, name, otid):
    """True when the file `name` is a whole JSON document of subscriber `otid` (what a directory
    spare holds after a save swapped it in: that save's replaced version)."""
    try:
        with open(os.path.join(directory, name), "rb") as f:
            data = f.read()
        json.loads(data)
    except (OSError, ValueError):
        return False
    return otid.encode() in data


def stored_once(directory, otid, note_uuid):
    """A write check: the subscriber's files changed and its history (inline or journal) holds the
    notification once.
    The directory's lock file may appear (the first writer of a directory makes it), and a directory
    spare (`.subdash-spare-N`) may appear or change, holding then this subscriber's replaced version;
    nothing else."""
    def check(diff):
        names = [(x, x[1:].rsplit("/", 1)[-1]) for x in diff]
        outside = [x for x, n in names if not n.startswith(f"{otid}.") and not n.startswith(f".{otid}.")
                   and not (x[0] == "+" and n == LOCK_FILE)
                   and not (x[0] in "+~" and SPARE.fullmatch(n) and holds_a_version_of(directory, n, otid))]
        if outside:
            return f"an accepted notification for {otid} changed other files: {outside[:4]}"
        n = history_uuids(directory, otid).count(note_uuid)
        return None if n == 1 else f"notification {note_uuid} is in {otid}'s history {n} times, not once"
    return check


def run(h, ctx):
    """h: HTTPCases on the listen server; ctx: signers, paths (see run.py)."""
    s, foreign, d = ctx.signer, ctx.foreign, ctx.state_dir
    ids = iter(range(3_100_000_000, 3_200_000_000))

    def good(otid=None, n=0, **kw):
        otid = otid or str(next(ids))
        note = P.renewal_notification(s, otid, n, **kw)
        return otid, note, P.body(s.sign(note))

    # --- Malformed HTTP: the parser's 400, closed -------------------------------------------------
    head = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    malformed = {
        "request line without a version": b"POST /\r\n\r\n",
        "request line that is one word": b"HELLO\r\n\r\n",
        "HTTP/2.0 in an HTTP/1 request line": b"POST / HTTP/2.0\r\nHost: x\r\n\r\n",
        "HTTP/9.9": b"POST / HTTP/9.9\r\nHost: x\r\n\r\n",
        "a header line without a colon": b"POST / HTTP/1.1\r\nHost x\r\n\r\n",
        "a NUL byte in the path": b"POST /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
        "a space inside a header name": b"POST / HTTP/1.1\r\nHo st: x\r\n\r\n",
        "Content-Length not a number": head + b"Content-Length: abc\r\n\r\n",
        "Content-Length negative": head + b"Content-Length: -5\r\n\r\n",
        "Content-Length beyond 64 bits": head + b"Content-Length: 99999999999999999999999\r\n\r\n{}",
        "two different Content-Lengths": head + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        "Content-Length with Transfer-Encoding (smuggling)": head + b"Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        "an 80 KiB+ header": head + b"X-Big: " + b"a" * 100_000 + b"\r\n\r\n",
        "2,000 header fields": head + b"".join(b"X-%d: a\r\n" % i for i in range(2000)) + b"\r\n",
        "a 100 KB URL": b"POST /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        "an obsolete folded header": head + b"Content-Type: application/json\r\n folded\r\nContent-Length: 2\r\n\r\n{}",
        "bare LF line ends": b"POST / HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: 2\n\n{}",
        "a TLS ClientHello on the plain port": bytes.fromhex("16030100a5010000a10303") + b"\x00" * 100,
        "2 KB of binary noise": bytes(range(256)) * 8,
        "a lower-case method": b"post / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
        "an unknown method token": b"FOO / HTTP/1.1\r\nHost: x\r\n\r\n",
    }
    for name, data in malformed.items():
        h.case(f"malformed HTTP: {name} → 400", raw(data), 400)

    # Chunked bodies: a bad size is the sender's fault (400), not 413.
    chunked = head + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    h.case("chunk size 'zz' → 400", raw(chunked + b"zz\r\n{}\r\n0\r\n\r\n"), 400, "chunk size")
    h.case("chunk size of 18 hex digits → 400", raw(chunked + b"ffffffffffffffffff\r\n{}\r\n0\r\n\r\n"), 400, "chunk size")
    h.case("chunk size negative → 400", raw(chunked + b"-2\r\n{}\r\n0\r\n\r\n"), 400)
    h.case("Transfer-Encoding gzip (not chunked) → 400", raw(head + b"Content-Type: application/json\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n{}"), 400)
    big = b" " * 300_000
    h.case("chunked body over 256 KiB → 413", raw(chunked + b"%x\r\n" % len(big) + big + b"\r\n0\r\n\r\n"), 413, "limit")
    h.case("chunked body of valid small chunks but not JSON → 400", raw(chunked + b"1\r\n[\r\n1\r\n]\r\n0\r\n\r\n"), 400, "not a JSON object")

    # --- Methods -------------------------------------------------------------------------------
    for method in ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"]:
        h.case(f"{method} → 405 only POST", raw(request(method, "/", b"" if method != "GET" else None, None)), 405, "only POST")
    h.case("HEAD → 405, no body", raw(request("HEAD", "/", None, None)), 405)
    # docs/notifications.md: "Other methods: 405" (TRACE is a method Hummingbird knows).
    h.case("TRACE → 405 (documented: other methods 405)", raw(request("TRACE", "/", None, None)), 405)

    # --- Content-Type ----------------------------------------------------------------------------
    junk = b'{"signedPayload": "x"}'
    for ct in [None, "text/plain", "application/jsonfoo", "application/json-patch+json", "application/x-www-form-urlencoded",
               "multipart/form-data; boundary=x", "application/json,text/html", "application/", "*/*"]:
        h.case(f"Content-Type {ct or '(none)'} → 415", post(junk, ct), 415, "Content-Type must be application/json")
    for ct in ["application/json; charset=utf-8", "Application/JSON", "application/json ;charset=UTF-8"]:
        otid, note, b = good()
        h.case(f"Content-Type {ct} → 200 accepted", post(b, ct), 200, f"created {otid}.json", writes=stored_once(d, otid, note["notificationUUID"]))

    # --- Body limits -----------------------------------------------------------------------------
    h.case("body of 256 KiB + 1 with Content-Length → 413", post(b" " * (256 * 1024 + 1)), 413, "262144-byte limit")
    h.case("body of exactly 256 KiB (spaces) → 400, not 413", post(b" " * (256 * 1024)), 400, "not a JSON object")
    h.case("Content-Length 10^12 with 2 bytes sent → closed at --body-timeout, no answer", raw(request("POST", "/", None, JSON, {"Content-Length": "1000000000000"}) + b"{}", 4), "closed", within=2.5)
    h.case("body shorter than its Content-Length → closed at --body-timeout", raw(request("POST", "/", None, JSON, {"Content-Length": "100"}) + b"{}", 4), "closed", within=2.5)

    # --- JSON ------------------------------------------------------------------------------------
    bad_json = {
        "an empty body": b"",
        "truncated JSON": b'{"signedPayload": "eyJ',
        "invalid JSON": b'{signedPayload: x}',
        "a JSON array": b'["x"]',
        "JSON null": b"null",
        "a JSON string": b'"signedPayload"',
        "invalid UTF-8": b'{"signedPayload": "\xff\xfe"}',
        "100,000 nested brackets": b"[" * 100_000 + b"]" * 100_000,
        "NaN": b'{"signedPayload": NaN}',
    }
    for name, b in bad_json.items():
        h.case(f"{name} → 400", post(b), 400, "not a JSON object")
    otid_bom, note_bom, b_bom = good()
    h.case("a UTF-8 BOM before a good notification → 200 (RFC 8259 lets a parser ignore it)", post(b"\xef\xbb\xbf" + b_bom), 200,
           f"created {otid_bom}.json", writes=stored_once(d, otid_bom, note_bom["notificationUUID"]))
    shape = "must be {\"signedPayload\": \"<JWS>\"} and nothing else"
    for name, b in {"an extra field": b'{"signedPayload": "a.b.c", "x": 1}', "signedPayload a number": b'{"signedPayload": 1e999}',
                    "signedPayload null": b'{"signedPayload": null}', "no signedPayload": b'{"payload": "a.b.c"}',
                    "an empty object": b"{}"}.items():
        h.case(f"{name} → 400", post(b), 400, shape)

    # --- JWS tricks: 403, nothing written, still alive --------------------------------------------
    otid = str(next(ids))
    note = P.renewal_notification(s, otid)
    tricks = {
        "an empty JWS": "",
        "one segment": "abc",
        "two segments": "abc.def",
        "four segments": s.sign(note) + ".x",
        "a header that is not base64url": "!!!." + s.sign(note).split(".", 1)[1],
        "a header that is not JSON": b64url(b"not json") + "." + s.sign(note).split(".", 1)[1],
        "alg none, no signature": f"{b64url(compact({'alg': 'none', 'x5c': s.chain}))}.{b64url(compact(note))}.",
        "alg HS256 keyed with the leaf certificate": s.hs256(note),
        "alg ES384": s.sign(note, header=s.header(alg="ES384")),
        "no x5c": s.sign(note, header=s.header(x5c=None)),
        "x5c with 1 certificate": s.sign(note, header=s.header(x5c=s.chain[:1])),
        "x5c with 2 certificates": s.sign(note, header=s.header(x5c=s.chain[:2])),
        "x5c with leaf and intermediate swapped": s.sign(note, header=s.header(x5c=[s.chain[1], s.chain[0], s.chain[2]])),
        "x5c of garbage base64": s.sign(note, header=s.header(x5c=["AAAA", "AAAA", "AAAA"])),
        "a foreign CA's chain (untrusted root)": foreign.sign(note),
        "our chain, signed by the foreign CA's key": foreign.sign(note, header=s.header()),
        "a tampered payload": tampered(s.sign(note), {**note, "notificationType": "REFUND"}),
        "a flipped signature bit": flipped_signature(s.sign(note)),
        "a 63-byte signature": s.with_signature(note, b"\x01" * 63),
        "64 zero bytes as the signature, valid chain and date": s.with_signature(note, b"\x00" * 64),
        "a payload that is not JSON": s.sign(None, payload_bytes=b"not json"),
        "a payload without signedDate": s.sign({k: v for k, v in note.items() if k != "signedDate"}),
        "signedDate a string": s.sign({**note, "signedDate": "2026-05-28"}),
        "signedDate before the chain is valid (2019)": s.sign({**note, "signedDate": 1_546_300_800_000}),
        "signedDate 0": s.sign({**note, "signedDate": 0}),
    }
    for name, jws in tricks.items():
        h.case(f"JWS {name} → 403", post(P.body(jws)), 403, "refused: signedPayload")

    # Out-of-range signedDate with zero signatures: once signal 4 (X509/Time.swift, try!).
    apple = apple_header(ctx.apple_jws)
    for date in P.BAD_DATES:
        bad = {**note, "signedDate": date}
        h.case(f"signedDate {date!r}, test-CA chain, 64 zero bytes → 403", post(P.body(s.with_signature(bad, b"\x00" * 64))), 403, "signedDate")
        h.case(f"signedDate {date!r}, Apple's real chain, 64 zero bytes → 403", post(P.body(s.with_signature(bad, b"\x00" * 64, header=apple))), 403, "signedDate")
    for date in P.BAD_DATES[:2]:
        h.case(f"nested transaction with signedDate {date!r} (outer valid) → 403",
               post(P.body(s.sign(P.renewal_notification(s, otid, tx=s.with_signature(P.transaction(otid, signed=date), b"\x00" * 64))))),
               403, "data.signedTransactionInfo")

    # Xcode / LocalTesting: nothing verifies them.
    for env in ["Xcode", "LocalTesting"]:
        n = P.renewal_notification(s, otid, env=env)
        h.case(f"a notification for the {env} environment → 403", post(P.body(foreign.sign(n))), 403, f"for the {env} environment")
    # Nested signed data must match the notification and be verified the same way.
    nested = {
        "an unverified Xcode transaction nested in a verified notification":
            (dict(tx=foreign.sign(P.transaction(otid, env="Xcode"))), "data.signedTransactionInfo is for the Xcode environment"),
        "an unverified LocalTesting renewal info nested":
            (dict(rn=foreign.sign(P.renewal(otid, env="LocalTesting"))), "data.signedRenewalInfo is for the LocalTesting environment"),
        "a Production transaction in a Sandbox notification":
            (dict(tx=s.sign(P.transaction(otid, env="Production"))), "data.signedTransactionInfo is for Production, the notification for Sandbox"),
        "a Production renewal info in a Sandbox notification":
            (dict(rn=s.sign(P.renewal(otid, env="Production"))), "data.signedRenewalInfo is for Production, the notification for Sandbox"),
        "another app's transaction in this app's notification":
            (dict(tx=s.sign(P.transaction(otid, bundle=P.OTHER_BUNDLE))), f"data.signedTransactionInfo is for bundle id {P.OTHER_BUNDLE}"),
        "a transaction signed by a foreign CA":
            (dict(tx=foreign.sign(P.transaction(otid))), "data.signedTransactionInfo"),
        "a tampered nested transaction":
            (dict(tx=tampered(s.sign(P.transaction(otid)), P.transaction("3999999999"))), "data.signedTransactionInfo"),
    }
    for name, (kw, phrase) in nested.items():
        h.case(f"{name} → 403", post(P.body(s.sign(P.renewal_notification(s, otid, **kw)))), 403, phrase)
    h.case("another app's bundle id → 403", post(P.body(s.sign(P.renewal_notification(s, otid, bundle=P.OTHER_BUNDLE,
           tx=s.sign(P.transaction(otid, bundle=P.OTHER_BUNDLE)))))), 403, f"is for bundle id {P.OTHER_BUNDLE}, not {P.BUNDLE}")
    h.case("a signed transaction instead of a notification → 400", post(P.body(s.sign(P.transaction(otid)))), 400, "not a notification")

    # --- Ids that would be paths -------------------------------------------------------------------
    h.case("numeric originalTransactionId → 400", post(P.body(s.sign(P.renewal_notification(s, otid,
           tx=s.sign({**P.transaction(otid), "originalTransactionId": int(otid)}))))), 400, "originalTransactionId is a number")
    for bad_id in ["../../etc/passwd", "..", "../3100000000", "31/00", "%2e%2e%2f", "3100000000\n", "-1", "+1", "1e5", " 3100000000",
                   "１２３", "9" * 40, ""]:
        h.case(f"originalTransactionId {bad_id!r} → 400", post(P.body(s.sign(P.renewal_notification(s, otid,
               tx=s.sign({**P.transaction(otid), "originalTransactionId": bad_id}))))), 400, "originalTransactionId")

    # --- App-level notifications: 200, nothing written ----------------------------------------------
    for kind, phrase in [("RESCIND_CONSENT", "RESCIND_CONSENT"), ("EXTERNAL_PURCHASE_TOKEN", "EXTERNAL_PURCHASE_TOKEN/UNREPORTED"),
                         ("SUMMARY", "RENEWAL_EXTENSION/SUMMARY"), ("TEST", "TEST")]:
        h.case(f"{kind} for this app → 200, nothing written", post(P.body(s.sign(P.app_level(kind)))), 200, phrase)
    for kind in ["RESCIND_CONSENT", "EXTERNAL_PURCHASE_TOKEN", "SUMMARY", "TEST"]:
        h.case(f"{kind} for another app → 403", post(P.body(s.sign(P.app_level(kind, bundle=P.OTHER_BUNDLE)))), 403,
               f"is for bundle id {P.OTHER_BUNDLE}")

    # --- Replays, other environments --------------------------------------------------------------
    otid, note, first = good()
    h.case("a good notification → 200, stored once", post(first), 200, f"created {otid}.json", writes=stored_once(d, otid, note["notificationUUID"]))
    h.case("the same notification redelivered → 200, nothing changed", post(first), 200, "already applied")
    h.case("redelivered on another path with a query → 200, nothing changed", post(first, path="/hook/v2?x=1"), 200, "already applied")
    renewal1 = P.renewal_notification(s, otid, 1)
    h.case("the next renewal → 200, stored once", post(P.body(s.sign(renewal1))), 200, "applied", writes=stored_once(d, otid, renewal1["notificationUUID"]))
    prod = P.renewal_notification(s, otid, 2, env="Production")
    h.case("a Production notification for a Sandbox subscriber → 409, file untouched", post(P.body(s.sign(prod))), 409, "a Sandbox subscriber")
    h.case("the first notification replayed after the renewal → 200, nothing changed", post(first), 200, "already applied")

    # --- A local failure: 500, and nothing local in its body ------------------------------------------
    broken = str(next(ids))
    with open(os.path.join(d, f"{broken}.json"), "w") as f:
        f.write("db-password=hunter2 not JSON")
    _, bnote, bbody = good(broken)
    h.case("a subscriber file that does not parse → 500 naming nothing local", post(bbody), 500, "not applied; see the receiver's log",
           no_local=True, writes=lambda diff: None if not [x for x in diff if not x.endswith(f"/{LOCK_FILE}")] else f"changed {diff}")
    h.case("…its body does not carry the file's content", post(bbody), 500, "ref ",
           writes=lambda diff: None if not diff else f"changed {diff}")
    os.remove(os.path.join(d, f"{broken}.json"))
    os.makedirs(os.path.join(d, f"{broken}.json"))
    h.case("a subscriber file that is a directory → 500 naming nothing local", post(bbody), 500, "not applied", no_local=True)
    os.rmdir(os.path.join(d, f"{broken}.json"))

    # --- A neighbour holding a subscriber's lock: bounded, 503 + Retry-After --------------------------
    locked, lnote, lbody = good()
    holder = hold_lock(d, f"{locked}.json")
    try:
        def locked_send(port):
            a = exchange(port, request("POST", "/", lbody, JSON), 10)
            if a is not None and a.status == 503 and "retry-after" not in a.headers:
                a.status = "503 without Retry-After"
            return a
        h.case("a subscriber whose lock another process holds → 503 + Retry-After within 10 s", locked_send, 503, "locked by another process",
               within=9, writes=lambda diff: None if not diff else f"wrote {diff}")
        other, onote, obody = good()
        h.case("…meanwhile another subscriber → 200 at once", post(obody), 200, f"created {other}.json", within=2,
               writes=stored_once(d, other, onote["notificationUUID"]))
    finally:
        release_lock(holder)
    h.case("…the lock released, the same notification → 200", post(lbody), 200, f"created {locked}.json", writes=stored_once(d, locked, lnote["notificationUUID"]))

    # --- Pipelining, keep-alive and slow clients ------------------------------------------------------
    def pipelined(port):
        otid2, note2, b2 = good()
        data = (request("GET", "/", None, None).replace(b"Connection: close\r\n", b"")
                + request("POST", "/", b"[]", JSON).replace(b"Connection: close\r\n", b"")
                + request("POST", "/", b2, JSON))
        with connect(port) as sock:
            sock.sendall(data)
            answers, _ = read_answers(sock, 3, 5)
        got = [a.status for a in answers]
        if got != [405, 400, 200]:
            answers[-1].status = f"pipelined answers {got}"
        return answers[-1]
    h.case("three pipelined requests (GET, bad JSON, good) → 405, 400, 200 in order", pipelined, 200, "created",
           writes=lambda diff: None if diff and all(x[0] == "+" for x in diff) else f"expected one new subscriber, got {diff}")

    def slow_head(port):
        with connect(port) as sock:
            t0 = time.monotonic()
            for ch in b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
                try:
                    sock.sendall(bytes([ch]))
                except OSError:
                    return None
                if closed_within(sock, 0.1):
                    return None
                if time.monotonic() - t0 > 4:
                    break
            raise Hang("a trickled head still open after 4 s (--header-timeout 1)")
    h.case("a head trickled a byte per 0.1 s → cut off at --header-timeout (1 s)", slow_head, "closed", within=3)

    def slow_body(port):
        with connect(port) as sock:
            sock.sendall(request("POST", "/", None, JSON, {"Content-Length": "1000"}))
            t0 = time.monotonic()
            while time.monotonic() - t0 < 4:
                try:
                    sock.sendall(b" ")
                except OSError:
                    return None
                if closed_within(sock, 0.1):
                    return None
            raise Hang("a trickled body still open after 4 s (--body-timeout 1)")
    h.case("a body trickled a byte per 0.1 s → cut off at --body-timeout (1 s)", slow_body, "closed", within=3)

    def silent(port):
        with connect(port) as sock:
            if closed_within(sock, 4):
                return None
            raise Hang("a silent connection still open after 4 s (--idle-timeout 2)")
    h.case("a connection that says nothing → closed at --idle-timeout (2 s)", silent, "closed", within=3.5)

    def during_crowd(port):
        crowd = []
        try:
            for _ in range(20):
                c = connect(port)
                c.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n")  # half a head, then nothing
                crowd.append(c)
            for _ in range(20):
                crowd.append(connect(port))  # silent
            otid3, note3, b3 = good()
            during_crowd.expect = (otid3, note3["notificationUUID"])
            return exchange(port, request("POST", "/", b3, JSON), 3)
        finally:
            for c in crowd:
                c.close()
    def crowd_writes(diff):
        otid3, u = during_crowd.expect
        return stored_once(d, otid3, u)(diff)
    h.case("a good notification while 20 half-heads and 20 silent connections are open → 200 within 1 s", during_crowd, 200, "created",
           within=1, writes=crowd_writes)

    # --- Still accepting at the end -------------------------------------------------------------------
    otid, note, b = good()
    h.case("a good notification after everything above → 200, stored once", post(b), 200, f"created {otid}.json", writes=stored_once(d, otid, note["notificationUUID"]))


def run_limited(h, ctx):
    """A second listen with --max-connections 2: strangers holding both slots give way."""
    s, d = ctx.signer, ctx.limited_dir

    def crowded(port):
        held = [connect(port), connect(port)]
        held[1].sendall(b"POST / HTTP/1.1\r\nHost: x\r\n")
        time.sleep(1.2)  # the half head is now a slow client
        try:
            otid = "3300000001"
            note = P.renewal_notification(s, otid)
            crowded.expect = (otid, note["notificationUUID"])
            t0 = time.monotonic()
            a = exchange(port, request("POST", "/", P.body(s.sign(note)), JSON), 3)
            if a is not None and time.monotonic() - t0 > 1:
                a.status = f"{a.status} after {time.monotonic() - t0:.2f} s (bound 1 s)"
            return a
        finally:
            for c in held:
                c.close()
    h.case("--max-connections 2 held by a silent and a slow client: a notification → 200 within 1 s", crowded, 200, "created", writes=lambda diff: stored_once(d, *crowded.expect)(diff))

    def sender_mid_request(port):
        # Issue 37 §3: a real sender half-way through its request, then two strangers arrive at
        # the full limit. One of them gives way, never the sender (it was, 1.4 % of requests
        # under a reconnecting crowd).
        otid = "3300000002"
        note = P.renewal_notification(s, otid)
        sender_mid_request.expect = (otid, note["notificationUUID"])
        data = request("POST", "/", P.body(s.sign(note)), JSON)
        strangers = []
        with connect(port) as sender:
            sender.sendall(data[: len(data) // 2])
            try:
                for _ in range(2):
                    strangers.append(connect(port))
                time.sleep(0.3)  # the server has taken the strangers in; the outcome below holds either way
                sender.sendall(data[len(data) // 2:])
                answers, _ = read_answers(sender, 1, 3)
                return answers[0] if answers else None
            finally:
                for c in strangers:
                    c.close()
    h.case("--max-connections 2: a sender half-way through its request, then two strangers → the sender's 200, stored once",
           sender_mid_request, 200, "created", writes=lambda diff: stored_once(d, *sender_mid_request.expect)(diff))
