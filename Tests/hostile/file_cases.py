"""Hostile files for `subdash verify`, `import` and `show` (issue 19): empty, a directory, missing,
broken or deeply nested JSON, a byte-order mark, binary noise, huge numbers and out-of-range dates
in state files, JWS with out-of-range signedDate (once a 70-line trap), forged or foreign
signatures, a pipe, inputs with nothing importable and API responses that are not subscribers."""
import json, os, subprocess
import payloads as P
from jws import tampered, apple_header, b64url, compact
from filecase import FileCases


def run(tally, ctx):
    s, foreign = ctx.signer, ctx.foreign
    root = f"{ctx.work}/files"
    src, out = f"{root}/in", f"{root}/out"
    os.makedirs(src)
    os.makedirs(out)
    f = FileCases(tally, ctx.subdash, root)
    trust = ["--root", f"{ctx.work}/ca/root.pem"]

    def put(name, data):
        path = f"{src}/{name}"
        with open(path, "wb") as fh:
            fh.write(data if isinstance(data, bytes) else data.encode())
        return path

    def created(path):
        def check(diff):
            return None if diff == [f"+out/{os.path.basename(path)}"] or (f"+out/{os.path.basename(path)}" in diff and all(
                d.startswith("+out/") for d in diff)) else f"expected {path} created and nothing else changed: {diff}"
        return check

    otid = "3400000001"
    tx = P.transaction(otid)
    valid = s.sign(tx)
    note = P.renewal_notification(s, otid)
    apple = apple_header(ctx.apple_jws)
    inputs = {
        "empty": put("empty.jws", b""),
        "broken": put("broken.json", '{"signedPayload": "a.b'),
        "valid": put("valid.jws", valid + "\n"),
        "bom": put("bom.jws", b"\xef\xbb\xbf" + valid.encode() + b"\n"),
        "alg none": put("none.jws", f"{b64url(compact({'alg': 'none', 'x5c': s.chain}))}.{b64url(compact(tx))}."),
        "tampered": put("tampered.jws", tampered(valid, {**tx, "expiresDate": tx["expiresDate"] + 10 ** 10})),
        "foreign": put("foreign.jws", foreign.sign(tx)),
        "signedDate 1e400": put("inf.jws", s.sign(None, payload_bytes=json.dumps(tx).replace(str(tx["signedDate"]), "1e400").encode())),
        "Xcode": put("xcode.jws", foreign.sign(P.transaction(otid, env="Xcode"))),
        "nested": put("nested.json", P.body(s.sign(P.renewal_notification(s, otid, tx=s.with_signature(P.transaction(otid, signed=P.BAD_DATES[1]), b"\x00" * 64))))),
        "brackets": put("brackets.json", b"[" * 100_000 + b"]" * 100_000),
        "binary": put("noise.bin", bytes(range(256)) * 64),
        "notification": put("note.json", P.body(s.sign(note))),
    }
    bad_date = {}
    for date in P.BAD_DATES:
        bad_date[date] = put(f"date-{date}.jws", s.with_signature({**tx, "signedDate": date}, b"\x00" * 64))
    apple_bad = {date: put(f"apple-date-{date}.jws", s.with_signature({**tx, "signedDate": date}, b"\x00" * 64, header=apple))
                 for date in P.BAD_DATES[1:3]}
    missing, directory, fifo = f"{src}/missing.json", f"{src}/a-directory", f"{src}/a-fifo"
    os.makedirs(directory)
    os.mkfifo(fifo)  # no writer ever opens it: a reader that waits on it hangs

    # --- verify -------------------------------------------------------------------------------------
    f.case("verify an empty file → 2", ["verify"] + trust + [inputs["empty"]], 2, "input is empty")
    f.case("verify a directory → 2", ["verify"] + trust + [directory], 2, "cannot read")
    f.case("verify a FIFO nobody writes → 2, not waited on", ["verify"] + trust + [fifo], 2, "cannot read")
    f.case("verify a missing file → 2", ["verify"] + trust + [missing], 2, "cannot read")
    f.case("verify broken JSON → 2", ["verify"] + trust + [inputs["broken"]], 2, "not JSON")
    f.case("verify a valid test-CA JWS → 0", ["verify"] + trust + [inputs["valid"]], 0, "valid")
    f.case("verify skips a UTF-8 byte-order mark → 0", ["verify"] + trust + [inputs["bom"]], 0, "valid")
    f.case("verify - from a pipe → 0", ["verify"] + trust + ["-"], 0, "valid", stdin=valid.encode())
    for date, path in bad_date.items():
        f.case(f"verify signedDate {date!r}, test-CA chain, zero signature → 2", ["verify"] + trust + [path], 2, "signedDate")
    for date, path in apple_bad.items():
        f.case(f"verify signedDate {date!r}, Apple's chain, zero signature → 2", ["verify", path], 2, "signedDate")
    f.case("verify alg none → 2", ["verify"] + trust + [inputs["alg none"]], 2, "alg")
    f.case("verify a tampered payload → 2", ["verify"] + trust + [inputs["tampered"]], 2, "signature")
    f.case("verify a foreign CA's JWS → 2", ["verify"] + trust + [inputs["foreign"]], 2, "invalid")
    f.case("verify signedDate 1e400 → 2", ["verify"] + trust + [inputs["signedDate 1e400"]], 2, "payload")
    f.case("verify an Xcode JWS → 2 unverified", ["verify"] + trust + [inputs["Xcode"]], 2, "unverified")
    f.case("verify a notification nesting signedDate 2.6e14 → 2", ["verify"] + trust + [inputs["nested"]], 2, "signedTransactionInfo")
    f.case("verify 100,000 nested brackets → 2", ["verify"] + trust + [inputs["brackets"]], 2, "invalid")
    f.case("verify binary noise → 2", ["verify"] + trust + [inputs["binary"]], 2, "invalid")

    # --- import -------------------------------------------------------------------------------------
    o = lambda n: ["-o", f"{out}/{n}.json"]
    f.case("import an empty file → 2, nothing written", ["import", inputs["empty"]] + o("i1"), 2, "empty input")
    f.case("import a directory → 2, nothing written", ["import", directory] + o("i2"), 2, "is a directory")
    f.case("import a FIFO nobody writes → 2, not waited on", ["import", fifo] + o("fifo"), 2, "named pipe")
    f.case("import a missing file → 2, nothing written", ["import", missing] + o("i3"), 2, "No such file")
    f.case("import broken JSON → 2, nothing written", ["import", inputs["broken"]] + o("i4"), 2, "invalid JSON")
    placeholders = put("placeholders.jsonl", '{"signedTransactionInfo": "signed_transaction_one"}\n' * 2000)
    f.case("import a file with nothing importable (placeholders) → 2 nothing to import, nothing written",
           ["import", placeholders] + o("i5"), 2, "nothing to import")
    f.case("import an object of no known shape → 2, nothing written", ["import", put("foo.json", '{"foo": 1}')] + o("i6"), 2,
           "not an App Store or RevenueCat input")
    app_tx = put("app-transaction.json", json.dumps({"signedAppTransactionInfo": s.sign({"bundleId": P.BUNDLE, "appAppleId": 1,
                 "receiptType": "Sandbox", "signedDate": P.START, "originalPurchaseDate": P.START, "environment": "Sandbox"})}))
    f.case("import an App Transaction Info response → 2 naming it", ["import"] + trust + [app_tx] + o("i7"), 2, "App Transaction Info")
    mass = put("mass-status.json", '{"requestIdentifier": "758883e8-151b-47b7-abd0-60c4d804c2f5", "completeDate": 1698148900000, '
               '"complete": true, "succeededCount": 30, "failedCount": 2}')
    f.case("import a mass-extension status response → 2 naming it", ["import", mass] + o("i8"), 2, "Renewal Date Extensions response")
    for date, path in bad_date.items():
        f.case(f"import signedDate {date!r}, zero signature → 2, nothing written", ["import"] + trust + [path] + o("i9"), 2, "signedDate")
    f.case("import a notification nesting signedDate 2.6e14 → 2", ["import"] + trust + [inputs["nested"]] + o("i10"), 2, "signedTransactionInfo")
    f.case("import a foreign CA's JWS → 2, nothing written", ["import"] + trust + [inputs["foreign"]] + o("i11"), 2, "signature")
    f.case("import a tampered JWS → 2, nothing written", ["import"] + trust + [inputs["tampered"]] + o("i12"), 2, "signature")
    f.case("import - from a pipe → 0, the state file written", ["import"] + trust + ["-"] + o("piped"), 0, None,
           stdin=P.body(s.sign(note)), writes=created(f"{out}/piped.json"))
    f.case("import a notification file → 0, the state file written", ["import"] + trust + [inputs["notification"]] + o("existing"), 0,
           "created", writes=created(f"{out}/existing.json"))
    f.case("import broken JSON into that existing file → 2, file unchanged", ["import", inputs["broken"]] + o("existing"), 2, "invalid JSON")
    f.case("import another subscriber into it → 2, file unchanged", ["import"] + trust + [put("other.jws", s.sign(P.transaction("3400000002")))]
           + o("existing"), 2, "3400000002")
    f.case("import with -o a directory → 2", ["import"] + trust + [inputs["valid"], "-o", directory], 2, "a-directory")

    # --- show ---------------------------------------------------------------------------------------
    f.case("show an empty file → 2", ["show", inputs["empty"]], 2, "the file is empty")
    f.case("show a directory → 2", ["show", directory], 2, "is a directory")
    f.case("show a FIFO nobody writes → 2, not waited on", ["show", fifo], 2, "named pipe")
    f.case("show a missing file → 2", ["show", missing], 2, "No such file")
    f.case("show broken JSON → 2", ["show", inputs["broken"]], 2, "invalid JSON")
    f.case("show binary noise → 2", ["show", inputs["binary"]], 2, "noise.bin")
    f.case("show 100,000 nested brackets → 2", ["show", inputs["brackets"]], 2, "brackets.json")
    f.case("show invalid UTF-8 → 2", ["show", put("latin1.json", b'{"format": "\xe9t\xe9"}')], 2, "latin1.json")
    for date, path in bad_date.items():
        f.case(f"show a JWS with signedDate {date!r} → 2", ["show", path], 2, "signedDate")
    state = json.load(open(f"{ctx.repo}/Examples/active.json"))

    def state_file(name, where, key, value, raw=None):
        d = json.loads(json.dumps(state))
        target = d
        for k in where:
            target = target[k]
        target[key] = 123456789 if raw else value
        text = json.dumps(d)
        if raw:
            text = text.replace("123456789", raw, 1)
        return put(name, text)
    lt = ["subscriber", "latestTransaction"]
    for name, where, key, value, raw, phrase in [
        ("expiresDate 9223372036854775807", lt, "expiresDate", 9223372036854775807, None, "outside years"),
        ("expiresDate -9223372036854775808", lt, "expiresDate", -9223372036854775808, None, "outside years"),
        ("expiresDate 1e400", lt, "expiresDate", None, "1e400", "out of range"),
        ("purchaseDate 2.6e14", lt, "purchaseDate", None, "2.6e14", "outside years"),
        ("signedDate 9300000000000000000", lt, "signedDate", 9300000000000000000, None, "outside years"),
        ("price 1e400", lt, "price", None, "1e400", "price"),
        ("renewalDate -62200000000000", ["subscriber", "renewalInfo"], "renewalDate", -62200000000000, None, "outside years"),
        ("simulation.now 9300000000000000000", ["simulation"], "now", 9300000000000000000, None, "outside years"),
    ]:
        path = state_file(f"state-{key}-{name.split()[-1]}.json", where, key, value, raw)
        f.case(f"show a state file with {name} → 2, file unchanged", ["show", path], 2, phrase)
    # --- Files the servers are given: a key others can read or reached by a link, a root that is noise ---
    key = f"{ctx.work}/key-for-files.p8"
    from tokens import new_p8
    new_p8(key)
    loose = put("loose.p8", open(key, "rb").read())
    os.chmod(loose, 0o644)
    link = f"{src}/link.p8"
    os.symlink(key, link)
    serve = lambda k: ["serve", "--port", "0", "--key-id", "K", "--issuer-id", "I", "--key", k, "--bundle-id", P.BUNDLE,
                       "--ca", f"{ctx.work}/ca", f"{out}/serve-dir"]
    f.case("serve --key readable by others → 2, not started", serve(loose), 2, "readable by group or others", timeout=15)
    f.case("serve --key through a symbolic link → 2, not started", serve(link), 2, "symbolic link", timeout=15)
    for name, path, phrase in [("binary noise", inputs["binary"], "not a DER or PEM certificate"), ("a FIFO nobody writes", fifo, "cannot read")]:
        f.case(f"listen --root {name} → 2, not started", ["listen", "--port", "0", "--root", path, f"{out}/listen-dir"], 2, phrase, timeout=15)
        f.case(f"verify --root {name} → 2", ["verify", "--root", path, inputs["valid"]], 2, phrase, timeout=15)
    # --- A neighbour's files in a state directory others can write (issue 37 §2) -----------------
    # Each directory holds a subscriber imported by the real command, then is opened to everyone
    # (1777, as /tmp) and a neighbour's file is put at a name SubDash writes into.
    def shared_subscriber(name):
        d = f"{out}/{name}"
        os.makedirs(d)
        subprocess.run([ctx.subdash, "import"] + trust + [inputs["notification"], "-o", f"{d}/s.json"], check=True,
                       capture_output=True, stdin=subprocess.DEVNULL)
        os.chmod(d, 0o1777)
        return d
    renewal = put("renewal-1.json", P.body(s.sign(P.renewal_notification(s, otid, n=1))))
    linked = shared_subscriber("neighbour-journal")
    with open(f"{linked}/s.json") as fh:
        doc = json.load(fh)
    doc["journal"] = {"file": "s.journal.jsonl", "committedBytes": 0}  # named, not yet started
    with open(f"{linked}/s.json", "w") as fh:
        json.dump(doc, fh)
    readable = put("neighbour-can-read.txt", "the neighbour reads what is written here\n")
    os.link(readable, f"{linked}/s.journal.jsonl")
    f.case("import into a subscriber whose journal name is a neighbour's hard link → 2, neither file written",
           ["import"] + trust + [renewal, "-o", f"{linked}/s.json"], 2, "s.journal.jsonl: cannot open the history journal: has 2 names (hard links)")
    if os.geteuid() == 0:  # only root can give a file to another user
        locked = shared_subscriber("neighbour-lock")
        lock = f"{locked}/.subdash.lock"
        os.unlink(lock)
        with open(lock, "wb"):
            pass
        os.chmod(lock, 0o666)
        os.chown(lock, 65534, 65534)
        f.case("import into a subscriber whose .subdash.lock a neighbour planted → 2, nothing written",
               ["import"] + trust + [renewal, "-o", f"{locked}/s.json"], 2,
               "cannot use the lock file .subdash.lock: belongs to another user (uid 65534)")
    f.case("show Examples/active.json still → 0", ["show", f"{ctx.repo}/Examples/active.json"], 0, None)
