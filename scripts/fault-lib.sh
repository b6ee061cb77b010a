# Helpers for fault tests (sourced by scripts/fault-tests.sh; meant for the dashboard's
# show-never-writes and read-only checks too). Bash; Linux.

# One line per file in DIR (hidden ones included): name, size, mode, mtime (ns), sha256.
# Two equal fingerprints mean nothing in DIR was created, removed, changed or touched.
fault_tree_fingerprint() {
  local dir=$1
  (cd "$dir" && find . -mindepth 1 -printf '%P\t%s\t%m\t%T@\t' -exec sh -c 'if [ -f "$1" ] && [ ! -L "$1" ]; then sha256sum < "$1" | cut -d" " -f1; else echo -; fi' _ {} \; | sort)
}

# Runs CMD with writes beyond BYTES failing with EFBIG ("disk full" without privileges):
# SIGXFSZ is ignored (an ignored signal stays ignored across exec) and RLIMIT_FSIZE is set.
#   fault_with_file_size_limit 4096 subdash x.json
fault_with_file_size_limit() {
  local bytes=$1; shift
  (trap '' XFSZ; ulimit -f $(( (bytes + 1023) / 1024 )); exec "$@")
}

# Whether this process may create private mount namespaces with tmpfs (root, unshare(1)).
fault_can_mount() {
  [[ $(id -u) -eq 0 ]] && command -v unshare >/dev/null 2>&1 \
    && unshare -m --propagation private sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; rmdir "$d"' 2>/dev/null
}

# Runs SCRIPT (a bash snippet) in a private mount namespace with a tmpfs of SIZE mounted at
# $FAULT_MNT, after copying SRC_DIR's files into it. The snippet may `mount -o remount,ro
# "$FAULT_MNT"` to make it read-only, or fill it to make it full. Nothing leaks out of the
# namespace. Returns the snippet's status; 77 when mounting is not possible here.
fault_in_tmpfs() {
  local size=$1 src=$2 script=$3
  fault_can_mount || return 77
  local mnt
  mnt=$(mktemp -d "${TMPDIR:-/tmp}/subdash-fault-mnt.XXXXXX")
  FAULT_MNT=$mnt FAULT_SRC=$src unshare -m --propagation private bash -c '
    set -euo pipefail
    mount -t tmpfs -o size='"$size"' tmpfs "$FAULT_MNT"
    cp -a "$FAULT_SRC"/. "$FAULT_MNT"/
    '"$script"
  local status=$?
  rmdir "$mnt" 2>/dev/null || true
  return $status
}
