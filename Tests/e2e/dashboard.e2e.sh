#!/usr/bin/env bash
# End-to-end tests of the dashboard (`subdash FILE`) and `subdash show`, driven in tmux.
# Every test works on its own copy of an Examples/*.json file in $E2E_TMP; each example carries a
# simulated clock (simulation.now), so every screen is the same on every run.
# Run on its own (after `swift build`) or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EXAMPLES="$E2E_ROOT/Examples"

# in_test_dir NAME: each test works in its own directory under $E2E_TMP (journals and lock files
# of one test must not leak into the next); it becomes the working directory, so file names on
# screen are short.
in_test_dir() {
  mkdir -p "$E2E_TMP/$1"
  cd "$E2E_TMP/$1"
}

# copy_example STEM: a private copy of Examples/STEM.json in the working directory.
copy_example() { cp "$EXAMPLES/$1.json" "$1.json"; }

# open_dashboard NAME STEM [OPTIONS...]: copies the example and opens the dashboard on it at 80x24.
open_dashboard() {
  local name=$1 stem=$2
  shift 2
  in_test_dir "$name"
  copy_example "$stem"
  e2e_start "$name" 80 24 "$SUBDASH_BIN" "$@" "$stem.json"
  e2e_wait_for "SubDash ["
  e2e_wait_for "? help"
}

quit() {
  e2e_type q
  e2e_wait_exit 0
}

# The file's bytes, to prove nothing was written.
digest() { sha256sum "$1" | cut -d' ' -f1; }

# show_json FILE FILTER: one value from `subdash show --json FILE`.
show_json() { "$SUBDASH_BIN" show --json "$1" | jq -r "$2"; }

# history_notifications FILE: the notifications of FILE's history, one compact JSON per line: its
# inline ones (a young subscriber's whole history is inline), then its journal's.
history_notifications() {
  jq -c '.subscriber.notifications[]?' "$1"
  local journal=${1%.json}.journal.jsonl
  if [[ -e $journal ]]; then jq -c 'select(.notification) | .notification' "$journal"; fi
}

# only_file NAME: the test directory holds NAME and nothing else (no journal, no lock file).
only_file() {
  local files
  files=$(ls -A)
  [[ "$files" == "$1" ]] || { echo "expected only $1 here, found: $files" >&2; exit 1; }
}

# Replaces FILE the way editors and atomic writers do: write a temporary file, rename it over.
rename_over() {
  local file=$1 content_file=$2
  cp "$content_file" "$file.tmp"
  mv "$file.tmp" "$file"
}

# --- banners and the access verdict ---------------------------------------------------------

test_active() {
  open_dashboard active active
  e2e_assert_screen "ACCESS: YES — subscribed"
  e2e_assert_screen "renews on 2026-05-23 18:32 UTC (in 9d 03h) at 7.99 USD"
  e2e_refute_screen "GRACE PERIOD"
  e2e_refute_screen "EXPIRED"
  quit
}

test_grace_banner() {
  open_dashboard grace grace-period
  e2e_assert_screen "⚠ GRACE PERIOD  payment failed; access kept for 11d 15h, until 2026-05-26 06:00"
  e2e_assert_screen "ACCESS: YES — in billing grace period until 2026-05-26 06:00 UTC"
  e2e_assert_screen "renewal due 2026-05-10 06:00 UTC not paid yet; Apple is retrying at 7.99 USD"
  quit
}

test_retry_banner() {
  open_dashboard retry billing-retry
  e2e_assert_screen "✖ BILLING RETRY  payment failing since 2026-04-25 16:30 UTC; retrying until"
  e2e_assert_screen "ACCESS: NO — in billing retry, not in grace (policy billingRetryAccess: none)"
  quit
}

test_retry_limited_access() {
  open_dashboard retrylimited billing-retry --retry-access limited
  e2e_assert_screen "✖ BILLING RETRY"
  e2e_assert_screen "ACCESS: LIMITED"
  quit
}

test_expired_voluntary_banner() {
  open_dashboard expvol expired-voluntary
  e2e_assert_screen "✖ EXPIRED  on 2026-03-08 13:00 UTC: customer cancelled (auto-renew turned off)"
  e2e_assert_screen "ACCESS: NO — expired 2026-03-08 13:00 UTC"
  quit
}

