#!/usr/bin/env bash
# Installs SubDash under PREFIX: PREFIX/bin/subdash is the one command a user runs; the helper
# executables it starts (the list's index, the App Store client, the HTTP server, the deliverer,
# the PostgreSQL store) go to PREFIX/libexec/subdash/, where `subdash` looks for them relative to
# its own resolved path (as git keeps its commands in libexec/git-core). Nothing is looked up on PATH.
#
#   scripts/install.sh [--configuration debug|release] [--static-swift-stdlib] [--strip] [--no-build] PREFIX
#
# Builds each executable first (SwiftPM rebuilds only what changed). --static-swift-stdlib links
# the Swift runtime into every executable, for servers without Swift; it builds in its own
# directory (.build/static) so the usual .build/release is left as it is. --strip installs the
# executables without their symbol tables (a quarter of the size; crash backtraces name less).
set -euo pipefail

usage() {
  echo "usage: scripts/install.sh [--configuration debug|release] [--static-swift-stdlib] [--strip] [--no-build] PREFIX" >&2
  exit 64
}

configuration=release
static=0
strip_symbols=0
build=1
prefix=
while (($# > 0)); do
  case "$1" in
    --configuration|-c)
      (($# >= 2)) || usage
      case "$2" in debug|release) configuration=$2 ;; *) echo "install: --configuration is debug or release, not '$2'" >&2; exit 64 ;; esac
      shift 2 ;;
    --configuration=*)
      configuration=${1#*=}
      [[ $configuration == debug || $configuration == release ]] || { echo "install: --configuration is debug or release, not '$configuration'" >&2; exit 64; }
      shift ;;
    --static-swift-stdlib) static=1; shift ;;
    --no-build) build=0; shift ;;
    --strip) strip_symbols=1; shift ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "install: unknown option $1" >&2; usage ;;
    *) [[ -z $prefix ]] || usage; prefix=$1; shift ;;
  esac
done
[[ -n $prefix ]] || usage

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# The one command and the helpers it runs: every executable target named subdash-* in Package.swift
# (ExecutablePath.helpers lists the same; InstallLayoutTests checks that they agree).
command_name=subdash
mapfile -t helpers < <(grep -oE 'name: "subdash-[a-z-]+"' Package.swift | sed -E 's/name: "(.*)"/\1/')
((${#helpers[@]} > 0)) || { echo "install: no subdash-* executables in Package.swift" >&2; exit 1; }

swift_flags=(-c "$configuration")
if ((static)); then
  swift_flags+=(--static-swift-stdlib --scratch-path .build/static)
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ((build)); then
  for product in "$command_name" "${helpers[@]}"; do
    echo "install: building $product ($configuration$( ((static)) && echo ', static Swift runtime' || true))"
    if ! swift build "${swift_flags[@]}" --product "$product" >"$log" 2>&1; then
      grep -E "error:" "$log" | sort -u | head -20 >&2 || tail -20 "$log" >&2
      echo "install: building $product failed (nothing installed)" >&2
      exit 1
    fi
  done
fi
bin=$(swift build "${swift_flags[@]}" --show-bin-path)

for product in "$command_name" "${helpers[@]}"; do
  [[ -x $bin/$product ]] || { echo "install: $bin/$product is missing (run without --no-build)" >&2; exit 1; }
done

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd -P)
install -d -m 755 "$prefix/bin" "$prefix/libexec/subdash"
# Each file is written beside its final name and renamed over it: a subdash starting meanwhile
# finds the old file or the new one, never half of one, and a running one keeps its copy.
place() {
  install -m 755 "$1" "$2.installing.$$"
  if ((strip_symbols)); then strip "$2.installing.$$"; fi
  mv -f "$2.installing.$$" "$2"
}
place "$bin/$command_name" "$prefix/bin/$command_name"
for helper in "${helpers[@]}"; do
  place "$bin/$helper" "$prefix/libexec/subdash/$helper"
done

echo "install: $prefix/bin/$command_name and ${#helpers[@]} helpers in $prefix/libexec/subdash ($(du -sh "$prefix/bin/$command_name" "$prefix/libexec/subdash" | awk '{print $1}' | paste -sd+ -) on disk)"
"$prefix/bin/$command_name" --version
