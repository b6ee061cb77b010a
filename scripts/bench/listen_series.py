#!/usr/bin/env python3
"""`subdash listen` alone (listen_load.py bench's first half: 10,000 notifications for 1,000
subscribers, `SubDashBench post` with 32 keep-alive senders, a fresh directory per run, every
notification checked to be stored once) as series of 3 runs, two builds in turn, one CA and one
set of signed bodies for all (the bodies file fsynced first, so no run meets its writeback).
Prints each run's throughput, p50/p99/max latency and listen's CPU (user, sys).

  .venv-oracle/bin/python scripts/bench/listen_series.py SERIES BENCH SUBDASH_A SUBDASH_B
  CHURN=15000 … : before each series, make and remove that many files beside the runs' directories,
  as a previous run's cleanup does (on ext4 without a journal each new inode then scans past them).
  TRACE=DIR … : each run's requests (start, latency) to DIR/trace-SERIES-BUILD-RUN.csv.
"""
import os, sys, shutil, tempfile, subprocess, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import listen_load as L
CHURN = int(os.environ.get("CHURN", "0"))
TRACE = os.environ.get("TRACE")
NOTIFICATIONS, SUBSCRIBERS = int(os.environ.get("NOTIFICATIONS", "10000")), int(os.environ.get("SUBSCRIBERS", "1000"))
if len(sys.argv) < 4:
    raise SystemExit("usage: listen_series.py SERIES BENCH SUBDASH_A [SUBDASH_B]")
series, bench, bins = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
work = tempfile.mkdtemp(prefix="subdash-listen-series-")
ca = f"{work}/ca"
subprocess.run([bins[0], "ca", "init", ca], check=True, stdout=subprocess.DEVNULL)
items = L.bodies(L.Signer(ca), NOTIFICATIONS, SUBSCRIBERS)
with open(f"{work}/bodies.jsonl", "wb") as f:
    for _, _, body in items:
        f.write(body + b"\n")
    f.flush(); os.fsync(f.fileno())
wrong = 0
try:
    log = open(f"{work}/listen.log", "w")
    for s in range(series):
        # by position, so the same build given twice (an A/A control) gets directories of its own
        for i, b in (list(enumerate(bins)) if s % 2 == 0 else list(reversed(list(enumerate(bins))))):
            for r in range(3):
                d = f"{work}/out-{s}-{i}-{r}"
                if r == 0 and CHURN:
                    # what a previous run's cleanup leaves just before a series: CHURN files made and removed
                    c = f"{work}/churn-{s}-{i}"; os.mkdir(c)
                    for i in range(CHURN):
                        with open(f"{c}/{i}", "w") as f: f.write("x" * 500)
                    shutil.rmtree(c)
                port = L.free_port()
                p = L.start_listen(b, port, ca, d, log)
                L.wait_port(port)
                seconds, lat, fails = L.send_native(bench, port, items, 32, work, f"{TRACE}/trace-{s}-{i}-{r}.csv" if TRACE else None)
                st = open(f"/proc/{p.pid}/stat").read().split(")")[1].split()
                p.terminate()
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill(); p.wait()
                counts = L.count_in_files(d)
                ok = len(counts) == len(items) and all(v == 1 for v in counts.values())
                wrong += 0 if ok and not fails else 1
                print(f"{time.strftime('%H:%M:%S', time.gmtime())} {b} run {r + 1}: {lat['ok'] / seconds:,.0f}/s p50 {lat['p50']:.1f} p99 {lat['p99']:.1f} max {lat['max']:.1f} ms, failed {fails}, stored once {ok}, listen CPU user {int(st[11]) / 100:.2f} s sys {int(st[12]) / 100:.2f} s, load {open('/proc/loadavg').read().split()[0]}", flush=True)
finally:
    for p in L.STARTED:
        if p.poll() is None:
            p.kill(); p.wait()
    shutil.rmtree(work, ignore_errors=True)
if wrong:
    sys.exit(f"listen_series: {wrong} run(s) failed a notification or stored one other than once")
