#!/usr/bin/env bash
# make demo: the main job on the bundled examples. A server author lints a saved tools/list (the
# good catalog passes, the bad one shows what each proposal's rules catch), then checks a live
# server (the sample server passes; its rug-pulling variant is caught) and prints a safety table.
# A spec editor reads the crosswalk. A client vendor certifies a client: the reference client
# passes every scenario; a variant that drops #711 propagation fails.
set -uo pipefail
bin=${1:-build/bin/mcp-hints}
here=$(cd "$(dirname "$0")" && pwd)
status=0

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step mcp-hints lint --list-checks
"$bin" lint --list-checks

step mcp-hints lint examples/catalogs/good-catalog.json
"$bin" lint "$here/catalogs/good-catalog.json"
good=$?
step mcp-hints lint examples/catalogs/bad-catalog.json
"$bin" lint "$here/catalogs/bad-catalog.json"
bad=$?

# Live: check-server starts the sample server, lists its tools, lints them, lists again, restarts
# it and compares; a misbehaving variant pulls the rug after its first listings.
server="$(dirname "$bin")/sample_server"
step mcp-hints check-server -- sample_server --catalog examples/catalogs/good-catalog.json
"$bin" check-server --observe 300ms -- "$server" --catalog "$here/catalogs/good-catalog.json"
live_good=$?
step mcp-hints check-server --strict -- sample_server --catalog examples/catalogs/good-catalog.json --misbehave rug-pull
"$bin" check-server --strict --observe 300ms -- "$server" --catalog "$here/catalogs/good-catalog.json" --misbehave rug-pull
live_bad=$?

out="$(dirname "$bin")/../demo"
mkdir -p "$out"

# Spec editors: the crosswalk of every vocabulary revision, and what changed from the action
# security seed to SEP-1913. Server authors: the safety table of a catalog.
step mcp-hints vocab table
"$bin" vocab table
vocab=$?
step mcp-hints vocab diff action-security@seed trust-annotations@sep-1913
"$bin" vocab diff action-security@seed trust-annotations@sep-1913
step mcp-hints report examples/catalogs/good-catalog.json
"$bin" report "$here/catalogs/good-catalog.json"
table=$?
"$bin" report --format html --output "$out/good-catalog.safety.html" "$here/catalogs/good-catalog.json"
"$bin" vocab table --format html > "$out/crosswalk.html"

# Client certification: every scenario against the reference client, then against a broken
# variant of it; each run writes results.json, junit.xml and report.html (with the wire logs).
client="$(dirname "$bin")/reference_client"
step mcp-hints certify --client reference_client
"$bin" certify --client "$client" --output "$out/certify-reference"
certified=$?
step mcp-hints certify --client 'reference_client --drop-propagation'
"$bin" certify --client "$client --drop-propagation" --output "$out/certify-drop-propagation"
broken=$?
printf '\nHTML reports: %s and %s; the crosswalk and a safety table: %s, %s\n' \
  "$(cd "$out" && pwd)/certify-reference/report.html" "$(cd "$out" && pwd)/certify-drop-propagation/report.html" \
  "$(cd "$out" && pwd)/crosswalk.html" "$(cd "$out" && pwd)/good-catalog.safety.html"

"$bin" lint --format sarif --output "$out/bad-catalog.sarif" "$here/catalogs/bad-catalog.json"
"$bin" lint --format junit --output "$out/bad-catalog.junit.xml" "$here/catalogs/bad-catalog.json"
"$bin" lint --format json --output "$out/bad-catalog.json" "$here/catalogs/bad-catalog.json"
printf '\nReports of the bad catalog in SARIF, JUnit and JSON: %s\n' "$(cd "$out" && pwd)"

# The demo itself succeeds when the verdicts are the expected ones: 0 for good, 1 for bad.
if [ "$good" -ne 0 ] || [ "$bad" -ne 1 ] || [ "$live_good" -ne 0 ] || [ "$live_bad" -ne 1 ] ||
   [ "$certified" -ne 0 ] || [ "$broken" -ne 1 ] || [ "$vocab" -ne 0 ] || [ "$table" -ne 0 ]; then
  echo "demo: unexpected exit codes (lint good $good, bad $bad; check-server good $live_good, rug pull $live_bad;" \
       "certify reference $certified, broken $broken; vocab table $vocab, report $table; expected 0, 1, 0, 1, 0, 1, 0, 0)" >&2
  status=1
fi
exit $status