test_expired_billing_banner() {
  open_dashboard expbill expired-billing
  e2e_assert_screen "✖ EXPIRED  billing error: the paid period ended 2026-02-09 08:10 UTC (that"
  e2e_assert_screen "renewal was never paid), access ended 2026-02-25 08:10 UTC when the grace per"
  e2e_assert_screen "ACCESS: NO — expired: the renewal due 2026-02-09 08:10 UTC was never paid"
  quit
}

test_refunded_banner() {
  open_dashboard refund refunded
  e2e_assert_screen "✖ REFUNDED  refunded 2026-03-20 10:02 UTC: full refund"
  e2e_assert_screen "ACCESS: NO — refunded/revoked 2026-03-20 10:02 UTC"
  e2e_assert_screen "SubDash [Production]"
  quit
}

# --now views the file at another moment: support staff asking "did they have access then?".
test_now_option() {
  open_dashboard nowopt grace-period --now 1779775199999    # grace ends 1 ms later
  e2e_assert_screen "at 2026-05-26 05:59 UTC"
  e2e_assert_screen "⚠ GRACE PERIOD"
  e2e_assert_screen "ACCESS: YES — in billing grace period"
  quit
  e2e_stop
  open_dashboard nowopt2 grace-period --now 2026-05-26T06:00:00Z
  e2e_assert_screen "at 2026-05-26 06:00 UTC"
  e2e_assert_screen "✖ BILLING RETRY"
  e2e_assert_screen "ACCESS: NO — in billing retry, not in grace"
  e2e_refute_screen "CHECK FILE"
  quit
}

# --- plan changes -----------------------------------------------------------------------------

test_upgrade() {
  open_dashboard upgrade active
  e2e_type u
  e2e_wait_for "Upgrade to"
  e2e_assert_screen "› Premium (Annual) — 119.99 USD / 1 year  upgrade now, refund 2.44 USD"
  e2e_keys Enter
  e2e_wait_for "Upgrade now to Premium (Annual) for 119.99 USD: refund 2.44 USD for"
  e2e_type y
  e2e_wait_for "Premium (Annual)  level 1 of 3 in Birdwatch Pass"
  e2e_wait_for "Upgraded to Premium (Annual) now; refund 2.44 USD"
  e2e_assert_screen "DID_CHANGE_RENEWAL_PREF / UPGRADE"
  quit
  [[ "$(show_json active.json .productId)" == pass.premium.annual ]]
  [[ "$(show_json active.json .renewal.renewalDateISO)" == 2027-05-14T15:00:00Z ]]
  history_notifications active.json | grep -qF '"subtype":"UPGRADE"' || { echo "no UPGRADE in the history" >&2; exit 1; }
}

test_downgrade() {
  open_dashboard downgrade active
  e2e_type d
  # One lower level: straight to the confirmation, no picker.
  e2e_wait_for "Downgrade to Individual at the next renewal on 2026-05-23 18:32 UTC"
  e2e_type y
  e2e_wait_for "switches to Individual on 2026-05-23 18:32 UTC (in 9d 03h)"
  e2e_assert_screen "◆ Individual        level 3  4.99 USD / 1 month   pending downgrade"
  e2e_assert_screen "Family  level 2 of 3 in Birdwatch Pass"   # the current plan stays until then
  quit
  [[ "$(jq -r .subscriber.renewalInfo.autoRenewProductId active.json)" == pass.individual.monthly ]]
  [[ "$(show_json active.json .productId)" == pass.family.monthly ]]
  [[ "$(show_json active.json .renewal.kind)" == switches ]]
}

test_extend_renewal_date() {
  open_dashboard extend active
  e2e_type e
  e2e_wait_for "Extend the renewal date by"
  e2e_keys Down
  e2e_keys Enter
  # Then the reason Apple's RENEWAL_EXTENDED carries (extendReasonCode 0-3).
  e2e_wait_for "Reason for the extension"
  e2e_wait_for "service issue or outage (3)"
  e2e_keys Down
  e2e_keys Enter
  e2e_wait_for "Extend Family by 7 days (service issue or outage)"
  e2e_type y
  e2e_wait_for "RENEWAL_EXTENDED"
  quit
  [[ "$(show_json active.json .renewal.renewalDateISO)" == 2026-05-30T18:32:14Z ]]
  history_notifications active.json | grep -F '"notificationType":"RENEWAL_EXTENDED"' | grep -qF 'service issue or outage'
}

