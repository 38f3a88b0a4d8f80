#!/usr/bin/env bash
# The profile's training (cmake/pgo_train.sh, make release's first step) stops the build on a step
# that crashes or answers with an exit code it does not expect (a usage error: a step that trains
# nothing), ends the HTTP mock it started when a later step fails, and runs to its end with the
# command as built, every step answering as the training expects and nothing left running.
# Usage: pgo_train_test.sh SOURCE_DIR BIN_DIR WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/assert.sh"
src=$1 bin=$2 work=$3
rm -rf "$work"
mkdir -p "$work/crashes" "$work/refuses" "$work/fails-over-http" "$work/built"

# stub DIR BODY: an mcp-hints in DIR that runs the shell BODY; every process it starts carries
# PGO_TEST_MARK, by which the processes it leaves behind are found.
stub() {
  printf '#!/bin/sh\nexport PGO_TEST_MARK=%s\n%s\n' "$work" "$2" >"$1/mcp-hints"
  chmod +x "$1/mcp-hints"
}
stub "$work/crashes" 'kill -SEGV $$'
stub "$work/refuses" 'echo "mcp-hints lint: unknown option --frobnicate" >&2; exit 2'
stub "$work/fails-over-http" "case \"\$*\" in *--url*) echo 'mcp-hints check-server: planted failure' >&2; exit 3;; esac
exec '$bin/mcp-hints' \"\$@\""
stub "$work/built" "exec '$bin/mcp-hints' \"\$@\""

# The processes still running that a stub started (read from /proc: no procps needed).
marked() {
  local environ
  for environ in /proc/[0-9]*/environ; do
    grep -qzxF "PGO_TEST_MARK=$work" "$environ" 2>/dev/null && echo "${environ%/environ}"
  done
  return 0
}
# trains DIR: the training with the stub of DIR; afterwards no process it started runs (the
# killed mock may take a moment to go).
trains() {
  local code=0 left
  bash "$src/cmake/pgo_train.sh" "$work/$1" "$src" "$work/scratch" || code=$?
  for _ in $(seq 50); do
    left=$(marked)
    [ -z "$left" ] && break
    sleep 0.1
  done
  if [ -n "$left" ]; then
    echo "left running: $left"
    # shellcheck disable=SC2086 # one PID a word
    kill ${left//\/proc\//} 2>/dev/null || true
    return 9
  fi
  return "$code"
}

expect 1 "^pgo: '.*/crashes/mcp-hints lint --jobs 1 --format json .*catalog\.json' ended with status 139 \(expected one of 01\)" \
  trains crashes
expect 1 "^pgo: '.*/refuses/mcp-hints lint .*' ended with status 2 \(expected one of 01\): mcp-hints lint: unknown option --frobnicate$" \
  trains refuses
expect 1 "^pgo: '.*/fails-over-http/mcp-hints check-server .*--url http://127\.0\.0\.1:[0-9]+/mcp' ended with status 3 \(expected one of 01\): mcp-hints check-server: planted failure$" \
  trains fails-over-http
expect 0 "" trains built
[ -s "$work/scratch/mock-url" ] || { echo "FAIL: the training with the command as built never reached its HTTP steps"; exit 1; }
echo "PASS: the training stops on a crash and on an exit code it does not expect, ends its mock when a later step fails, and runs to its end with the command as built"
