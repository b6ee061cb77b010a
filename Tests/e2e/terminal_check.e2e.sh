#!/usr/bin/env bash
# End-to-end tests of the terminal layer through `subdash terminal-check`, driven in tmux.
# Run on its own (after `swift build`) or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

STATE="$E2E_TMP/state.json"

fresh_state() { printf '{"plan":"Pro €9.99"}\n{"second":"line"}\n' >"$STATE"; }

# Starts terminal-check on a fresh state file and waits for the first frame.
start_check() {
  local name=$1 width=$2 height=$3
  shift 3
  fresh_state
  e2e_start "$name" "$width" "$height" "$SUBDASH_BIN" terminal-check "$@" "$STATE"
  e2e_wait_for "SubDash terminal check"
  e2e_wait_for "q quit"
}

# A rename-over write, the way editors and atomic savers replace a file.
rename_write() {
  printf '%s\n' "$1" >"$STATE.tmp"
  mv "$STATE.tmp" "$STATE"
}

test_first_frame() {
  start_check first 80 24
  e2e_assert_screen "┌─ SubDash terminal check"
  e2e_assert_screen 'first line: {"plan":"Pro €9.99"}'
  e2e_assert_screen "reloaded 0   watch: inotify"
  e2e_assert_screen "last key: (none yet)"
  e2e_assert_screen "terminal: tmux-256color 80x24, 256 colours, UTF-8"
  e2e_refute_screen "countdown"
  e2e_type q
  e2e_wait_exit 0
}

cursor() { e2e_tmux display -p -t "$E2E_SESSION" '#{cursor_flag} #{cursor_x},#{cursor_y}'; }

