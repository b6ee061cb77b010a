#!/usr/bin/env python3
"""Wall time of a key in the transactions view (`t`, then `j`): from sending the key to tmux to
the pane showing its result ("Transactions: N of M"), in the real binary.

Usage: scripts/bench/transactions_view_keys.py BINARY STATE_FILE [KEYS]
Starts `BINARY STATE_FILE` in a detached tmux session of its own name (ended at the end), waits
until the whole history is read (the view no longer says "the latest only"), then times `t` and
KEYS presses of `j` (default 20), polling the pane every 2 ms. Prints each key and the median.
The figure includes tmux's own delivery and capture (a few ms). For a long history generate one:
`.build/release/SubDashBench generate --sizes 100000` writes .build/bench/history-100000.json.
"""
import statistics, subprocess, sys, time

binary, path = sys.argv[1], sys.argv[2]
keys = int(sys.argv[3]) if len(sys.argv) > 3 else 20
session = "subdash-bench-transactions-view"

def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True)

def pane():
    return tmux("capture-pane", "-p", "-t", session).stdout

def wait_for(text, limit=60):
    """Seconds until the pane shows `text` (exits after `limit` seconds without it)."""
    start = time.monotonic()
    while text not in pane():
        if time.monotonic() - start > limit:
            print(f"no {text!r} within {limit} s:\n" + pane())
            tmux("kill-session", "-t", session)
            sys.exit(1)
        time.sleep(0.002)
    return time.monotonic() - start

tmux("kill-session", "-t", session)
subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "45", binary, path], check=True)
try:
    # A long history is read on another thread: until then the view lists the latest alone.
    deadline = time.monotonic() + 120
    while True:
        wait_for("SubDash")
        tmux("send-keys", "-t", session, "t")
        wait_for("Transactions")
        if "the latest only" not in pane():
            break
        if time.monotonic() > deadline:
            sys.exit("the history was not read within 120 s")
        tmux("send-keys", "-t", session, "Escape")
        time.sleep(0.2)
    tmux("send-keys", "-t", session, "Escape")
    time.sleep(0.3)
    start = time.monotonic()
    tmux("send-keys", "-t", session, "t")
    wait_for("Transactions: 1 of")
    opened = time.monotonic() - start
    print(f"t: {opened * 1000:.1f} ms")
    times = []
    for n in range(2, keys + 2):
        start = time.monotonic()
        tmux("send-keys", "-t", session, "j")
        wait_for(f"Transactions: {n} of")
        times.append(time.monotonic() - start)
    print("j: " + " ".join(f"{t * 1000:.1f}" for t in times) + " ms")
    print(f"median j {statistics.median(times) * 1000:.1f} ms over {len(times)} keys (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}); t {opened * 1000:.1f} ms")
finally:
    tmux("kill-session", "-t", session)
