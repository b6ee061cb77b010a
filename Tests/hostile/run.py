#!/usr/bin/env python3
"""The hostile-input suite of issue 19 §8: at least 100 HTTP cases against `subdash listen`, 50
against `subdash serve`, 40 file cases against `subdash verify`/`import`/`show`, and issue 37's
outbound cases (URLs with a port no socket has, answers whose body trickles: outbound_cases.py), each
asserting its exact outcome and its side effects (nothing written where refused, no crash, no
hang, a good request still accepted at the end). Prints `hostile: N passed, M failed` and the
figures docs/reliability.md gives; exits 1 on any failure.

  .venv-oracle/bin/python Tests/hostile/run.py "$(swift build --show-bin-path)" [--only listen|serve|files|outbound]

Needs .venv-oracle (cryptography; Tests/oracle/run.sh creates it). Servers listen on 127.0.0.1 only.
"""
import argparse, os, shutil, subprocess, sys, tempfile, types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ left in the repository
sys.path.insert(0, HERE)
from jws import Signer
from tally import Tally
from server import Server
from httpcase import HTTPCases
import listen_cases, serve_cases, file_cases, outbound_cases

REPO = os.path.dirname(os.path.dirname(HERE))
APPLE_JWS = os.path.join(REPO, "Tests/AppStoreSigningTests/Fixtures/real-apple/ruby_sandbox_transaction.jws")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin", help="the directory of the built subdash binaries (swift build --show-bin-path)")
    ap.add_argument("--only", choices=["listen", "serve", "files", "outbound"])
    ap.add_argument("--verbose", action="store_true", help="print every case, not only the failures")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (its path is printed)")
    a = ap.parse_args()
    subdash = os.path.join(a.bin, "subdash")
    work = tempfile.mkdtemp(prefix="subdash-hostile-")
    os.chmod(work, 0o700)
    tally, servers = Tally(a.verbose), []
    try:
        ctx = types.SimpleNamespace(work=work, subdash=subdash, apple_jws=APPLE_JWS, repo=REPO)
        for name in ["ca", "foreign-ca"]:
            subprocess.run([subdash, "ca", "init", f"{work}/{name}"], check=True, stdout=subprocess.DEVNULL)
        ctx.signer, ctx.foreign = Signer(f"{work}/ca"), Signer(f"{work}/foreign-ca")
        os.makedirs(f"{work}/logs")
        if a.only in (None, "listen"):
            around = f"{work}/listen"
            ctx.state_dir = f"{around}/state"
            os.makedirs(ctx.state_dir)
            listen = Server([subdash, "listen", "--port", "0", "--root", f"{work}/ca/root.pem", "--bundle-id", listen_cases.P.BUNDLE,
                             "--header-timeout", "1", "--body-timeout", "1", "--idle-timeout", "2", ctx.state_dir],
                            f"{work}/logs/listen.log").start()
            servers.append(listen)
            listen_cases.run(HTTPCases(tally, "listen", listen, [around]), ctx)
            ctx.limited_dir = f"{work}/limited"
            limited = Server([subdash, "listen", "--port", "0", "--root", f"{work}/ca/root.pem", "--max-connections", "2",
                              "--header-timeout", "30", "--idle-timeout", "30", ctx.limited_dir], f"{work}/logs/limited.log").start()
            servers.append(limited)
            listen_cases.run_limited(HTTPCases(tally, "listen", limited, [ctx.limited_dir]), ctx)
        if a.only in (None, "serve"):
            serve_cases.run(tally, ctx, servers)
        if a.only in (None, "files"):
            file_cases.run(tally, ctx)
        if a.only in (None, "outbound"):
            outbound_cases.run(tally, ctx, servers)
    finally:
        for s in servers:
            s.stop()
        if a.keep:
            print(f"hostile: work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(tally.summary())
    sys.exit(1 if tally.failures else 0)


if __name__ == "__main__":
    main()
