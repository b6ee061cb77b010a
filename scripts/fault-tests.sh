#!/usr/bin/env bash
# Faults on save, at the DashModel level (the probe saves through StateFile.update):
#   1. disk full while appending to the journal (RLIMIT_FSIZE, no privileges needed)
#   2. disk full while writing the new document (RLIMIT_FSIZE)
#   3. a full tmpfs (real ENOSPC) during a run of saves      (root + unshare; skipped otherwise)
#   4. a read-only filesystem: load works, saving is refused  (root + unshare; skipped otherwise)
# Each must end in a one-line error naming the file, with the state file (and the committed part
# of its journal) exactly as before. Prints one line per case and a summary line.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
source scripts/fault-lib.sh
# Debug by default: after `swift build` (CI) it is already built; SUBDASH_FAULT_CONFIG=release for speed.
config=${SUBDASH_FAULT_CONFIG:-debug}
swift build -c "$config" --product SubDashFaultProbe >/dev/null || { echo "fault-tests: BUILD FAILED"; exit 1; }
probe="$(swift build -c "$config" --show-bin-path)/SubDashFaultProbe"
work=$(mktemp -d "${TMPDIR:-/tmp}/subdash-fault-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0 failed=0 skipped=0
pass() { echo "  ok    $1"; passed=$((passed + 1)); }
fail() { echo "  FAIL  $1"; failed=$((failed + 1)); }
skip() { echo "  skip  $1"; skipped=$((skipped + 1)); }

# A state file with VERSIONS saves behind it, in a fresh directory.
fresh() {
  local dir=$work/$1 versions=$2
  mkdir -p "$dir"
  "$probe" init "$dir/state.json"
  for ((i = 0; i < versions; i++)); do "$probe" save "$dir/state.json" >/dev/null; done
  echo "$dir"
}

# 0. The helpers the dashboard's checks will use: a fingerprint notices a touch; a size limit bites.
h=$work/helpers; mkdir -p "$h"; echo a > "$h/.hidden"; echo b > "$h/f"
fp1=$(fault_tree_fingerprint "$h"); fp2=$(fault_tree_fingerprint "$h"); touch -d '2001-01-01' "$h/.hidden"; fp3=$(fault_tree_fingerprint "$h")
if [[ $fp1 == "$fp2" && $fp1 != "$fp3" ]] && ! fault_with_file_size_limit 1024 dd if=/dev/zero of="$h/big" bs=4096 count=1 2>/dev/null \
   && [[ $(stat -c %s "$h/big") -eq 1024 ]]; then
  pass "helpers: tree fingerprint sees a touched hidden file; a 1 KiB file-size limit stops a 4 KiB write"
else
  fail "helpers: fingerprint or file-size limit"
fi

# A probe save adds two history entries; a subscriber's first 32 are inline in its document
# (StateFile.inlineHistoryLimit), so its journal starts at this version.
first_journaled=17

# 1. The journal append hits the limit: nothing saved, state and journal unchanged.
d=$(fresh journal-full $((first_journaled + 3)))
before_state=$(sha256sum < "$d/state.json"); before_journal=$(sha256sum < "$d/state.journal.jsonl")
limit=$(( $(stat -c %s "$d/state.journal.jsonl") + 10 ))
out=$("$probe" save "$d/state.json" --fsize-limit "$limit"); status=$?
if [[ $status -ne 0 && $out == "state.journal.jsonl: cannot append to the history journal: File too large; nothing was saved" \
      && $(sha256sum < "$d/state.json") == "$before_state" && $(sha256sum < "$d/state.journal.jsonl") == "$before_journal" ]] \
   && "$probe" check "$d/state.json" | grep -q "^version $((first_journaled + 3)),"; then
  pass "journal append past the file-size limit: \"$out\"; state and journal unchanged"
else
  fail "journal append past the file-size limit (status $status): $out"
fi

# 2. The journal append fits but the new document does not: state unchanged, the appended
#    bytes are uncommitted leftovers, and the next save cuts them and succeeds. The save that
#    starts the journal: a new journal of two entries, and a document of 32 inline entries.
d=$(fresh document-full $((first_journaled - 1)))
before_state=$(sha256sum < "$d/state.json")
limit=$(( $(stat -c %s "$d/state.json") + 10 ))
out=$("$probe" save "$d/state.json" --fsize-limit "$limit"); status=$?
check=$("$probe" check "$d/state.json")
leftover=$(stat -c %s "$d/state.journal.jsonl" 2>/dev/null || echo 0)
if [[ $status -ne 0 && $out == "state.json: could not save: writing the new contents failed: File too large; the file on disk is unchanged" \
      && $(sha256sum < "$d/state.json") == "$before_state" && $check == "version $((first_journaled - 1)),"* && $leftover -gt 0 ]] \
   && [[ -z $(find "$d" -name '.state.json.subdash-tmp-*') ]] \
   && "$probe" save "$d/state.json" >/dev/null && "$probe" check "$d/state.json" | grep -q "^version $first_journaled, journal [0-9]* committed bytes + 0 left over"; then
  pass "new document past the file-size limit: \"$out\"; state unchanged, $leftover journal bytes left over, no temporary file, next save cuts them"
else
  fail "new document past the file-size limit (status $status, $leftover journal bytes): $out / $check"
fi

# 3. A small tmpfs fills up during a run of saves.
d=$(fresh tmpfs-full 0)
out=$(fault_in_tmpfs 48k "$d" '
  i=0; last=""
  while out=$("'"$probe"'" save "$FAULT_MNT/state.json"); do i=$((i + 1)); [ $i -lt 100000 ] || break; done
  echo "$out"
  "'"$probe"'" check "$FAULT_MNT/state.json"
  echo "saves=$i"'); status=$?
if [[ $status -eq 77 ]]; then
  skip "full tmpfs (needs root and unshare)"
elif [[ $out == *"No space left on device"* && $(sed -n 2p <<<"$out") == "version "* && $(wc -l <<<"$out") -eq 3 ]]; then
  pass "tmpfs filled after $(sed -n 3p <<<"$out" | cut -d= -f2) saves: \"$(sed -n 1p <<<"$out")\"; file intact ($(sed -n 2p <<<"$out" | cut -d, -f1))"
else
  fail "full tmpfs: $out"
fi

# 4. A read-only filesystem: loading works, a save is refused, nothing changes.
d=$(fresh read-only 3)
out=$(fault_in_tmpfs 1m "$d" '
  # Names, sizes, modes, mtimes and contents of the files (not `ls -la`: its block total and the
  # directory line are the filesystem'"'"'s, and once differed under load with no file touched).
  snapshot() { (cd "$FAULT_MNT" && find . -type f -printf "%P %s %m %T@\n" | sort && sha256sum *); }
  before=$(snapshot)
  mount -o remount,ro "$FAULT_MNT"
  "'"$probe"'" check "$FAULT_MNT/state.json"
  "'"$probe"'" save "$FAULT_MNT/state.json" && echo "SAVED ON A READ-ONLY FILESYSTEM"
  after=$(snapshot)
  if [ "$before" = "$after" ]; then echo unchanged; else echo "changed:"; diff <(echo "$before") <(echo "$after"); fi'); status=$?
if [[ $status -eq 77 ]]; then
  skip "read-only filesystem (needs root and unshare)"
elif [[ $(sed -n 1p <<<"$out") == "version 3,"* \
        && $(sed -n 2p <<<"$out") == "state.json: cannot open the lock file .subdash.lock: Read-only file system; nothing was saved" \
        && $(sed -n 3p <<<"$out") == unchanged ]]; then
  pass "read-only filesystem: loads; save refused: \"$(sed -n 2p <<<"$out")\"; nothing changed"
else
  fail "read-only filesystem: $out"
fi

echo "fault-tests: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
