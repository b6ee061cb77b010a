#!/usr/bin/env python3
"""Wall time from starting `subdash DIR` in a fresh tmux pane to its first screen of rows.

Usage: scripts/bench/list_first_screen.py BINARY DIR [RUNS]
Starts the real binary in a detached tmux session (its own name, ended after each run), polls
the pane every 2 ms until the counts line and a row are drawn, and prints each run and the median.
The figure includes process start, loading its libraries, reading the index and drawing.
"""
import statistics, subprocess, sys, time

binary, directory = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
session = "subdash-bench-first-screen"

def pane():
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout

times = []
def settle():
    """Ends the session and waits until its process is gone and the machine is quiet again."""
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    deadline = time.monotonic() + 10
    while subprocess.run(["pgrep", "-f", "subdash-list open"], capture_output=True).returncode == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)

for _ in range(runs):
    settle()
    start = time.monotonic()
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", binary, directory], check=True)
    while True:
        text = pane()
        # the title says "N of M shown" and the selected row (›) is drawn
        if " shown" in text and any(line.startswith(("›", ">")) for line in text.splitlines()):
            break
        if time.monotonic() - start > 30:
            print("no first screen within 30 s:\n" + text)
            sys.exit(1)
        time.sleep(0.002)
    elapsed = time.monotonic() - start
    times.append(elapsed)
    print(f"first screen after {elapsed * 1000:.0f} ms")
settle()
print(f"median {statistics.median(times) * 1000:.0f} ms over {runs} runs (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})")
