#!/usr/bin/env bash
# make demo: the main job on the bundled examples. A server author lints a saved tools/list:
# the good catalog passes, the bad one shows what each proposal's rules catch.
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

out="$(dirname "$bin")/../demo"
mkdir -p "$out"
"$bin" lint --format sarif --output "$out/bad-catalog.sarif" "$here/catalogs/bad-catalog.json"
"$bin" lint --format junit --output "$out/bad-catalog.junit.xml" "$here/catalogs/bad-catalog.json"
"$bin" lint --format json --output "$out/bad-catalog.json" "$here/catalogs/bad-catalog.json"
printf '\nReports of the bad catalog in SARIF, JUnit and JSON: %s\n' "$(cd "$out" && pwd)"

# The demo itself succeeds when the verdicts are the expected ones: 0 for good, 1 for bad.
if [ "$good" -ne 0 ] || [ "$bad" -ne 1 ]; then
  echo "demo: unexpected exit codes (good $good, bad $bad; expected 0 and 1)" >&2
  status=1
fi
exit $status
