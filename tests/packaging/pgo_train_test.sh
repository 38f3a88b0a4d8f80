#!/usr/bin/env bash
# The profile's training (cmake/pgo_train.sh, make build's first step) stops the build on a step
# that crashes or answers with an exit code it does not expect (a usage error: a step that trains
# nothing), and passes with the command as built, every step answering as the training expects.
# Usage: pgo_train_test.sh SOURCE_DIR BIN_DIR WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/assert.sh"
src=$1 bin=$2 work=$3
rm -rf "$work"
mkdir -p "$work/crashes" "$work/refuses" "$work/built"

# stub DIR BODY: an mcp-hints in DIR that runs the shell BODY whatever it is asked.
stub() {
  printf '#!/bin/sh\n%s\n' "$2" >"$1/mcp-hints"
  chmod +x "$1/mcp-hints"
}
stub "$work/crashes" 'kill -SEGV $$'
stub "$work/refuses" 'echo "mcp-hints lint: unknown option --frobnicate" >&2; exit 2'
ln -s "$bin/mcp-hints" "$work/built/mcp-hints"

expect 1 "^pgo: '.*/crashes/mcp-hints lint --jobs 1 --format json .*catalog\.json' ended with status 139 \(expected one of 01\)" \
  bash "$src/cmake/pgo_train.sh" "$work/crashes" "$src" "$work/scratch"
expect 1 "^pgo: '.*/refuses/mcp-hints lint .*' ended with status 2 \(expected one of 01\): mcp-hints lint: unknown option --frobnicate$" \
  bash "$src/cmake/pgo_train.sh" "$work/refuses" "$src" "$work/scratch"
# The HTTP mock of the last steps wrote its URL and was ended: the run went to its end.
runs_to_its_end() {
  bash "$src/cmake/pgo_train.sh" "$work/built" "$src" "$work/scratch" && test -s "$work/scratch/mock-url" &&
    ! pgrep -f "$work/built/mcp-hints mock"
}
expect 0 "" runs_to_its_end
echo "PASS: the training stops on a crash and on an exit code it does not expect, and runs to its end with the command as built"
