#!/usr/bin/env bash
# The team store: `subdash db import` puts a directory in PostgreSQL, `subdash --db URL` lists it
# and follows it live (LISTEN/NOTIFY through a private mirror), `subdash list --db` for scripts,
# `subdash db export` gives the files back byte for byte. Needs SUBDASH_TEST_DB (the server that
# .ci/run starts with scripts/postgres-test-server.sh); without it the script says so and fails.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DIR="$E2E_TMP/team"
DB_NAME="subdash_e2e_$$"

database_url() {
  [[ -n "${SUBDASH_TEST_DB:-}" ]] || { echo "database.e2e: SUBDASH_TEST_DB is not set (scripts/postgres-test-server.sh start)" >&2; return 1; }
  echo "${SUBDASH_TEST_DB%/*}/$DB_NAME"
}

fresh_database() {
  local server=${SUBDASH_TEST_DB%/*}
  psql "$server/postgres" -qAtc "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null 2>&1
  psql "$server/postgres" -qAtc "CREATE DATABASE $DB_NAME" >/dev/null
  rm -rf "$DIR"
  mkdir -p "$DIR"
  cp "$E2E_ROOT"/Examples/*.json "$E2E_ROOT"/Examples/*.storekit "$DIR/"
  N=$(find "$DIR" -maxdepth 1 -name '*.json' | wc -l)
}

test_import_list_follow_export() {
  local url
  url=$(database_url) || return 1
  fresh_database
  "$SUBDASH_BIN" db import "$DIR" --db "$url" | grep -qF "stored $N subscribers and 1 catalog"
  # Scripts: the same lines as `subdash list DIR`.
  "$SUBDASH_BIN" list --db "$url" --filter status:grace >"$E2E_TMP/db-list.txt"
  grep -qF "(2 of $N shown)" "$E2E_TMP/db-list.txt"
  # The list follows the database: another agent's import shows without a key press.
  e2e_start dblist 120 30 "$SUBDASH_BIN" --db "$url"
  e2e_wait_for "$N of $N shown"
  e2e_refute_screen "[read-only]"
  e2e_assert_screen "postgres://postgres@127.0.0.1"
  sed -e 's/2000000871234560/2000000999999999/g' "$DIR/active.json" >"$E2E_TMP/active.json"
  mkdir -p "$E2E_TMP/update" && mv "$E2E_TMP/active.json" "$E2E_TMP/update/active.json"
  cp "$DIR"/*.storekit "$E2E_TMP/update/"
  "$SUBDASH_BIN" db import "$E2E_TMP/update" --db "$url" >/dev/null
  e2e_wait_for "2000000999999999"
  e2e_refute_screen "2000000871234560"
  e2e_type q
  e2e_wait_exit 0
  # Export gives the files back: the changed one as changed, every other byte for byte. A Retention
  # Messaging configuration already in the target, which the database does not hold, is left and
  # named (a later import would store it as if it were the database's).
  mkdir -p "$E2E_TMP/exported" && (umask 077 && echo '{}' >"$E2E_TMP/exported/.retention-messaging.json")
  "$SUBDASH_BIN" db export "$E2E_TMP/exported" --db "$url" 2>"$E2E_TMP/export.err" >/dev/null
  grep -qF "exported/.retention-messaging.json: left as it was; the database holds no Retention Messaging configuration" "$E2E_TMP/export.err"
  [[ "$(cat "$E2E_TMP/exported/.retention-messaging.json")" == "{}" ]]
  cmp "$E2E_TMP/update/active.json" "$E2E_TMP/exported/active.json"
  cmp "$DIR/grace-period.json" "$E2E_TMP/exported/grace-period.json"
  # The mirror cleaned up after itself.
  ! ls -d "${TMPDIR:-/tmp}"/subdash-db-* >/dev/null 2>&1 || [[ -z $(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'subdash-db-*' -newer "$DIR") ]]
}

# A support agent's key on a subscriber of the team database: the dashboard opened from the list
# turns auto-renew on, the row holds it (with its notification) and the screen shows it; with
# --read-only the same key is refused and the row is untouched.
test_a_key_on_a_database_subscriber() {
  local url
  url=$(database_url) || return 1
  fresh_database
  "$SUBDASH_BIN" db import "$DIR" --db "$url" >/dev/null
  e2e_start dbkey 140 40 "$SUBDASH_BIN" --db "$url"
  e2e_wait_for "$N of $N shown"
  e2e_type "/2000000754102288"
  e2e_wait_for "1 of $N shown"
  e2e_keys Enter Enter
  e2e_wait_for "auto-renew off"
  e2e_type a
  e2e_wait_for "Turn auto-renew on"
  e2e_type y
  e2e_wait_for "AUTO_RENEW_ENABLED"
  e2e_wait_for "renews on 2026-06-02"
  e2e_type q
  e2e_wait_for "[subscribers]"
  e2e_type q
  e2e_wait_exit 0
  "$SUBDASH_BIN" db export "$E2E_TMP/after-key" --db "$url" >/dev/null
  grep -qF '"autoRenewStatus": 1' "$E2E_TMP/after-key/auto-renew-off.json"
  # The history, inline in the document (a young subscriber's) or in its journal.
  grep -qsF 'AUTO_RENEW_ENABLED' "$E2E_TMP/after-key/auto-renew-off.json" "$E2E_TMP/after-key/auto-renew-off.journal.jsonl"
  # Read-only: the key is refused and nothing is written.
  e2e_start dbro 140 40 "$SUBDASH_BIN" --read-only --db "$url"
  e2e_wait_for "[read-only]"
  e2e_type "/2000000754102288"
  e2e_wait_for "1 of $N shown"
  e2e_keys Enter Enter
  e2e_wait_for "renews on 2026-06-02"
  e2e_type a
  e2e_wait_for "disabled (started with --read-only)"
  e2e_type q
  e2e_wait_for "[subscribers]"
  e2e_type q
  e2e_wait_exit 0
  "$SUBDASH_BIN" db export "$E2E_TMP/after-ro" --db "$url" >/dev/null
  cmp "$E2E_TMP/after-key/auto-renew-off.json" "$E2E_TMP/after-ro/auto-renew-off.json"
}

# Support's shortcut: one subscriber of the database by its originalTransactionId, no list; a key
# is written to its row; an id nobody has is one line and exit 2.
test_one_subscriber_of_the_database_by_id() {
  local url code=0
  url=$(database_url) || return 1
  fresh_database
  "$SUBDASH_BIN" db import "$DIR" --db "$url" >/dev/null
  e2e_start dbone 140 40 "$SUBDASH_BIN" --db "$url" 2000000754102288
  e2e_wait_for "originalTransactionId 2000000754102288"
  e2e_assert_screen "auto-renew-off.json (postgres://postgres@127.0.0.1"
  e2e_type a
  e2e_wait_for "Turn auto-renew on"
  e2e_type y
  e2e_wait_for "renews on 2026-06-02"
  e2e_type q
  e2e_wait_exit 0
  "$SUBDASH_BIN" db export "$E2E_TMP/after-one" --db "$url" >/dev/null
  grep -qF '"autoRenewStatus": 1' "$E2E_TMP/after-one/auto-renew-off.json"
  "$SUBDASH_BIN" --db "$url" 123 2>"$E2E_TMP/none.txt" || code=$?
  [[ $code == 2 && $(wc -l <"$E2E_TMP/none.txt") == 1 ]] && grep -qF "no subscriber named 123" "$E2E_TMP/none.txt"
}

test_a_bad_database_is_one_line() {
  local url code=0
  url=$(database_url) || return 1
  "$SUBDASH_BIN" list --db "${url%/*}/no_such_db_$$" 2>"$E2E_TMP/err.txt" >/dev/null || code=$?
  [[ $code == 1 ]] && grep -qF "database \"no_such_db_$$\" does not exist" "$E2E_TMP/err.txt" && [[ $(wc -l <"$E2E_TMP/err.txt") == 1 ]]
}

# A population in the database: made, advanced a year and stored back; an open list follows it,
# and a second run advances the same subscribers rather than making new ones.
test_population_in_the_database() {
  local url
  url=$(database_url) || return 1
  fresh_database
  local leftovers_before
  leftovers_before=$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'subdash-population-*' | wc -l)
  e2e_start dbpop 120 30 "$SUBDASH_BIN" --db "$url"
  e2e_wait_for "0 of 0 shown"
  "$SUBDASH_BIN" simulate --population 30 --seed 4 --months 3 --db "$url" >"$E2E_TMP/pop1.txt"
  grep -qF "created 30 subscribers" "$E2E_TMP/pop1.txt"
  grep -qF "stored 30 subscribers in" "$E2E_TMP/pop1.txt"
  e2e_wait_for "30 of 30 shown"
  e2e_type q
  e2e_wait_exit 0
  "$SUBDASH_BIN" simulate --population 30 --months 1 --db "$url" >"$E2E_TMP/pop2.txt"
  ! grep -qF "created" "$E2E_TMP/pop2.txt"
  grep -qF "30 subscribers advanced; 30 subscriber-months" "$E2E_TMP/pop2.txt"
  "$SUBDASH_BIN" list --db "$url" | grep -qF "(30 of 30 shown)"
  # Neither run left its private directory behind.
  [[ $(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'subdash-population-*' | wc -l) == "$leftovers_before" ]]
}

# The cancel flow over the database: the Retention Messaging configuration `serve --db` keeps in
# the database (stored here as serve --db stores it) reaches the dashboard. Its realtime URL does
# not answer (nothing listens on port 9), so the customer sees the default message, then cancels.
test_the_cancel_flow_reads_the_database_configuration() {
  local url
  url=$(database_url) || return 1
  fresh_database
  "$SUBDASH_BIN" db import "$DIR" --db "$url" >/dev/null
  psql "$url" -qAtc "INSERT INTO subdash_configuration (name, document, version) VALUES ('retention-messaging', convert_to(\$doc\$
{\"messages\": [{\"messageIdentifier\": \"33333333-3333-4333-8333-333333333333\", \"message\": {\"header\": \"Before you go\", \"body\": \"Birds are back in spring.\"}}],
 \"defaults\": [{\"key\": \"pass.family.monthly/en-US\", \"messageIdentifier\": \"33333333-3333-4333-8333-333333333333\"}],
 \"realtimeURL\": \"http://127.0.0.1:9/retention\"}\$doc\$, 'UTF8'), 1)" >/dev/null
  e2e_start dbretention 120 32 "$SUBDASH_BIN" --db "$url" 2000000871234560
  e2e_wait_for "? help"
  e2e_type a
  e2e_wait_for "Before you go"
  e2e_assert_screen "Birds are back in spring."
  e2e_cancel_on_the_cancel_page_and_quit
  "$SUBDASH_BIN" db export "$E2E_TMP/after-cancel" --db "$url" >/dev/null
  [[ "$(jq -r .subscriber.renewalInfo.autoRenewStatus "$E2E_TMP/after-cancel/active.json")" == 0 ]]
}

# A team moves a `serve DIR` directory into the database and back: the Retention Messaging
# configuration serve kept beside the state files moves with them. The dashboard over --db shows
# its default message; export writes the same bytes back, private.
test_a_serve_directorys_configuration_moves_with_it() {
  local url
  url=$(database_url) || return 1
  fresh_database
  (umask 077 && cat >"$DIR/.retention-messaging.json" <<'JSON'
{"messages": [{"messageIdentifier": "44444444-4444-4444-8444-444444444444", "message": {"header": "Stay for the owls", "body": "Night birds arrive in May."}}],
 "defaults": [{"key": "pass.family.monthly/en-US", "messageIdentifier": "44444444-4444-4444-8444-444444444444"}],
 "realtimeURL": "http://127.0.0.1:9/retention"}
JSON
  )
  "$SUBDASH_BIN" db import "$DIR" --db "$url" | grep -qF "stored $N subscribers and 1 catalog, and the Retention Messaging configuration, from"
  e2e_start dbmoved 120 32 "$SUBDASH_BIN" --db "$url" 2000000871234560
  e2e_wait_for "? help"
  e2e_type a
  e2e_wait_for "Stay for the owls"
  e2e_assert_screen "Night birds arrive in May."
  e2e_cancel_on_the_cancel_page_and_quit
  "$SUBDASH_BIN" db export "$E2E_TMP/moved" --db "$url" | grep -qF "and the Retention Messaging configuration from"
  cmp "$DIR/.retention-messaging.json" "$E2E_TMP/moved/.retention-messaging.json"
  [[ "$(stat -c %a "$E2E_TMP/moved/.retention-messaging.json")" == 600 ]]
}

e2e_run "db import, list --db, the list following the database live, and db export byte for byte" test_import_list_follow_export
e2e_run "a dashboard key on a database subscriber is stored in its row; --read-only refuses it" test_a_key_on_a_database_subscriber
e2e_run "subdash --db URL ID opens that subscriber; its key is stored in the row; an unknown id is one line" test_one_subscriber_of_the_database_by_id
e2e_run "a database that does not exist is one line and exit 1" test_a_bad_database_is_one_line
e2e_run "simulate --population --db makes, advances and stores a population an open list follows" test_population_in_the_database
e2e_run "db import brings a serve directory's Retention Messaging configuration; db export writes it back" test_a_serve_directorys_configuration_moves_with_it
e2e_run "over --db, going to cancel shows the default message the database's Retention configuration names" test_the_cancel_flow_reads_the_database_configuration
psql "${SUBDASH_TEST_DB%/*}/postgres" -qAtc "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null 2>&1 || true
e2e_summary
