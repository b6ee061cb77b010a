# shellcheck shell=bash
# Shared by scripts/bench/*.sh: a release build of subdash, a private tmux server per script,
# screen waits, and /proc readers. Source it; do not run it.
#
# Environment: SUBDASH_BIN (skip the build and use this binary), BENCH_TIMEOUT (seconds per wait).
#
# Rules (same as Tests/e2e/lib.sh): the tmux server is private (-L NAME, -f /dev/null) and is the
# only one this script ever kills; nothing that is measured waits by sleeping: waits poll the
# screen or the pty output for the text they need.

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${BENCH_TIMEOUT:=20}"
BENCH_SOCKET="subdash-bench-$$"
BENCH_SESSION="bench"
BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/subdash-bench.XXXXXX")
export BENCH_TMP

command -v tmux >/dev/null || { echo "bench: tmux is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench: python3 is not installed" >&2; exit 2; }

if [[ -z "${SUBDASH_BIN:-}" ]]; then
  (cd "$BENCH_ROOT" && swift build -c release >&2) || { echo "bench: release build failed" >&2; exit 2; }
  SUBDASH_BIN="$(cd "$BENCH_ROOT" && swift build -c release --show-bin-path)/subdash"
fi
export SUBDASH_BIN

bench_tmux() { tmux -L "$BENCH_SOCKET" -f /dev/null "$@"; }

bench_cleanup() {
  tmux -L "$BENCH_SOCKET" -f /dev/null kill-server 2>/dev/null || true
  rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$BENCH_SOCKET"
  rm -rf "$BENCH_TMP"
}
trap bench_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bench__now_us() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }

# bench_start WIDTH HEIGHT CMD...: CMD in a fresh session of our private server (one at a time).
bench_start() {
  local width=$1 height=$2
  shift 2
  bench_tmux kill-session -t "$BENCH_SESSION" 2>/dev/null || true
  local cmd
  printf -v cmd '%q ' "$@"
  bench_tmux new-session -d -s "$BENCH_SESSION" -x "$width" -y "$height" \
    -e LANG=C.UTF-8 -e TERM=tmux-256color \
    -- bash --noprofile --norc -c "unset LC_ALL LC_CTYPE NO_COLOR SUBDASH_NO_INOTIFY; exec $cmd"
}

bench_stop() { bench_tmux kill-session -t "$BENCH_SESSION" 2>/dev/null || true; }

bench_screen() { bench_tmux capture-pane -p -t "$BENCH_SESSION"; }

# bench_wait_for TEXT: polls the screen (~every 5 ms) until the fixed string TEXT shows.
bench_wait_for() {
  local text=$1 deadline=$(($(bench__now_us) + BENCH_TIMEOUT * 1000000))
  while (($(bench__now_us) < deadline)); do
    bench_screen | grep -qF -- "$text" && return 0
    sleep 0.005
  done
  echo "bench: timed out waiting for: $text" >&2
  bench_screen >&2
  return 1
}

# bench_app_pid: the pid of subdash in the pane (exec'd by the pane's shell, so the pane pid).
bench_app_pid() { bench_tmux display -p -t "$BENCH_SESSION" '#{pane_pid}'; }

# bench_cpu_ticks PID: utime+stime in clock ticks (whole process, all threads).
bench_cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# bench_voluntary_switches PID: voluntary context switches summed over all threads (each one
# is a sleep that ended: a wake-up).
bench_voluntary_switches() {
  local sum=0 f n
  for f in /proc/"$1"/task/*/status; do
    n=$(awk '/^voluntary_ctxt_switches/ {print $2}' "$f")
    sum=$((sum + n))
  done
  echo "$sum"
}

bench_threads() { local t=(/proc/"$1"/task/*); echo "${#t[@]}"; }

# bench_machine: one paragraph for the results file.
bench_machine() {
  echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -sr)"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "subdash: $SUBDASH_BIN ($(cd "$BENCH_ROOT" && git rev-parse --short HEAD 2>/dev/null))"
  echo "tmux: $(tmux -V)"
}
