#!/usr/bin/env bash
# The subscriber list (`subdash DIR`): filter as you type, open a subscriber and come back to the
# same row, sort, and follow the directory live; `subdash list` for scripts.
# Run on its own (after `swift build`) or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DIR="$E2E_TMP/subscribers"

fresh_dir() {
  rm -rf "$DIR"
  cp -r "$E2E_ROOT/Examples" "$DIR"
  # An index left in the checkout's Examples by an earlier `subdash Examples` is not part of them.
  rm -f "$DIR"/.subdash-index.sqlite*
  # Every Example is one subscriber; the counts below follow the directory, not a constant.
  N=$(find "$DIR" -maxdepth 1 -name '*.json' | wc -l)
}

# Writes FILE the way SubDash and editors do: a temp file renamed over it.
replace_atomically() {
  local file=$1
  shift
  sed "$@" "$file" >"$DIR/.edit.tmp" && mv "$DIR/.edit.tmp" "$file"
}

test_filter_open_back_sort_live() {
  fresh_dir
  e2e_start list 120 30 "$SUBDASH_BIN" --read-only "$DIR"
  e2e_wait_for "[subscribers]"
  e2e_wait_for "$N of $N shown"
  e2e_assert_screen "⚠ grace 2"
  # Filter as you type: each key narrows the list.
  e2e_type "/status:gr"
  e2e_wait_for "2 of $N shown"
  e2e_keys Enter Down
  e2e_wait_for "› 2000000866120054"
  # Enter opens that subscriber's dashboard; q there comes back to the same row.
  e2e_keys Enter
  e2e_wait_for "contradictory.json"
  e2e_wait_for "GRACE PERIOD  payment failed"
  e2e_type q
  e2e_wait_for "[subscribers]"
  e2e_wait_for "› 2000000866120054"
  e2e_assert_screen "filter: status:gr"
  # Esc comes back too, to the same row.
  e2e_keys Enter
  e2e_wait_for "GRACE PERIOD  payment failed"
  e2e_keys Escape
  e2e_wait_for "[subscribers]"
  e2e_wait_for "› 2000000866120054"
  # Esc clears the filter; the selection stays on its row. S reverses the order.
  e2e_keys Escape
  e2e_wait_for "$N of $N shown"
  e2e_type S
  e2e_wait_for "1 id ▼"
  e2e_assert_screen "› 2000000866120054"
  # Live: a new file appears, a changed file's row updates.
  replace_atomically "$DIR/active.json" -e 's/2000000871234560/2000000999999999/g'
  e2e_wait_for "2000000999999999"
  e2e_refute_screen "2000000871234560"
  sed -e 's/2000000690044512/2000000111111111/g' "$DIR/price-increase.json" >"$DIR/.new.tmp" && mv "$DIR/.new.tmp" "$DIR/zz-new.json"
  e2e_wait_for "$((N + 1)) of $((N + 1)) shown"
  e2e_wait_for "2000000111111111"
  e2e_type q
  e2e_wait_exit 0
}

test_list_command_for_scripts() {
  fresh_dir
  # --read-only (docs/list.md): the same rows, and nothing appears in DIR; the index is in the cache.
  XDG_CACHE_HOME="$E2E_TMP/ro-cache" "$SUBDASH_BIN" list --read-only "$DIR" --filter "status:grace" >"$E2E_TMP/list-ro.txt"
  grep -qF "(2 of $N shown)" "$E2E_TMP/list-ro.txt"
  [[ ! -e "$DIR/.subdash-index.sqlite" ]]
  ls "$E2E_TMP/ro-cache/subdash/" | grep -q '^index-.*\.sqlite$'
  "$SUBDASH_BIN" list "$DIR" --filter "status:grace" >"$E2E_TMP/list.txt"
  grep -qF "(2 of $N shown)" "$E2E_TMP/list.txt"
  grep -qF "2000000820915733" "$E2E_TMP/list.txt"
  "$SUBDASH_BIN" list --json "$DIR" --filter "flag:refunded" >"$E2E_TMP/list.json"
  grep -qF '"originalTransactionId": "510001873462915"' "$E2E_TMP/list.json"
  grep -qF '"billing grace period": 2' "$E2E_TMP/list.json"
  # A directory that cannot be read: one line naming it, exit 2.
  local code=0
  "$SUBDASH_BIN" list "$DIR/missing" 2>"$E2E_TMP/err.txt" || code=$?
  [[ $code == 2 ]] && grep -qF "$DIR/missing" "$E2E_TMP/err.txt" && [[ $(wc -l <"$E2E_TMP/err.txt") == 1 ]]
}

