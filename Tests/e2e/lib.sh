# shellcheck shell=bash
# End-to-end test helpers: drive subdash inside a private tmux server and read the screen back.
#
# Usage (see terminal_check.e2e.sh):
#   source "$(dirname "$0")/lib.sh"
#   test_quit() { e2e_start quit 80 24 "$SUBDASH_BIN" terminal-check "$E2E_TMP/f"; e2e_wait_for "last key"; e2e_type q; e2e_wait_exit 0; }
#   e2e_run "q quits and restores the terminal" test_quit
#   e2e_summary    # prints "e2e: N passed, M failed" (read by CI) and sets the exit status
#
# Environment: SUBDASH_BIN (the binary; default: the last debug build), E2E_TIMEOUT (seconds
# per wait, default 10), E2E_ONLY (run only tests whose description contains this).
#
# Rules that keep these tests reliable:
# - every test has its own tmux server (-L subdash-e2e-$$-NAME, -f /dev/null, fixed size), so no
#   user config leaks in and a dying server cannot take another test with it;
# - nothing sleeps for a fixed time: every step waits for text to appear on the screen;
# - only servers this script started are ever killed, by their socket name.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
E2E_ROOT=$(cd "$E2E_DIR/../.." && pwd)
: "${E2E_TIMEOUT:=10}"      # seconds per wait; generous because CI machines stall
E2E_PASSED=0
E2E_FAILED=0
E2E_SOCKET=""
E2E_SESSION=""
E2E_NAME=""
E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/subdash-e2e.XXXXXX")
export E2E_TMP

if [[ -z "${SUBDASH_BIN:-}" ]]; then
  # run-all.sh builds once and exports this; a script run on its own finds the last build.
  SUBDASH_BIN="$(cd "$E2E_ROOT" && swift build --show-bin-path)/subdash"
fi
export SUBDASH_BIN

command -v tmux >/dev/null || { echo "e2e: tmux is not installed" >&2; exit 2; }

# --- time ---------------------------------------------------------------------------------

e2e__now_us() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }

# --- tmux plumbing ------------------------------------------------------------------------

e2e_tmux() { tmux -L "$E2E_SOCKET" -f /dev/null "$@"; }

# e2e_start NAME WIDTH HEIGHT CMD...
# Starts CMD in a fresh tmux server. When CMD ends, the pane prints EXIT=<status> and
# STTY=<isig/icanon/echo flags> (a "-" in front means the terminal was left broken), then keeps
# the pane alive so the test can read them.
e2e_start() {
  E2E_NAME=$1
  local width=$2 height=$3
  shift 3
  E2E_SOCKET="subdash-e2e-$$-$E2E_NAME"
  E2E_SESSION="e2e-$E2E_NAME"
  echo "$E2E_SOCKET" >>"$E2E_TMP/sockets"
  local cmd
  printf -v cmd '%q ' "$@"
  # Defaults are exported inside the pane too: tmux copies the environment of whoever started
  # the server, so a caller's LC_ALL or NO_COLOR would otherwise leak into the test.
  # ulimit -c 0: the crash and Ctrl-\ tests must not litter core files.
  local script="ulimit -c 0
unset LC_ALL LC_CTYPE NO_COLOR SUBDASH_NO_INOTIFY
export SWIFT_BACKTRACE=interactive=no LANG=C.UTF-8 TERM=tmux-256color
$cmd
echo \"EXIT=\$?\"
echo \"STTY=\$(stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(isig|icanon|echo)' | tr '\\n' ' ')\"
sleep 600"
  e2e_tmux new-session -d -s "$E2E_SESSION" -x "$width" -y "$height" \
    -e SWIFT_BACKTRACE=interactive=no -e LANG=C.UTF-8 -e TERM=tmux-256color \
    -- bash --noprofile --norc -c "$script"
}

# e2e__kill_server SOCKET: ends one of our servers and removes its socket file, which tmux
# 3.3a leaves behind after kill-server (hundreds pile up in /tmp/tmux-UID otherwise).
e2e__kill_server() {
  tmux -L "$1" -f /dev/null kill-server 2>/dev/null || true
  rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$1"
}

