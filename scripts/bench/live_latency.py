"""Live update latency: rewrite the state file atomically and time until tmux shows the new value.

Called by live-latency.sh with a dashboard already running in a private tmux server.

Per trial: the newest notification's summary gets a new counter ("#0042 renewed ..."), the file
is replaced by rename (temp file + os.replace, as an atomic writer does), and the clock starts
just before the rename. The pane's output is piped (pipe-pane) into a FIFO; whenever bytes arrive,
and every 2 ms otherwise, `tmux capture-pane -p` is run until the counter is on the screen.

Two times per trial:
- first byte: the first pane output after the rename (a lower bound on when the dashboard
  started redrawing; a highlight fade redraw from an earlier trial could land here too);
- on screen: the end of the capture-pane call that first showed the counter (an upper bound).
The observer's floor is the duration of one capture-pane round trip, reported too.
"""
import json
import math
import os
import select
import statistics
import subprocess
import sys
import time

socket, session, path, trials = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
fifo = os.path.join(os.path.dirname(path), "pane.fifo")
TIMEOUT_NS = 10_000_000_000


def tmux(*args):
    return subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", *args],
                          check=True, capture_output=True).stdout


def screen():
    return tmux("capture-pane", "-p", "-t", session).decode("utf-8", "replace")


os.mkfifo(fifo)
# O_RDWR: the FIFO never reports EOF, whether or not pipe-pane's cat has opened it yet.
fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
tmux("pipe-pane", "-o", "-t", session, f"exec cat > {fifo}")


def drain():
    try:
        while os.read(fd, 65536):
            pass
    except BlockingIOError:
        pass


with open(path, "rb") as f:
    doc = json.load(f)
notes = doc["subscriber"]["notifications"]
newest = max(range(len(notes)), key=lambda i: notes[i]["signedDate"])
base_summary = notes[newest]["summary"]
tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")

first_byte_ms, on_screen_ms, capture_ms = [], [], []
for trial in range(1, trials + 1):
    marker = f"#{trial:04d}"
    notes[newest]["summary"] = f"{marker} {base_summary}"
    data = json.dumps(doc, indent=2).encode()
    with open(tmp, "wb") as f:
        f.write(data)
    drain()
    t0 = time.perf_counter_ns()
    os.replace(tmp, path)
    first = None
    while True:
        now = time.perf_counter_ns()
        if now - t0 > TIMEOUT_NS:
            sys.exit(f"trial {trial}: {marker} not on screen after 10 s:\n{screen()}")
        readable, _, _ = select.select([fd], [], [], 0.002)
        if readable:
            if first is None:
                first = time.perf_counter_ns()
            drain()
        c0 = time.perf_counter_ns()
        text = screen()
        c1 = time.perf_counter_ns()
        capture_ms.append((c1 - c0) / 1e6)
        if marker in text:
            on_screen_ms.append((c1 - t0) / 1e6)
            first_byte_ms.append(((first or c1) - t0) / 1e6)
            break

os.close(fd)


def pct(values, p):
    # Nearest rank: the smallest value with at least p% of the samples at or below it.
    s = sorted(values)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def line(name, values):
    return (f"{name:<22} p50 {pct(values, 50):7.2f} ms   p95 {pct(values, 95):7.2f} ms   "
            f"max {max(values):7.2f} ms   (n={len(values)})")


print(line("on screen (upper)", on_screen_ms))
print(line("first pane byte", first_byte_ms))
print(line("capture-pane floor", capture_ms))
print(f"mean on screen {statistics.mean(on_screen_ms):.2f} ms")
