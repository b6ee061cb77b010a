#!/usr/bin/env bash
# Ctrl-C while a population is being made (issue 37 §4): `subdash simulate --population` and
# `subdash --demo-population` stop with status 130, give the terminal back, and leave no half-made
# population behind (they left 194 of 300 files, or the demo's temporary directory, and died by
# the signal). A population the directory already held is advanced file by file: stopped, every
# file is whole and the line says how many were advanced. The first index build of
# `subdash list DIR` stops the same way, leaving no index, `-wal` or `-shm`.
# Run on its own (after `swift build`) or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# e2e_wait_files DIR N: waits (bounded by E2E_TIMEOUT) until DIR holds at least N state files.
e2e_wait_files() {
  local dir=$1 want=$2 n
  local deadline=$(($(e2e__now_us) + E2E_TIMEOUT * 1000000))
  while (($(e2e__now_us) < deadline)); do
    n=$(find "$dir" -maxdepth 1 -name '*.json' 2>/dev/null | wc -l)
    ((n >= want)) && return 0
    sleep 0.01
  done
  echo "e2e: $dir holds $n state files, waited for $want" >&2
  return 1
}

# Every state file in DIR reads back whole (`subdash show` parses it with its journal).
all_whole() {
  local f
  for f in "$1"/*.json; do
    "$SUBDASH_BIN" show "$f" >/dev/null 2>"$E2E_TMP/show.err" || { echo "e2e: $f is not whole: $(cat "$E2E_TMP/show.err")" >&2; return 1; }
  done
}

test_ctrl_c_while_making_a_population_removes_it() {
  local dir="$E2E_TMP/made"
  e2e_start making 160 30 "$SUBDASH_BIN" simulate --population 3000 "$dir"
  e2e_wait_files "$dir" 5 || return 1
  e2e_keys C-c
  e2e_wait_exit 130 || return 1
  e2e_assert_screen "subdash: stopped (Ctrl-C) after making" || return 1
  e2e_assert_screen "which this run made" || return 1
  # The run made the directory: nothing of it is left, not a file, not the directory.
  if [[ -e "$dir" ]]; then
    echo "e2e: $dir is still there: $(ls -A "$dir" | head -5 | tr '\n' ' ')" >&2
    return 1
  fi
}

test_ctrl_c_in_a_directory_of_ones_own_keeps_its_files() {
  local dir="$E2E_TMP/mine"
  mkdir -p "$dir"
  echo "notes" >"$dir/notes.txt"
  e2e_start mine 160 30 "$SUBDASH_BIN" simulate --population 3000 "$dir"
  e2e_wait_files "$dir" 5 || return 1
  e2e_keys C-c
  e2e_wait_exit 130 || return 1
  e2e_assert_screen "is as it was" || return 1
  local left
  left=$(ls -A "$dir")
  [[ "$left" == "notes.txt" ]] || { echo "e2e: $dir holds $left, expected notes.txt alone" >&2; return 1; }
}

test_progress_is_shown_while_making() {
  local dir="$E2E_TMP/progress"
  e2e_start progress 160 30 "$SUBDASH_BIN" simulate --population 3000 "$dir"
  e2e_wait_for "subdash: making " 15 || return 1
  e2e_assert_screen "of 3000 subscribers" || return 1
  e2e_keys C-c
  e2e_wait_exit 130 || return 1
  [[ ! -e "$dir" ]] || { echo "e2e: $dir is still there" >&2; return 1; }
}

test_ctrl_c_while_advancing_an_existing_population_leaves_whole_files() {
  local dir="$E2E_TMP/existing" mix="$E2E_TMP/keep-renewing.json"
  # Nobody churns: every member renews for the whole run (about half a second each per 1,000 months).
  echo '{"failureRate": 0, "autoRenewOff": 0}' >"$mix"
  "$SUBDASH_BIN" simulate --population 20 --mix "$mix" --months 1 "$dir" >/dev/null || return 1
  e2e_start advancing 160 30 "$SUBDASH_BIN" simulate --population 20 --mix "$mix" --months 1200 "$dir"
  e2e_wait_for "subdash: advancing " 20 || return 1
  e2e_keys C-c
  e2e_wait_exit 130 || return 1
  e2e_assert_screen "each file is whole" || return 1
  local n
  n=$(find "$dir" -maxdepth 1 -name '*.json' | wc -l)
  ((n == 20)) || { echo "e2e: $dir holds $n state files, expected 20" >&2; return 1; }
  if ls -A "$dir" | grep -q 'subdash-tmp'; then echo "e2e: a temporary file was left in $dir" >&2; return 1; fi
  all_whole "$dir"
}

test_ctrl_c_while_the_demo_population_is_made_removes_its_directory() {
  local tmp="$E2E_TMP/demo-tmp"
  mkdir -p "$tmp"
  e2e_start demo 160 30 env TMPDIR="$tmp" "$SUBDASH_BIN" --demo-population
  local deadline=$(($(e2e__now_us) + E2E_TIMEOUT * 1000000)) made=""
  while (($(e2e__now_us) < deadline)); do
    made=$(find "$tmp" -mindepth 2 -maxdepth 2 -name '*.json' ! -name demo.json 2>/dev/null | head -1)
    [[ -n "$made" ]] && break
    sleep 0.01
  done
  [[ -n "$made" ]] || { echo "e2e: the demo population made no file in $tmp" >&2; return 1; }
  e2e_keys C-c
  e2e_wait_exit 130 || return 1
  e2e_assert_screen "removed the demo population's temporary directory" || return 1
  local left
  left=$(ls -A "$tmp")
  [[ -z "$left" ]] || { echo "e2e: left in TMPDIR: $left" >&2; return 1; }
}

# many_files DIR: enough state files that a first index build takes a while (2,048 are read and
# stored per step, and the stop is looked for between two steps).
many_files() {
  local dir=$1 i content
  mkdir -p "$dir"
  cp "$E2E_ROOT/Examples/backyard-birds.storekit" "$dir/"
  content=$(<"$E2E_ROOT/Examples/active.json")
  for ((i = 0; i < 12000; i++)); do printf '%s\n' "$content" >"$dir/s$i.json"; done
}

# After Ctrl-C in a first index build: exit 130, the line that says so, nothing of the index in DIR.
stopped_with_no_index_left() {
  local dir=$1 left
  e2e_wait_exit 130 || return 1
  e2e_assert_screen "stopped (Ctrl-C) while indexing" || return 1
  left=$(ls -A "$dir" | grep -F .subdash-index || true)
  [[ -z "$left" ]] || { echo "e2e: left in $dir: $left" >&2; return 1; }
}

test_ctrl_c_during_a_first_index_build_leaves_no_index() {
  local dir="$E2E_TMP/indexed"
  many_files "$dir"
  e2e_start indexing 160 30 "$SUBDASH_BIN" list "$dir"
  local deadline=$(($(e2e__now_us) + E2E_TIMEOUT * 1000000))
  while (($(e2e__now_us) < deadline)) && [[ ! -e "$dir/.subdash-index.sqlite-wal" ]]; do sleep 0.01; done
  [[ -e "$dir/.subdash-index.sqlite-wal" ]] || { echo "e2e: no index build seen in $dir" >&2; return 1; }
  e2e_keys C-c
  stopped_with_no_index_left "$dir"
}

test_ctrl_c_during_the_lists_first_index_build_stops_it() {
  local dir="$E2E_TMP/indexed-list"
  many_files "$dir"
  e2e_start indexlist 160 30 "$SUBDASH_BIN" "$dir"
  e2e_wait_for "subdash: indexing" 30 || return 1
  e2e_keys C-c
  stopped_with_no_index_left "$dir"
}

e2e_run "Ctrl-C while making a population: exit 130, the directory it made is gone" test_ctrl_c_while_making_a_population_removes_it
e2e_run "Ctrl-C in a directory of one's own: only what the run added is removed" test_ctrl_c_in_a_directory_of_ones_own_keeps_its_files
e2e_run "a population taking more than a second shows its progress" test_progress_is_shown_while_making
e2e_run "Ctrl-C while advancing an existing population: exit 130, every file whole" test_ctrl_c_while_advancing_an_existing_population_leaves_whole_files
e2e_run "Ctrl-C while the demo population is made: exit 130, its temporary directory removed" test_ctrl_c_while_the_demo_population_is_made_removes_its_directory
e2e_run "Ctrl-C during the first index build of subdash list DIR: exit 130, no index, -wal or -shm left" test_ctrl_c_during_a_first_index_build_leaves_no_index
e2e_run "Ctrl-C during the list's first index build stops it at once: exit 130, terminal restored, no index left" test_ctrl_c_during_the_lists_first_index_build_stops_it
e2e_summary
