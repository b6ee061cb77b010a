#!/usr/bin/env bash
# The install a user gets, checked from the outside (issue 20 §3): scripts/install.sh into a
# temporary prefix, then every command's --help and a real `subdash list`, `show` and `verify` run
# from there with nothing else on PATH and an empty environment, so a helper found anywhere but
# PREFIX (the build directory, PATH, the working directory) would show. Then one helper is
# removed: the command that needs it must fail with one line naming the file and the install.
#
#   scripts/install-check.sh [--configuration debug|release] [--static-swift-stdlib] [--no-build]
# Default debug, built first; --no-build installs what `swift build` already made (CI).
# --static-swift-stdlib checks the install for servers without Swift (scripts/install.sh's flag):
# no installed executable may need a Swift runtime library (libswiftCore, Foundation, Dispatch…),
# by its ELF dynamic section and by `ldd`, and everything above runs with no library path set.
# Prints one summary line; exit 1 on the first failed check.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd -P)
configuration=debug
install_flags=()
static=0
while (($# > 0)); do
  case "$1" in
    --configuration) configuration=${2:?--configuration debug|release}; shift 2 ;;
    --no-build) install_flags+=(--no-build); shift ;;
    --static-swift-stdlib) install_flags+=(--static-swift-stdlib); static=1; shift ;;
    *) echo "usage: scripts/install-check.sh [--configuration debug|release] [--static-swift-stdlib] [--no-build]" >&2; exit 64 ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/subdash-install-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
bash scripts/install.sh --configuration "$configuration" "${install_flags[@]}" "$prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; echo "install-check: scripts/install.sh failed" >&2; exit 1; }

checks=0
fail() { echo "install-check: $*" >&2; exit 1; }
# Only the prefix's bin on PATH, a private HOME, nothing inherited; run from an empty directory.
mkdir -p "$work/home" "$work/cwd"
run() { (cd "$work/cwd" && env -i PATH="$prefix/bin" HOME="$work/home" TERM=dumb LANG=C.UTF-8 "$@"); }
expect_ok() {  # description, command...
  local what=$1; shift
  run "$@" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; fail "$what: exit $?"; }
  checks=$((checks + 1))
}

[[ -x $prefix/bin/subdash ]] || fail "no $prefix/bin/subdash"

# A static install needs no Swift on the server: no executable names a Swift runtime library, and
# none is found for it (ldd would show one reached through a RUNPATH or the system's cache).
if ((static)); then
  swift_runtime='lib(swift[A-Za-z_]*|Foundation[A-Za-z]*|_Foundation[A-Za-z]*|dispatch|BlocksRuntime|XCTest)\.so'
  for exe in "$prefix/bin/subdash" "$prefix"/libexec/subdash/*; do
    needed=$(readelf -d "$exe" | grep -E '\((NEEDED|RUNPATH|RPATH)\)' || true)
    ! grep -qE "$swift_runtime|swift" <<<"$needed" || { echo "$needed" >&2; fail "static install: $exe needs a Swift runtime library"; }
    # A fully static executable (the release `subdash`) loads nothing; ldd says so and exits 1.
    if readelf -l "$exe" | grep -q INTERP; then
      loaded=$(env -i ldd "$exe") || fail "static install: ldd $exe failed"
    else
      loaded=""
    fi
    ! grep -qE "$swift_runtime|not found" <<<"$loaded" || { echo "$loaded" >&2; fail "static install: $exe loads a Swift runtime library or misses one"; }
    checks=$((checks + 1))
  done
fi
[[ $(ls "$prefix/bin") == subdash ]] || fail "$prefix/bin holds more than subdash: $(ls "$prefix/bin" | tr '\n' ' ')"

# --version lists every helper at its place in PREFIX/libexec/subdash.
expect_ok "subdash --version" subdash --version
mapfile -t helpers < <(grep -oE 'name: "subdash-[a-z-]+"' Package.swift | sed -E 's/name: "(.*)"/\1/')
for helper in "${helpers[@]}"; do
  grep -qE "^  $helper +$prefix/libexec/subdash/$helper\$" "$work/out" || { cat "$work/out" >&2; fail "--version does not list $prefix/libexec/subdash/$helper"; }
done

# Every command's --help, the ones that run a helper included (the commands as --help lists them).
expect_ok "subdash --help" subdash --help
commands=$(awk '/^SUBCOMMANDS:/ {on=1; next} on && /^  [a-z]/ {print $1} /^  See / {on=0}' "$work/out")
[[ $(wc -w <<<"$commands") -ge 14 ]] || fail "subdash --help lists too few commands: $commands"
for command in $commands terminal-check; do
  expect_ok "subdash $command --help" subdash "$command" --help
  grep -q "USAGE:" "$work/out" || fail "subdash $command --help printed no usage"
done
for sub in "simulate --help" "ca init --help" "db import --help" "db export --help"; do
  # shellcheck disable=SC2086
  expect_ok "subdash $sub" subdash $sub
done

# Real work from the install: the list over a copy of the examples (subdash-list builds its index),
# a subscriber shown, signed data verified against Apple's root.
cp "$repo"/Examples/*.json "$work/cwd/"
rm -f "$work/cwd/storekit-catalog.json"
expect_ok "subdash list" subdash list "$work/cwd"
subscribers=$(find "$work/cwd" -maxdepth 1 -name '*.json' | wc -l)
grep -qF "($subscribers of $subscribers shown)" "$work/out" || { head -3 "$work/out" >&2; fail "subdash list does not show the $subscribers examples"; }
expect_ok "subdash show" subdash show "$work/cwd/active.json"
grep -q "^ACCESS: YES" "$work/out" || { cat "$work/out" >&2; fail "subdash show does not say ACCESS: YES"; }
expect_ok "subdash show --json" subdash show --json "$work/cwd/grace-period.json"
expect_ok "subdash verify" subdash verify "$repo/Tests/AppStoreSigningTests/Fixtures/real-apple/ruby_sandbox_transaction.jws"
grep -q "valid: Apple-signed transaction" "$work/out" || { cat "$work/out" >&2; fail "subdash verify did not verify Apple's transaction"; }

# A partial install: without subdash-fetch, `subdash fetch` says what it looked for and how to
# install, in one line, exit 2; a subdash-fetch on PATH is not run in its place.
rm "$prefix/libexec/subdash/subdash-fetch"
printf '#!/bin/sh\necho decoy ran\n' >"$prefix/bin/subdash-fetch" && chmod 755 "$prefix/bin/subdash-fetch"
mv "$prefix/bin/subdash-fetch" "$work/cwd/subdash-fetch"
status=0
(cd "$work/cwd" && env -i PATH="$prefix/bin:$work/cwd" HOME="$work/home" "$prefix/bin/subdash" fetch 2000000500) >"$work/out" 2>"$work/err" || status=$?
[[ $status -eq 2 ]] || fail "subdash fetch without its helper: exit $status, expected 2"
[[ ! -s $work/out ]] || fail "subdash fetch without its helper printed on stdout (the decoy ran?): $(cat "$work/out")"
[[ $(wc -l <"$work/err") -eq 1 ]] || { cat "$work/err" >&2; fail "subdash fetch without its helper: not one line"; }
grep -qF "$prefix/libexec/subdash/subdash-fetch" "$work/err" && grep -qF "scripts/install.sh" "$work/err" \
  || { cat "$work/err" >&2; fail "the missing-helper line names neither the file nor the install command"; }
checks=$((checks + 1))

echo "install-check: $checks checks passed ($configuration$( ((static)) && echo ', static Swift runtime' || true) install in a temporary prefix, PATH=PREFIX/bin only)"
