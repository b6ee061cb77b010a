#!/usr/bin/env bash
# `subdash simulate --deliver` against a backend built on Apple's app-store-server-library: every
# notification SubDash signs must verify and decode there (the local test CA's root trusted), with
# the fields the state file's log shows, including those delivered only after a retry.
# Uses .venv-oracle (Tests/oracle/run.sh creates it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source Tests/oracle/lib.sh
ensure_oracle_venv
swift build --product subdash >/dev/null
swift build --product subdash-deliver >/dev/null
bin="$(swift build --show-bin-path)"
work="$(mktemp -d)"
receiver=""
cleanup() { [[ -n $receiver ]] && kill "$receiver" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cp Examples/active.json Examples/backyard-birds.storekit "$work/"
"$bin/subdash" ca init "$work/ca" >/dev/null
# The first two requests are answered 500: those notifications arrive on Apple's retry schedule.
.venv-oracle/bin/python Tests/oracle/deliver_receiver.py "$work/ca/root.der" com.example.birdwatch "$work/port" "$work/received.jsonl" --fail-first 2 &
receiver=$!
for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")/"
# Renewals, then every renewal fails: billing retry with grace, grace expiry, expiry. One renewal
# every two seconds, so Apple's whole retry schedule takes a fraction of a second.
# simulate prints one line per notification it writes: that is how many must arrive.
"$bin/subdash" simulate --steps 3 --rate oneRenewalEveryTwoSeconds --deliver "$url" --ca "$work/ca" "$work/active.json" >"$work/written1" 2>"$work/deliver1.log"
"$bin/subdash" simulate --fast --fail-renewals --grace storekit --deliver "$url" --ca "$work/ca" --duplicate-rate 0.5 "$work/active.json" >"$work/written2" 2>"$work/deliver2.log"
written=$(cat "$work/written1" "$work/written2" | wc -l)
"$bin/subdash" show --json --events 100 "$work/active.json" >"$work/show.json"
.venv-oracle/bin/python Tests/oracle/deliver_compare.py "$work/received.jsonl" "$work/show.json" "$written" || {
  echo "deliver-oracle: subdash's log:"; cat "$work/deliver1.log" "$work/deliver2.log"; exit 1; }