# The index: built beside the files on the first open, read on the next, caught up with a file
# changed while no list was open; --index puts it elsewhere, --no-index reads the files.
test_index_beside_the_files() {
  fresh_dir
  # --read-only leaves DIR as it was: the index goes to the cache directory.
  e2e_start idx0 120 30 env XDG_CACHE_HOME="$E2E_TMP/cache" "$SUBDASH_BIN" --read-only "$DIR"
  e2e_wait_for "$N of $N shown"
  e2e_type q
  e2e_wait_exit 0
  [[ -z $(find "$DIR" -name '.subdash-index*') ]]
  [[ -n $(find "$E2E_TMP/cache/subdash" -name 'index-*.sqlite') ]]
  e2e_start idx1 120 30 "$SUBDASH_BIN" "$DIR"
  e2e_wait_for "$N of $N shown"
  e2e_type q
  e2e_wait_exit 0
  [[ -s "$DIR/.subdash-index.sqlite" ]]
  replace_atomically "$DIR/active.json" -e 's/2000000871234560/2000000777777777/g'
  e2e_start idx2 120 30 "$SUBDASH_BIN" --read-only "$DIR"
  e2e_wait_for "2000000777777777"
  e2e_refute_screen "2000000871234560"
  e2e_type q
  e2e_wait_exit 0
  # Scripts see the same through the index, with another index path, and with none.
  "$SUBDASH_BIN" list "$DIR" --filter 2000000777777777 >"$E2E_TMP/a.txt"
  "$SUBDASH_BIN" list "$DIR" --index "$E2E_TMP/elsewhere.sqlite" --filter 2000000777777777 >"$E2E_TMP/b.txt"
  "$SUBDASH_BIN" list "$DIR" --no-index --filter 2000000777777777 >"$E2E_TMP/c.txt"
  [[ -s "$E2E_TMP/elsewhere.sqlite" ]]
  grep -qF "(1 of $N shown)" "$E2E_TMP/a.txt"
  cmp "$E2E_TMP/a.txt" "$E2E_TMP/b.txt" && cmp "$E2E_TMP/a.txt" "$E2E_TMP/c.txt"
}

# A later open draws the index's first page, then reads every row and compares the files on
# another thread (issue 23): keys typed at once apply to every row, a file changed while no list
# was open is caught up, and the live follow works once its stamps are in.
test_index_first_page_then_every_row() {
  fresh_dir
  "$SUBDASH_BIN" list "$DIR" >/dev/null
  [[ -s "$DIR/.subdash-index.sqlite" ]]
  replace_atomically "$DIR/active.json" -e 's/2000000871234560/2000000555555555/g'
  e2e_start idx3 120 30 "$SUBDASH_BIN" "$DIR"
  e2e_wait_for "$N of $N shown"
  e2e_type "/status:gr"
  e2e_wait_for "2 of $N shown"
  e2e_keys Escape
  e2e_wait_for "$N of $N shown"
  e2e_wait_for "2000000555555555"
  e2e_refute_screen "2000000871234560"
  sed -e 's/2000000690044512/2000000222222222/g' "$DIR/price-increase.json" >"$DIR/.new.tmp" && mv "$DIR/.new.tmp" "$DIR/zz-new.json"
  e2e_wait_for "$((N + 1)) of $((N + 1)) shown"
  e2e_wait_for "2000000222222222"
  e2e_type q
  e2e_wait_exit 0
}

test_demo_population() {
  e2e_start demopop 120 30 "$SUBDASH_BIN" --demo-population
  e2e_wait_for "200 of 200 shown" 60  # 200 subscribers made and simulated first: seconds on a busy machine
  e2e_type "/status:exp"
  e2e_wait_for "filter: status:exp"
  e2e_keys Escape
  e2e_type q
  e2e_wait_exit 0
}

e2e_run "the list filters as you type, opens a subscriber, comes back to the row, sorts and follows the directory" test_filter_open_back_sort_live
e2e_run "subdash list prints matching rows and JSON for scripts; a missing directory is a one-line error" test_list_command_for_scripts
e2e_run "the index is built beside the files (in the cache under --read-only), read on the next open and caught up with a file changed meanwhile" test_index_beside_the_files
e2e_run "a later open draws the index's first page, then every row: keys typed at once apply to them, files changed meanwhile and later show" test_index_first_page_then_every_row
e2e_run "--demo-population opens the list on a simulated population of 200" test_demo_population
e2e_summary