test_keys() {
  start_check keys 80 24
  e2e_type x
  e2e_wait_for "last key: x"
  # The frame asks for a visible cursor right after the key name ("│ last key: x" is 13 wide).
  [[ "$(cursor)" == "1 13,4" ]] || { echo "cursor is '$(cursor)', expected '1 13,4'" >&2; exit 1; }
  e2e_type "€"
  e2e_wait_for "last key: €"
  local key expected
  for key in Up:Up Down:Down Left:Left Right:Right Home:Home End:End PPage:PgUp NPage:PgDn \
    Enter:Enter BSpace:Backspace DC:Delete Tab:Tab BTab:Shift-Tab F5:F5 C-l:Ctrl-L C-a:Ctrl-A \
    Escape:Esc Space:Space; do
    expected=${key#*:}
    e2e_keys "${key%%:*}"
    e2e_wait_for "last key: $expected"
    e2e_type "x"                   # reset, so a repeated name can't pass on a stale screen
    e2e_wait_for "last key: x"
  done
  e2e_type q
  e2e_wait_exit 0
}

test_reload_inotify() {
  start_check reload 80 24
  rename_write "second version"
  e2e_wait_for "reloaded 1"
  e2e_wait_for "first line: second version"
  printf 'in place\n' >"$STATE"   # O_TRUNC + write: IN_CLOSE_WRITE
  e2e_wait_for "reloaded 2"
  e2e_wait_for "first line: in place"
  rm "$STATE"
  e2e_wait_for "first line: (cannot read: No such file or directory)"
  rename_write "back again"
  e2e_wait_for "first line: back again"
  e2e_type q
  e2e_wait_exit 0
}

test_reload_polling() {
  fresh_state
  e2e_start polling 80 24 env SUBDASH_NO_INOTIFY=1 "$SUBDASH_BIN" terminal-check "$STATE"
  e2e_wait_for "watch: polling every 250 ms"
  rename_write "polled version"
  e2e_wait_for "reloaded 1"
  e2e_wait_for "first line: polled version"
  e2e_type q
  e2e_wait_exit 0
}

test_resize() {
  start_check resize 80 24
  e2e_resize 60 15
  e2e_wait_for "tmux-256color 60x15"
  local top
  top=$(e2e_screen | head -n1)
  [[ "$top" == "┌─ SubDash terminal check "*"┐" && ${#top} -eq 60 ]] || { echo "bad top row: $top" >&2; exit 1; }
  e2e_resize 100 30
  e2e_wait_for "tmux-256color 100x30"
  top=$(e2e_screen | head -n1)
  [[ ${#top} -eq 100 ]] || { echo "top row is ${#top} wide, not 100" >&2; exit 1; }
  e2e_resize 12 3                 # too small for the box: must not crash
  e2e_wait_for "too small"
  [[ "$(cursor)" == "0 "* ]] || { echo "cursor still shown on a frame without one" >&2; exit 1; }
  e2e_resize 80 24
  e2e_wait_for "tmux-256color 80x24"
  e2e_type q
  e2e_wait_exit 0
}

test_ctrl_c() {
  start_check ctrlc 80 24
  e2e_keys C-c
  e2e_wait_exit 130
}

test_sigterm() {
  start_check sigterm 80 24
  kill -TERM "$(e2e_app_pid subdash)"
  e2e_wait_exit 143
}

test_sighup() {
  start_check sighup 80 24
  kill -HUP "$(e2e_app_pid subdash)"
  e2e_wait_exit 129
}

test_sigquit() {
  start_check sigquit 80 24
  # Ctrl-\ from the keyboard would also kill the pane's non-interactive shell; signal the app.
  kill -QUIT "$(e2e_app_pid subdash)"
  e2e_wait_exit 131
}

test_dumb_term() {
  fresh_state
  e2e_start dumb 100 24 env TERM=dumb "$SUBDASH_BIN" terminal-check "$STATE"
  e2e_wait_for "subdash: terminal type 'dumb' (TERM) cannot position the cursor"
  e2e_wait_exit 1
}

test_no_alternate_screen() {
  fresh_state
  e2e_start vt100 80 24 env TERM=vt100 "$SUBDASH_BIN" terminal-check "$STATE"
  e2e_wait_for "terminal: vt100 80x24, no colour"
  e2e_type q
  e2e_wait_exit 0
  e2e_refute_screen "SubDash terminal check"   # the last frame is cleared, not left under the prompt
}

test_crash() {
  start_check crash 80 24 --crash
  e2e_assert_screen "! crash"
  e2e_type '!'
  e2e_wait_for "EXIT=13"
  e2e_screen | grep -qE '^EXIT=13[24]$' || { echo "expected exit 132 (SIGILL) or 134 (SIGABRT)" >&2; exit 1; }
  e2e_wait_exit "$(e2e_screen | grep -oE '^EXIT=[0-9]+' | cut -d= -f2)"
  e2e_scrollback | grep -qF "Fatal error: terminal-check: deliberate crash requested with --crash" ||
    { echo "the Fatal error line was lost" >&2; e2e_scrollback >&2; exit 1; }
}

test_suspend_resume() {
  start_check suspend 80 24
  local pid
  pid=$(e2e_app_pid subdash)
  # Ctrl-Z itself would also stop the pane's non-interactive shell, so signal the app alone.
  kill -TSTP "$pid"
  e2e_wait_proc_state "$pid" T
  [[ "$(e2e_alternate_on)" == 0 ]] || { echo "still on the alternate screen while stopped" >&2; exit 1; }
  kill -CONT "$pid"
  e2e_wait_for "SubDash terminal check"
  [[ "$(e2e_alternate_on)" == 1 ]] || { echo "did not return to the alternate screen" >&2; exit 1; }
  e2e_type k
  e2e_wait_for "last key: k"
  e2e_type q
  e2e_wait_exit 0
}

test_colors() {
  start_check colors 80 24
  e2e_screen_ansi | grep -q $'\e\[32mok' || { echo "ok is not green" >&2; exit 1; }
  e2e_screen_ansi | grep -q $'\e\[7mselected' || { echo "selection is not reverse" >&2; exit 1; }
  e2e_type q
  e2e_wait_exit 0
}

no_colour_screen_ok() {
  e2e_wait_for "no colour"
  if e2e_screen_ansi | grep -qE $'\e\\[3[0-7]m'; then echo "colour used despite --no-color/NO_COLOR" >&2; exit 1; fi
  e2e_screen_ansi | grep -q $'\e\[7mselected' || { echo "reverse lost without colour" >&2; exit 1; }
  e2e_screen_ansi | grep -q $'\e\[1mtitle' || { echo "bold lost without colour" >&2; exit 1; }
}

test_no_color_flag() {
  start_check nocolorflag 80 24 --no-color
  no_colour_screen_ok
  e2e_type q
  e2e_wait_exit 0
}

test_no_color_env() {
  fresh_state
  e2e_start nocolorenv 80 24 env NO_COLOR=1 "$SUBDASH_BIN" terminal-check "$STATE"
  no_colour_screen_ok
  e2e_type q
  e2e_wait_exit 0
}

test_ascii_locale() {
  fresh_state
  e2e_start ascii 80 24 env LANG=C "$SUBDASH_BIN" terminal-check "$STATE"
  e2e_wait_for "+- SubDash terminal check --"
  e2e_wait_for "q quit - Ctrl-L redraw"
  e2e_type q
  e2e_wait_exit 0
}

test_tick() {
  start_check tick 80 24 --tick
  e2e_wait_for "countdown: 10"
  e2e_wait_for "countdown: 9" 3
  e2e_wait_for "countdown: 8" 3
  e2e_type q
  e2e_wait_exit 0
}

test_unknown_term() {
  fresh_state
  e2e_start badterm 100 24 env TERM=nosuchterm "$SUBDASH_BIN" terminal-check "$STATE"
  e2e_wait_for "subdash: cannot use terminal type 'nosuchterm' (TERM)"
  e2e_wait_exit 1
}

test_not_a_tty() {
  fresh_state
  # shellcheck disable=SC2016
  e2e_start notatty 100 24 bash -c 'exec "$0" terminal-check "$1" </dev/null' "$SUBDASH_BIN" "$STATE"
  e2e_wait_for "subdash: standard input is not a terminal"
  e2e_wait_exit 1
}

test_help() {
  local help
  help=$("$SUBDASH_BIN" terminal-check --help)
  grep -qF "USAGE: subdash terminal-check" <<<"$help"
  grep -qF "Exit status:" <<<"$help"
  grep -qF -- "--no-color" <<<"$help"
}

e2e_run "first frame shows the file, the terminal and the watcher" test_first_frame
e2e_run "keys arrive with the right names" test_keys
e2e_run "rename, in-place write and delete are seen via inotify" test_reload_inotify
e2e_run "SUBDASH_NO_INOTIFY=1 falls back to stat polling" test_reload_polling
e2e_run "resize redraws at the new size" test_resize
e2e_run "Ctrl-C exits 130 with the terminal restored" test_ctrl_c
e2e_run "SIGTERM exits 143 with the terminal restored" test_sigterm
e2e_run "SIGHUP exits 129 with the terminal restored" test_sighup
e2e_run "SIGQUIT (Ctrl-\\) exits 131 with the terminal restored" test_sigquit
e2e_run "a crash restores the terminal and keeps the Fatal error line" test_crash
e2e_run "SIGTSTP suspends and SIGCONT repaints" test_suspend_resume
e2e_run "roles are drawn in colour" test_colors
e2e_run "--no-color keeps bold and reverse" test_no_color_flag
e2e_run "NO_COLOR keeps bold and reverse" test_no_color_env
e2e_run "a non-UTF-8 locale draws ASCII" test_ascii_locale
e2e_run "--tick counts down once a second" test_tick
e2e_run "an unknown TERM is a clear error" test_unknown_term
e2e_run "stdin that is not a terminal is a clear error" test_not_a_tty
e2e_run "TERM=dumb is a clear error" test_dumb_term
e2e_run "without an alternate screen the frame is cleared on exit" test_no_alternate_screen
e2e_run "terminal-check --help documents keys and exit codes" test_help
e2e_summary