# The key bar leads with the keys the state calls for: in grace, R (resolve billing) first.
test_key_bar_order_in_grace() {
  open_dashboard keybar grace-period
  e2e_wait_for "? help  R resolve billing"
  quit
}

test_cancel_changes_nothing() {
  open_dashboard cancel active
  local before
  before=$(digest active.json)
  e2e_type u
  e2e_wait_for "Upgrade to"
  e2e_keys Escape
  e2e_wait_for "cancelled; nothing was changed"
  e2e_type d
  e2e_wait_for "Downgrade to Individual"
  e2e_type n
  e2e_wait_for "cancelled; nothing was changed"
  quit
  [[ "$(digest active.json)" == "$before" ]]
  [[ ! -e active.journal.jsonl ]]
}

test_same_instant_order() {
  open_dashboard order active
  e2e_type d
  e2e_wait_for "Downgrade to Individual"
  e2e_type y
  e2e_wait_for "switches to Individual"
  e2e_type u
  e2e_wait_for "Upgrade to"
  e2e_keys Enter
  e2e_wait_for "y confirm"
  e2e_type y
  e2e_wait_for "Premium (Annual)  level 1 of 3"
  # Both events are signed at the same simulated instant; the upgrade came second.
  local newest
  newest=$(e2e_screen | grep -F "› May 14 15:00")
  [[ "$newest" == *"DID_CHANGE_RENEWAL_PREF / UPGRADE"* ]] || { echo "newest event row: $newest" >&2; exit 1; }
  quit
}

# --- offer codes ------------------------------------------------------------------------------

test_valid_code() {
  open_dashboard code active
  e2e_type r
  e2e_wait_for "Redeem offer code"
  e2e_type SPRING26
  e2e_wait_for "Code: SPRING26"
  e2e_keys Enter
  e2e_wait_for "Upgrade now to Premium for 5.99 USD (offer code Spring 2026"
  e2e_type y
  e2e_wait_for "Upgraded to Premium now; refund 2.44 USD"
  e2e_wait_for "Premium  level 1 of 3 in Birdwatch Pass"
  e2e_assert_screen "OFFER_REDEEMED / UPGRADE"
  quit
  [[ "$(show_json active.json .productId)" == pass.premium.monthly ]]
  history_notifications active.json | grep -qF '"subtype":"UPGRADE"'
}

test_invalid_code() {
  open_dashboard badcode active
  local before
  before=$(digest active.json)
  e2e_type r
  e2e_wait_for "Redeem offer code"
  e2e_type NOPE123
  e2e_wait_for "Code: NOPE123"
  e2e_keys Enter
  e2e_wait_for "✖ Offer code NOPE123 is not valid for this app."
  e2e_assert_screen "Code: NOPE123"      # still typing, so the code can be corrected
  e2e_keys Escape
  e2e_wait_for "code entry cancelled"
  quit
  [[ "$(digest active.json)" == "$before" ]] || { echo "the file changed after a refused code" >&2; exit 1; }
  only_file active.json     # no journal, not even a lock file
}

test_q_is_text_in_code_input() {
  open_dashboard qtext active
  e2e_type r
  e2e_wait_for "Redeem offer code"
  e2e_type q
  e2e_wait_for "Code: q"
  e2e_type Q
  e2e_wait_for "Code: qQ"
  e2e_refute_screen "EXIT="
  e2e_keys BSpace BSpace
  e2e_wait_gone "Code: q"
  e2e_keys Escape
  e2e_wait_for "code entry cancelled"
  quit
}

# --- win-back ---------------------------------------------------------------------------------

