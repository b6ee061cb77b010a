#!/usr/bin/env python3
"""`subdash show --json FILE` against Python's orjson loading the same file (issue 23's figure),
in alternating rounds: each round runs every command once, in turn, so a busy moment hits all of
them. Per run: wall time from fork to wait, and CPU time (user + sys) from wait4's rusage. Prints
the medians (min-max) and each SubDash build's ratio to orjson. orjson is the peer when python3
can import it; otherwise json.load, and the output says so.

  python3 scripts/bench/show_json_vs_orjson.py ROUNDS FILE NEW_SUBDASH [BASELINE_SUBDASH]

FILE: e.g. .build/bench/history-100000.json from `SubDashBench generate --sizes 100000`.
"""
import os, statistics, subprocess, sys, tempfile, time

USAGE = "python3 scripts/bench/show_json_vs_orjson.py ROUNDS FILE NEW_SUBDASH [BASELINE_SUBDASH]"

def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(USAGE)
    rounds, path = int(sys.argv[1]), sys.argv[2]
    try:
        import orjson  # noqa: F401
        peer, load = "orjson", 'import orjson,sys; orjson.loads(open(sys.argv[1],"rb").read())'
    except ImportError:
        peer, load = "json.load", 'import json,sys; json.load(open(sys.argv[1],"rb"))'
    commands = {}
    if len(sys.argv) == 5:
        commands["baseline"] = [sys.argv[4], "show", "--json", path]
    commands["subdash"] = [sys.argv[3], "show", "--json", path]
    commands[peer] = [sys.executable, "-c", load, path]
    times = {name: ([], []) for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            # stderr to a file: a pipe nobody reads while waiting would stop a child that fills it
            with tempfile.TemporaryFile() as err:
                t0 = time.perf_counter()
                child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
                _, status, usage = os.wait4(child.pid, 0)
                wall = time.perf_counter() - t0
                if status != 0:
                    err.seek(0)
                    sys.exit(f"show_json_vs_orjson: {' '.join(command)} failed ({status}): {err.read().decode(errors='replace')[:500]}")
            times[name][0].append(wall)
            times[name][1].append(usage.ru_utime + usage.ru_stime)
    print(f"file: {path} ({os.path.getsize(path)} bytes); {rounds} rounds; load average {' '.join(open('/proc/loadavg').read().split()[:3])}")
    for name, (wall, cpu) in times.items():
        print(f"{name:10} wall median {statistics.median(wall):.3f} s ({min(wall):.3f}-{max(wall):.3f})"
              f"  cpu median {statistics.median(cpu):.3f} s ({min(cpu):.3f}-{max(cpu):.3f})")
    peer_wall, peer_cpu = (statistics.median(x) for x in times[peer])
    for name in commands:
        if name != peer:
            print(f"{name} / {peer}: wall {statistics.median(times[name][0]) / peer_wall:.2f}, cpu {statistics.median(times[name][1]) / peer_cpu:.2f}")

if __name__ == "__main__":
    main()