# e2e_stop: ends this test's own tmux server (and with it the pane's processes, via SIGHUP).
e2e_stop() {
  e2e__kill_tracked
  [[ -n "$E2E_SOCKET" ]] || return 0
  e2e__kill_server "$E2E_SOCKET"
  E2E_SOCKET=""
}

# e2e_track PID: a background process the test started (a `listen` server): stopped when the
# test ends, however it ends, so a failed check never leaves a server running.
e2e_track() { echo "$1" >>"$E2E_TMP/pids"; }

e2e__kill_tracked() {
  [[ -f "$E2E_TMP/pids" ]] || return 0
  local pid
  while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$E2E_TMP/pids"
  rm -f "$E2E_TMP/pids"
}

# Always clean up every server this script started, however it exits.
e2e__cleanup() {
  e2e__kill_tracked
  local sock
  if [[ -f "$E2E_TMP/sockets" ]]; then
    while read -r sock; do
      e2e__kill_server "$sock"
    done <"$E2E_TMP/sockets"
  fi
  rm -rf "$E2E_TMP"
}
trap e2e__cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- reading the screen -------------------------------------------------------------------

e2e_screen() { e2e_tmux capture-pane -p -t "$E2E_SESSION"; }
e2e_screen_ansi() { e2e_tmux capture-pane -p -e -t "$E2E_SESSION"; }
e2e_scrollback() { e2e_tmux capture-pane -p -J -S - -t "$E2E_SESSION"; }  # -J: joins wrapped lines
e2e_alternate_on() { e2e_tmux display -p -t "$E2E_SESSION" '#{alternate_on}'; }
e2e_pane_pid() { e2e_tmux display -p -t "$E2E_SESSION" '#{pane_pid}'; }

e2e__show_screen() {
  echo "---- screen of test '$E2E_NAME' ----" >&2
  e2e_screen >&2 || true
  echo "------------------------------------" >&2
}

# e2e_wait_for TEXT [TIMEOUT_S]: polls the screen every ~10 ms until TEXT (a fixed string)
# shows; on timeout prints the screen and fails.
e2e_wait_for() {
  local text=$1 timeout=${2:-$E2E_TIMEOUT}
  local deadline=$(($(e2e__now_us) + timeout * 1000000))
  while (($(e2e__now_us) < deadline)); do
    e2e_screen | grep -qF -- "$text" && return 0
    sleep 0.01
  done
  echo "e2e: timed out after ${timeout}s waiting for: $text" >&2
  e2e__show_screen
  return 1
}

# e2e_wait_gone TEXT [TIMEOUT_S]: the opposite of e2e_wait_for.
e2e_wait_gone() {
  local text=$1 timeout=${2:-$E2E_TIMEOUT}
  local deadline=$(($(e2e__now_us) + timeout * 1000000))
  while (($(e2e__now_us) < deadline)); do
    e2e_screen | grep -qF -- "$text" || return 0
    sleep 0.01
  done
  echo "e2e: timed out after ${timeout}s waiting for this to disappear: $text" >&2
  e2e__show_screen
  return 1
}

# e2e_wait_exit CODE: waits until the command has ended with CODE and checks that it gave the
# terminal back: canonical mode, echo and signals on, alternate screen off.
e2e_wait_exit() {
  local code=$1
  e2e_wait_for "EXIT=$code" || return 1
  e2e_wait_for "STTY=" || return 1
  local stty
  stty=$(e2e_screen | grep -o 'STTY=.*')
  if [[ "$stty" != "STTY=isig icanon echo" ]]; then
    echo "e2e: terminal left in the wrong mode: $stty" >&2
    e2e__show_screen
    return 1
  fi
  if [[ "$(e2e_alternate_on)" != 0 ]]; then
    echo "e2e: alternate screen still on after exit" >&2
    return 1
  fi
}

# On the cancel page (the dashboard's `a` with auto-renew on): cancel after all, confirm, and quit
# once the screen says auto-renew is off.
e2e_cancel_on_the_cancel_page_and_quit() {
  e2e_type c
  e2e_wait_for "y confirm"
  e2e_type y
  e2e_wait_for "auto-renew off"
  e2e_type q
  e2e_wait_exit 0
}