test_win_back() {
  open_dashboard winback expired-voluntary
  e2e_assert_screen "1. 3 Months for 1 — Premium: 11.99 USD up front for 3 months  high priority"
  e2e_type w
  e2e_wait_for "Accept win-back offer"
  e2e_keys Enter
  e2e_wait_for "Resubscribe now to Premium with win-back offer"
  e2e_type y
  e2e_wait_for "ACCESS: YES — subscribed"
  e2e_wait_for "Resubscribed to Premium with win-back offer 3 Months for 1"
  e2e_refute_screen "✖ EXPIRED"
  e2e_assert_screen "SUBSCRIBED / RESUBSCRIBE"
  quit
  [[ "$(show_json expired-voluntary.json .status)" == 1 ]]
  [[ "$(show_json expired-voluntary.json .access.level)" == yes ]]
}

# A lapsed customer with no code or win-back they want: b lists the group's plans, previews the
# resubscription with its price, and y buys it (SUBSCRIBED / RESUBSCRIBE).
test_buy_resubscribe() {
  open_dashboard buy expired-voluntary
  e2e_type b
  e2e_wait_for "Buy (subscribe or resubscribe)"
  e2e_keys Enter
  e2e_wait_for "Resubscribe to "
  e2e_type y
  e2e_wait_for "ACCESS: YES — subscribed"
  e2e_assert_screen "SUBSCRIBED / RESUBSCRIBE"
  quit
  [[ "$(show_json expired-voluntary.json .status)" == 1 ]]
}

# --- the file changing under the dashboard ----------------------------------------------------

test_external_rewrite() {
  open_dashboard rewrite active
  e2e_assert_screen "renews on 2026-05-23 18:32 UTC"
  jq '.subscriber.renewalInfo.autoRenewStatus = 0' active.json >edited.json
  rename_over active.json edited.json
  e2e_wait_for "expires on 2026-05-23 18:32 UTC (in 9d 03h), auto-renew off"
  # Another subscriber altogether.
  rename_over active.json "$EXAMPLES/grace-period.json"
  e2e_wait_for "⚠ GRACE PERIOD"
  e2e_wait_for "ACCESS: YES — in billing grace period until 2026-05-26 06:00 UTC"
  # Broken JSON: the error is shown, the last good state stays.
  printf '{\n  "format": "subdash-state/1",\n  "subscriber": {,}\n}\n' >broken.json
  rename_over active.json broken.json
  e2e_wait_for "FILE ERROR  active.json:3:18: invalid JSON"
  e2e_assert_screen "showing last good state"
  e2e_assert_screen "ACCESS: YES — in billing grace period until 2026-05-26 06:00 UTC"
  # Fixed again: the banner goes away.
  rename_over active.json "$EXAMPLES/active.json"
  e2e_wait_gone "FILE ERROR"
  e2e_wait_for "ACCESS: YES — subscribed"
  e2e_refute_screen "GRACE PERIOD"
  quit
}

test_in_place_write() {
  open_dashboard inplace active
  # Not every writer renames: a plain truncate-and-write must be seen too.
  jq '.subscriber.renewalInfo.autoRenewStatus = 0' "$EXAMPLES/active.json" >edited.json
  cat edited.json >active.json
  e2e_wait_for "auto-renew off"
  quit
}

# --- terminal size ----------------------------------------------------------------------------

