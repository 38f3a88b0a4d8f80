#!/usr/bin/env bash
# make demo: the main job on the bundled examples. A server author lints a saved tools/list (the
# good catalog passes, the bad one shows what each proposal's rules catch), then checks a live
# server (the sample server passes; its rug-pulling variant is caught) and prints a safety table.
# A spec editor reads the crosswalk. A client vendor certifies a client: the reference client
# passes every scenario; a variant that answers input requests without the user fails. Each step says
# the exit code it expects, and the last line whether every one came out so.
set -uo pipefail
bin=${1:-build/bin/mcp-hints}
here=$(cd "$(dirname "$0")" && pwd)
status=0

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

# Each verdict the demo shows is expected: a step says which exit code it expects and why, and is
# told apart on its last line as expected or not.
expected=0
unexpected=()
verdict() {  # verdict WHAT GOT WANT WHY
  if [ "$2" -eq "$3" ]; then
    printf '\033[2m-> exit %s, as expected: %s\033[0m\n' "$2" "$4"
    expected=$((expected + 1))
  else
    printf '\033[31m-> exit %s, but %s was expected: %s\033[0m\n' "$2" "$3" "$4"
    unexpected+=("$1 (exit $2, expected $3)")
  fi
}

echo "mcp-hints demo: $("$bin" lint --list-checks --format json | grep -c '"id"') checks (mcp-hints lint --list-checks lists them)." \
  "Some steps below are meant to fail: each says which exit code it expects."

step mcp-hints lint examples/catalogs/good-catalog.json
"$bin" lint "$here/catalogs/good-catalog.json"
verdict "lint good" $? 0 "a catalog whose hints agree"
step mcp-hints lint examples/catalogs/bad-catalog.json
"$bin" lint "$here/catalogs/bad-catalog.json"
verdict "lint bad" $? 1 "the bad catalog's findings are the point: what each proposal's rules catch"

# Live: check-server starts the sample server, lists its tools, lints them, lists again, restarts
# it and compares; a misbehaving variant pulls the rug after its first listings.
server="$(dirname "$bin")/sample_server"
step mcp-hints check-server -- sample_server --catalog examples/catalogs/good-catalog.json
"$bin" check-server --observe 300ms -- "$server" --catalog "$here/catalogs/good-catalog.json"
verdict "check-server" $? 0 "a live server that keeps its hints"
step mcp-hints check-server --strict -- sample_server --catalog examples/catalogs/good-catalog.json --misbehave rug-pull
"$bin" check-server --strict --observe 300ms -- "$server" --catalog "$here/catalogs/good-catalog.json" --misbehave rug-pull
verdict "check-server rug pull" $? 1 "the server weakens a tool's hints after its first listings"

out="$(dirname "$bin")/../demo"
mkdir -p "$out"

# Spec editors: the crosswalk of every vocabulary revision, and what changed from the action
# security seed to SEP-1913. Server authors: the safety table of a catalog.
step mcp-hints vocab list
"$bin" vocab list
verdict "vocab list" $? 0 "every vocabulary revision the crosswalk knows"
step mcp-hints vocab diff action-security@seed trust-annotations@sep-1913
"$bin" vocab diff action-security@seed trust-annotations@sep-1913
verdict "vocab diff" $? 0 "what changed from one revision to the next"
"$bin" report --format html --output "$out/good-catalog.safety.html" "$here/catalogs/good-catalog.json"
verdict "report" $? 0 "the safety table of the good catalog, as HTML"
"$bin" vocab table --format html > "$out/crosswalk.html"

# Client certification: every scenario against the reference client, then against a broken
# variant of it; each run writes results.json, junit.xml and report.html (with the wire logs).
client="$(dirname "$bin")/reference_client"
step mcp-hints certify --client reference_client
"$bin" certify --client "$client" --output "$out/certify-reference"
verdict "certify reference" $? 0 "the reference client honours every scenario"
step mcp-hints certify --client 'reference_client --auto-answer-input'
"$bin" certify --client "$client --auto-answer-input" --output "$out/certify-auto-answer-input"
verdict "certify broken" $? 1 "this variant answers a server's input requests itself, never showing the user: a MUST it breaks"
printf '\nHTML reports: %s and %s; the crosswalk and a safety table: %s, %s\n' \
  "$(cd "$out" && pwd)/certify-reference/report.html" "$(cd "$out" && pwd)/certify-auto-answer-input/report.html" \
  "$(cd "$out" && pwd)/crosswalk.html" "$(cd "$out" && pwd)/good-catalog.safety.html"

"$bin" lint --format sarif --output "$out/bad-catalog.sarif" "$here/catalogs/bad-catalog.json"
"$bin" lint --format junit --output "$out/bad-catalog.junit.xml" "$here/catalogs/bad-catalog.json"
"$bin" lint --format json --output "$out/bad-catalog.json" "$here/catalogs/bad-catalog.json"
printf '\nReports of the bad catalog in SARIF, JUnit and JSON: %s\n' "$(cd "$out" && pwd)"

# The demo itself succeeds when every verdict is the expected one.
if [ ${#unexpected[@]} -eq 0 ]; then
  printf '\ndemo: all %s verdicts came out as expected (the failures shown are the ones meant to fail).\n' "$expected"
else
  printf '\ndemo: %s verdict(s) not as expected: %s\n' "${#unexpected[@]}" "${unexpected[*]}" >&2
  status=1
fi
exit $status
