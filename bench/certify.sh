#!/usr/bin/env bash
# Certification benchmark: the whole scenario set against the reference client (whole-process
# wall time, stdio and http, median of three), next to the official conformance suite's
# `client --suite core` (pinned in node/package-lock.json) driving a minimal SDK client
# (node/official_suite_client.mjs; the suite's own example client is not on npm).
# Usage: bench/certify.sh BUILD_DIR   (make bench calls it)
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -n | sed -n 2p; }
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); python3 -c "print(round($e-$s, 3))"; }

count=$("$build/bin/mcp-hints" certify --list | grep -c '^[a-z]')
echo
echo "client certification, the whole set ($count scenarios) against the reference client"
printf '  %-58s %10s %14s\n' "" "wall s" "s / scenario"
for transport in stdio http; do
  t=$(for i in 1 2 3; do seconds "$build/bin/mcp-hints" certify --client "$build/bin/reference_client" \
        --transport "$transport" --output "$work/ours"; done | median)
  printf '  %-58s %10s %14s\n' "mcp-hints certify --all ($transport)" "$t" "$(python3 -c "print(round($t/$count, 4))")"
done
bin="$root/node/node_modules/.bin"
if [ -x "$bin/conformance" ] && [ -x "$bin/node" ]; then
  export PATH="$bin:$PATH"  # the suite needs Node 22, pinned beside it
  official=$(conformance list 2>/dev/null | sed -n '/Client scenarios/,$p' | grep -c '^  - ' || true)
  core_out="$work/core"
  t=$(for i in 1 2 3; do seconds conformance client --command "node $root/node/official_suite_client.mjs" \
        --suite core -o "$core_out"; done | median)
  core=$(find "$core_out" -name checks.json | sed 's|/[^/]*$||' | sort -u | wc -l)
  core=$((core / 3))
  printf '  %-58s %10s %14s\n' "official suite client --suite core ($core scenarios, parallel)" "$t" \
    "$(python3 -c "print(round($t/max($core,1), 4))")"
  for scenario in initialize tools_call; do
    t=$(for i in 1 2 3; do seconds conformance client --command "node $root/node/official_suite_client.mjs" \
          --scenario "$scenario" -o "$work/one"; done | median)
    printf '  %-58s %10s %14s\n' "official suite client --scenario $scenario" "$t" "$t"
  done
  echo "  ($official client scenarios in the official suite)"
else
  echo "  official conformance suite: not installed (make deps installs it when npm is present)"
fi