test_resize() {
  open_dashboard resize active
  e2e_resize 150 40
  # Wide enough for the whole appAccountToken and the events beside the plan.
  e2e_wait_for "appAccountToken 7d1f3c52-9a4e-4b8e-a0c1-2f6d9b3e5a17"
  e2e_assert_screen "│ ── Recent events (5)"
  local top
  top=$(e2e_screen | head -n1)
  [[ ${#top} -le 150 && "$top" == *"sim 2026-05-14 15:00 UTC" ]] || { echo "bad top row at 150x40: '$top'" >&2; exit 1; }
  e2e_resize 120 40
  # One column below 150: the events under the plan, with whole labels.
  e2e_wait_for "› Apr 23 18:32  DID_RENEW"
  e2e_refute_screen "│ ── Recent events"
  e2e_resize 40 12
  e2e_wait_for "sim May 14 15:00"
  e2e_assert_screen "ACCESS: YES — subscribed"
  e2e_refute_screen "appAccountToken 7d1f"
  e2e_resize 30 10
  e2e_wait_for "Terminal too small"
  e2e_refute_screen "ACCESS"
  e2e_resize 80 24
  e2e_wait_for "── Current plan ──"
  e2e_assert_screen "ACCESS: YES — subscribed"
  e2e_refute_screen "too small"
  quit
}

test_event_detail() {
  open_dashboard event grace-period
  e2e_keys Enter
  e2e_wait_for "Event 1 of 4"
  e2e_assert_screen "notificationType: DID_FAIL_TO_RENEW"
  e2e_type j
  e2e_wait_for "Event 2 of 4"
  e2e_assert_screen "notificationType: DID_RENEW"
  e2e_keys Escape
  e2e_wait_gone "Event 2 of 4"
  quit
}

test_help_overlay() {
  in_test_dir help
  copy_example active
  # 60 rows: the list (simulation keys and settings included) fits without scrolling.
  e2e_start help 120 60 "$SUBDASH_BIN" active.json
  e2e_wait_for "ACCESS: YES"
  e2e_type '?'
  e2e_wait_for "┌─ Keys ─"
  e2e_assert_screen "Simulation settings"
  e2e_assert_screen "armed    nothing: renewals succeed"
  # Wide terminals show every sentence whole, simulation keys included.
  e2e_assert_screen "upgrade to a higher level now, refunding unused time (prorated)"
  e2e_assert_screen "w        not now: choose and accept an eligible win-back offer (best first, as SubDash infers it)"
  e2e_assert_screen "R        not now: resolve the billing issue (payment succeeds)"
  e2e_assert_screen "Z        not now: decline the Ask to Buy request"
  e2e_keys Escape
  e2e_wait_gone "┌─ Keys ─"
  quit
}

test_ascii_and_no_colour() {
  open_dashboard ascii grace-period --ascii --no-color
  e2e_assert_screen "! GRACE PERIOD  payment failed"
  e2e_assert_screen "-- Current plan ----"
  e2e_assert_screen "ACCESS: YES - in billing grace period"
  if e2e_screen | LC_ALL=C grep -q '[^ -~]'; then echo "non-ASCII on screen with --ascii" >&2; e2e__show_screen; exit 1; fi
  if e2e_screen_ansi | grep -qE $'\e\\[(3[0-7]|38;5;[0-9]+)m'; then echo "colour used despite --no-color" >&2; exit 1; fi
  quit
  e2e_stop
  # A non-UTF-8 locale and NO_COLOR do the same without flags.
  in_test_dir asciilocale
  copy_example grace-period
  e2e_start asciilocale 80 24 env LANG=C NO_COLOR=1 "$SUBDASH_BIN" grace-period.json
  e2e_wait_for "! GRACE PERIOD"
  e2e_assert_screen "-- Current plan ----"
  if e2e_screen_ansi | grep -qE $'\e\\[(3[0-7]|38;5;[0-9]+)m'; then echo "colour used despite NO_COLOR" >&2; exit 1; fi
  quit
}

# --- read-only and the demo -------------------------------------------------------------------

test_read_only() {
  open_dashboard readonly active --read-only
  e2e_assert_screen "[read-only]"
  local before
  before=$(digest active.json)
  e2e_type u
  e2e_wait_for "read-only: upgrade disabled (started with --read-only)"
  e2e_type r
  e2e_wait_for "read-only: redeem"
  e2e_refute_screen "Redeem offer code"
  e2e_type '>'
  e2e_wait_for "read-only: "
  quit
  [[ "$(digest active.json)" == "$before" ]]
  only_file active.json
}

test_demo() {
  local example_before
  example_before=$(digest "$EXAMPLES/active.json")
  in_test_dir demo
  e2e_start demo 80 24 env TMPDIR="$PWD" "$SUBDASH_BIN"
  e2e_wait_for "demo ("
  e2e_wait_for "ACCESS: YES — subscribed"
  e2e_type u
  e2e_wait_for "Upgrade to"
  e2e_keys Enter
  e2e_wait_for "y confirm"
  e2e_type y
  e2e_wait_for "Premium (Annual)  level 1 of 3"
  local copies=(subdash-demo-*/demo.json)
  [[ ${#copies[@]} -eq 1 && -f "${copies[0]}" ]] || { echo "no demo copy under TMPDIR" >&2; exit 1; }
  [[ "$(show_json "${copies[0]}" .productId)" == pass.premium.annual ]]
  quit
  # Quitting removes the copy (and its journal and lock): nothing is left in TMPDIR.
  local left
  left=$(find . -maxdepth 1 -name 'subdash-demo-*')
  [[ -z "$left" ]] || { echo "demo copy left behind: $left" >&2; exit 1; }
  [[ "$(digest "$EXAMPLES/active.json")" == "$example_before" ]] || { echo "Examples/active.json changed" >&2; exit 1; }
}

# --- leaving ----------------------------------------------------------------------------------

test_quit() {
  open_dashboard quit active
  [[ "$(e2e_alternate_on)" == 1 ]] || { echo "not on the alternate screen" >&2; exit 1; }
  e2e_type q
  e2e_wait_exit 0     # also checks isig/icanon/echo and that the alternate screen is off
  e2e_refute_screen "ACCESS: YES"
}

test_ctrl_c() {
  open_dashboard ctrlc active
  e2e_keys C-c
  e2e_wait_exit 130
}

test_sigterm() {
  open_dashboard sigterm grace-period
  kill -TERM "$(e2e_app_pid subdash)"
  e2e_wait_exit 143
}

test_sighup() {
  open_dashboard sighup grace-period
  e2e_type r                       # mid-dialog: the terminal must be restored all the same
  e2e_wait_for "Redeem offer code"
  kill -HUP "$(e2e_app_pid subdash)"
  e2e_wait_exit 129
}

# --- a dashboard following `subdash simulate` in another terminal -----------------------------

# Screen of the second window, where `subdash simulate` runs.
sim_screen() { e2e_tmux capture-pane -p -J -t "$E2E_SESSION:sim"; }
sim_wait_for() {
  local text=$1 deadline=$(($(e2e__now_us) + E2E_TIMEOUT * 1000000))
  while (($(e2e__now_us) < deadline)); do
    sim_screen | grep -qF -- "$text" && return 0
    sleep 0.01
  done
  echo "e2e: timed out waiting for '$text' in the simulate window" >&2
  sim_screen >&2
  return 1
}

test_follow_simulation() {
  in_test_dir follow
  # The clock one second before the renewal; every renewal fails. At "one renewal every ten
  # seconds" grace lasts 10 s and billing retry 20 s of wall time (Apple's table), so the test
  # sees grace, then retry, with seconds to spare at each step.
  jq '.simulation.now = (.subscriber.latestTransaction.expiresDate - 1000)' "$EXAMPLES/active.json" >live.json
  e2e_start follow 80 24 "$SUBDASH_BIN" live.json
  e2e_wait_for "ACCESS: YES — subscribed"
  local sim
  printf -v sim '%q ' "$SUBDASH_BIN" simulate live.json --fail-renewals --grace storekit --rate oneRenewalEveryTenSeconds
  e2e_tmux new-window -d -t "$E2E_SESSION" -n sim -- bash --noprofile --norc -c "$sim; echo SIMEXIT=\$?; sleep 600"
  e2e_wait_for "⚠ GRACE PERIOD" 5
  e2e_wait_for "ACCESS: YES — in billing grace period"
  # The header says a simulator is running (its heartbeat), the rate, and the armed failure.
  e2e_wait_for "simulating  rate 259200x  armed: 1"
  sim_wait_for "DID_FAIL_TO_RENEW / GRACE_PERIOD"
  e2e_wait_for "✖ BILLING RETRY" 15
  e2e_wait_for "ACCESS: NO — in billing retry, not in grace"
  sim_wait_for "GRACE_PERIOD_EXPIRED"
  # Stop the simulator (Ctrl-C), well before retry ends, then resolve from the dashboard.
  local sim_pane
  sim_pane=$(e2e_tmux display -p -t "$E2E_SESSION:sim" '#{pane_pid}')
  kill -INT "$(e2e__child_named "$sim_pane" subdash)"
  sim_wait_for "SIMEXIT=0"
  sim_wait_for "stopped by signal"
  e2e_wait_gone "simulating"
  e2e_assert_screen "rate 259200x  armed: every renewal fails"
  e2e_assert_screen "✖ BILLING RETRY"
  e2e_type R
  e2e_wait_for "Billing recovered"
  e2e_wait_for "ACCESS: YES — subscribed"
  e2e_refute_screen "BILLING RETRY"
  e2e_assert_screen "DID_RENEW / BILLING_RECOVERY"
  quit
  [[ "$(show_json live.json .status)" == 1 ]]
}

# --- subdash show (no terminal needed) --------------------------------------------------------

test_show() {
  in_test_dir show
  copy_example grace-period
  local out
  out=$("$SUBDASH_BIN" show grace-period.json)
  grep -qF "clock: simulated 2026-05-14 15:00 UTC; wall " <<<"$out"
  grep -qxF "⚠ GRACE PERIOD  payment failed; access kept for 11d 15h, until 2026-05-26 06:00 UTC" <<<"$out"
  grep -qxF "ACCESS: YES — in billing grace period until 2026-05-26 06:00 UTC" <<<"$out"
  grep -qxF "renewal due 2026-05-10 06:00 UTC not paid yet; Apple is retrying at 7.99 USD" <<<"$out"
  grep -qxF "== Recent events (4) ==" <<<"$out"
  # --events N lists fewer but counts them all; --events 0 does not claim an empty log.
  out=$("$SUBDASH_BIN" show --events 2 grace-period.json)
  grep -qxF "== Recent events (4, newest 2) ==" <<<"$out"
  out=$("$SUBDASH_BIN" show --events 0 grace-period.json)
  grep -qxF "== Recent events (4) ==" <<<"$out"
  if grep -qF "no notifications yet" <<<"$out"; then echo "--events 0 said no notifications" >&2; exit 1; fi
  # --ascii spells every glyph: no byte above 0x7F and no "?" stand-in for the offer's "×".
  copy_example offer-in-effect
  out=$("$SUBDASH_BIN" show --ascii offer-in-effect.json)
  grep -qF "3 x 1 month" <<<"$out"
  if LC_ALL=C grep -q $'[\x80-\xff]' <<<"$out"; then echo "show --ascii printed non-ASCII" >&2; exit 1; fi
  # --now: the text is derived at that moment, and says so.
  out=$("$SUBDASH_BIN" show --now 2026-05-26T06:00:00Z grace-period.json)
  grep -qF "clock: viewed at 2026-05-26 06:00 UTC (--now)" <<<"$out"
  grep -qF "✖ BILLING RETRY" <<<"$out"
  if grep -qF "GRACE PERIOD" <<<"$out"; then echo "grace shown at --now 2026-05-26T06:00:00Z" >&2; exit 1; fi
  [[ "$(show_json grace-period.json .statusName)" == "billing grace period" ]]
  [[ "$(show_json grace-period.json .access.level)" == yes ]]
  [[ "$(show_json grace-period.json .simulatedClock)" == true ]]
  # The payloads in App Store field names, and the recent log as --events says.
  [[ "$(show_json grace-period.json .latestTransaction.originalTransactionId)" == 2000000820915733 ]]
  [[ "$(show_json grace-period.json .renewalInfo.autoRenewStatus)" == 1 ]]
  [[ "$(show_json grace-period.json .subscriptionGroupIdentifier)" == 6F3A93AB ]]
  [[ "$("$SUBDASH_BIN" show --json --events 2 grace-period.json | jq -r '[.notifications[].notificationType] | join(",")')" == "DID_FAIL_TO_RENEW,DID_RENEW" ]]
  [[ "$("$SUBDASH_BIN" show --now 2026-05-26T06:00:00Z --json grace-period.json | jq -r .statusName)" == "billing retry" ]]
  # --json ends with a newline (the shell prompt must not be glued to the closing brace).
  [[ "$("$SUBDASH_BIN" show --json grace-period.json | tail -c 2 | od -An -c | tr -d ' ')" == '}\n' ]]
}

# show_fails FILE EXPECTED_STDERR: exit code 2, nothing on stdout, exactly that one line on stderr.
show_fails() {
  local file=$1 expected=$2 rc=0
  "$SUBDASH_BIN" show "$file" >out.txt 2>err.txt || rc=$?
  [[ $rc -eq 2 ]] || { echo "show $file exited $rc, expected 2" >&2; exit 1; }
  [[ ! -s out.txt ]] || { echo "show $file printed to stdout" >&2; exit 1; }
  [[ "$(wc -l <err.txt)" -eq 1 && "$(cat err.txt)" == "$expected" ]] ||
    { echo "stderr was: $(cat err.txt)" >&2; exit 1; }
}

test_show_errors() {
  in_test_dir showerrors
  printf '{\n  "format": "subdash-state/1",\n  "subscriber": {,}\n}\n' >broken.json
  show_fails broken.json "subdash: broken.json:3:18: invalid JSON: expected a quoted key, found ','"
  jq '.subscriber.latestTransaction.expiresDate = "soon"' "$EXAMPLES/active.json" >badtype.json
  show_fails badtype.json "subdash: badtype.json:16:22: \$.subscriber.latestTransaction.expiresDate: expected a number, found a string"
  show_fails missing.json "subdash: missing.json: cannot read: No such file or directory"
  # A bad option value is a usage error (64), not a file error.
  local rc=0
  "$SUBDASH_BIN" show --retry-access maybe broken.json >out.txt 2>err.txt || rc=$?
  [[ $rc -eq 64 ]] && grep -qF "usage: subdash show" err.txt
  # The dashboard refuses a broken file the same way, before touching the terminal.
  rc=0
  "$SUBDASH_BIN" broken.json </dev/null >out.txt 2>err.txt || rc=$?
  [[ $rc -eq 2 ]] && grep -qxF "subdash: broken.json:3:18: invalid JSON: expected a quoted key, found ','" err.txt
}

e2e_run "active: access verdict, no banner" test_active
e2e_run "grace period banner and access verdict" test_grace_banner
e2e_run "billing retry banner and access verdict" test_retry_banner
e2e_run "--retry-access limited changes the verdict" test_retry_limited_access
e2e_run "expired (voluntary) banner with the reason" test_expired_voluntary_banner
e2e_run "expired (billing) banner with the reason" test_expired_billing_banner
e2e_run "refunded banner" test_refunded_banner
e2e_run "--now views the file at that moment (±1 ms around grace's end)" test_now_option
e2e_run "upgrade: picker, confirm, file and journal written" test_upgrade
e2e_run "downgrade: pending at renewal, autoRenewProductId written" test_downgrade
e2e_run "extend: days, reason, preview, y; expiry moves and RENEWAL_EXTENDED is written" test_extend_renewal_date
e2e_run "key bar: in grace R comes right after ?" test_key_bar_order_in_grace
e2e_run "two changes at one instant: the later is listed first" test_same_instant_order
e2e_run "Esc and n cancel without writing" test_cancel_changes_nothing
e2e_run "a valid offer code is redeemed" test_valid_code
e2e_run "an invalid offer code is refused without writing" test_invalid_code
e2e_run "q typed in the code input is text" test_q_is_text_in_code_input
e2e_run "win-back offer accepted: active again" test_win_back
e2e_run "b resubscribes a lapsed customer after a preview" test_buy_resubscribe
e2e_run "external rewrites, a broken file and its fix show live" test_external_rewrite
e2e_run "an in-place write is seen" test_in_place_write
e2e_run "resize 150x40, 120x40, 40x12, 30x10 (too small), 80x24" test_resize
e2e_run "? lists every key, whole on a wide terminal" test_help_overlay
e2e_run "Enter shows the selected event whole; j steps to the next" test_event_detail
e2e_run "--ascii/--no-color, and LANG=C/NO_COLOR" test_ascii_and_no_colour
e2e_run "--read-only refuses changes and writes nothing" test_read_only
e2e_run "subdash alone opens a demo copy; Examples stay untouched" test_demo
e2e_run "q quits and restores the terminal" test_quit
e2e_run "Ctrl-C exits 130 with the terminal restored" test_ctrl_c
e2e_run "SIGTERM exits 143 with the terminal restored" test_sigterm
e2e_run "SIGHUP in a dialog exits 129 with the terminal restored" test_sighup
e2e_run "follows subdash simulate: grace, retry, then R recovers" test_follow_simulation
e2e_run "show: text and --json" test_show
e2e_run "show: exit 2 with one line naming file:line:col" test_show_errors
e2e_summary