# e2e_assert_screen TEXT / e2e_refute_screen TEXT: checks the screen right now.
e2e_assert_screen() {
  e2e_screen | grep -qF -- "$1" && return 0
  echo "e2e: expected on screen: $1" >&2
  e2e__show_screen
  return 1
}
e2e_refute_screen() {
  e2e_screen | grep -qF -- "$1" || return 0
  echo "e2e: not expected on screen: $1" >&2
  e2e__show_screen
  return 1
}

# Prints the pid of PARENT's child whose command name is NAME. Reads /proc directly, so the
# tests need no procps (pgrep) on minimal CI images.
e2e__child_named() {
  local parent=$1 name=$2 f line comm fields
  for f in /proc/[0-9]*/stat; do
    read -r line <"$f" 2>/dev/null || continue
    comm=${line#*(}
    comm=${comm%)*}
    read -ra fields <<<"${line##*) }"   # state ppid ...
    if [[ "${fields[1]}" == "$parent" && "$comm" == "$name" ]]; then
      f=${f#/proc/}
      echo "${f%/stat}"
      return 0
    fi
  done
}

# e2e_app_pid [NAME]: pid of the program under test (a child of the pane's shell), waiting for
# it to exist. NAME defaults to subdash.
e2e_app_pid() {
  local name=${1:-subdash} pane pid
  pane=$(e2e_pane_pid) || return 1
  local deadline=$(($(e2e__now_us) + E2E_TIMEOUT * 1000000))
  while (($(e2e__now_us) < deadline)); do
    pid=$(e2e__child_named "$pane" "$name")
    [[ -n "$pid" ]] && { echo "$pid"; return 0; }
    sleep 0.01
  done
  echo "e2e: no process '$name' under pane pid $pane" >&2
  return 1
}

# e2e_wait_proc_state PID STATE: waits for /proc/PID/stat to report STATE (e.g. T = stopped).
e2e_wait_proc_state() {
  local pid=$1 want=$2 state
  local deadline=$(($(e2e__now_us) + E2E_TIMEOUT * 1000000))
  while (($(e2e__now_us) < deadline)); do
    state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
    [[ "$state" == "$want" ]] && return 0
    sleep 0.01
  done
  echo "e2e: process $pid is in state '$state', expected '$want'" >&2
  return 1
}

# --- input --------------------------------------------------------------------------------

# e2e_keys KEY...: named keys as tmux knows them: Up, Down, Enter, Escape, BSpace, C-c, F5...
e2e_keys() { e2e_tmux send-keys -t "$E2E_SESSION" "$@"; }
# e2e_type TEXT: literal text (-l applies to the whole call, so named keys never mix in).
e2e_type() { e2e_tmux send-keys -t "$E2E_SESSION" -l -- "$1"; }
e2e_resize() { e2e_tmux resize-window -t "$E2E_SESSION" -x "$1" -y "$2"; }

# --- reporting ----------------------------------------------------------------------------

# e2e_run DESCRIPTION FUNCTION: runs one test in a subshell with `set -e`, so the first failing
# step fails the test; its tmux server is stopped whatever happens.
e2e_run() {
  local description=$1 fn=$2 started rc
  # E2E_ONLY=substring runs only the matching tests (while debugging one).
  [[ -z "${E2E_ONLY:-}" || "$description" == *"$E2E_ONLY"* ]] || return 0
  started=$(e2e__now_us)
  (
    trap e2e_stop EXIT
    set -e
    "$fn"
  )
  rc=$?
  local ms=$((($(e2e__now_us) - started) / 1000))
  if ((rc == 0)); then
    E2E_PASSED=$((E2E_PASSED + 1))
    echo "PASS  $description (${ms} ms)"
  else
    E2E_FAILED=$((E2E_FAILED + 1))
    echo "FAIL  $description (${ms} ms)"
  fi
}

# e2e_summary: the closing line CI reads, and the script's exit status.
e2e_summary() {
  echo "e2e: $E2E_PASSED passed, $E2E_FAILED failed"
  ((E2E_FAILED == 0))
}
