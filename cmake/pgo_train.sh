#!/usr/bin/env bash
# Trains an instrumented mcp-hints (the first step of make release, or of make build PGO=on;
# CMakeLists.txt: profile-guided optimization): runs the work the command is used for, so that
# its counts guide the optimized build. The clean generated catalogs use another seed and size
# than the benchmarks'; the catalog of findings (which has no random part) is the first 3,000
# tools of the kind they read 388,000 of.
#
# The work is weighted as it weighs for users: most of it is lint of large catalogs, and the other
# commands run a few times each. A training that also certified the reference client (a hundred
# short processes) kept a quarter of lint's gain: lint of 100,000 tools 5 % faster instead of 20 %.
# Code the training never runs is built as without a profile.
# Usage: pgo_train.sh BIN_DIR SOURCE_DIR WORK_DIR
#   BIN_DIR: the instrumented mcp-hints; WORK_DIR: scratch, emptied first.
set -euo pipefail
bin=$1 src=$2 work=$3
mh=$bin/mcp-hints
rm -rf "$work" && mkdir -p "$work"
mock_pid=
trap '[ -z "$mock_pid" ] || kill "$mock_pid" 2>/dev/null || true' EXIT

# run CODES COMMAND...: runs a command for its counts; it must end with one of CODES, digits (0
# pass, 1 findings, 2 bad input), else the build stops: a crash, or a step that trains nothing.
run() { run_from /dev/null "$@"; }
# run_from FILE CODES COMMAND...: run, with FILE on standard input.
run_from() {
  local file=$1 codes=$2 rc=0 shown
  shift 2
  "$@" <"$file" >/dev/null 2>"$work/stderr" || rc=$?
  shown="$*"
  [ "$file" = /dev/null ] || shown+=" < $file"
  if [[ ${#rc} -ne 1 || $codes != *"$rc"* ]]; then
    echo "pgo: '$shown' ended with status $rc (expected one of $codes): $(tail -n 1 "$work/stderr")" >&2
    exit 1
  fi
}

# Catalogs: generated ones of the benchmarks' shape, and the saved catalogs of the examples and
# tests (real servers' tools, hostile strings, the lint rules' negative fixtures).
python3 "$src/bench/generate_catalog.py" --seed 7 20000 "$work/catalog.json"
python3 "$src/bench/generate_catalog.py" --seed 11 2000 "$work/small.json"
python3 "$src/bench/generate_catalog.py" --all-findings 3000 "$work/findings.json"
saved=("$src/tests/fixtures/infer/real-tools.json" "$src/tests/fixtures/infer/catalog.json")
while IFS= read -r -d '' file; do saved+=("$file"); done < <(find "$src/examples/catalogs" "$src/tests/fixtures/lint" \
  "$src/tests/fixtures/terminal" -name '*.json' -print0)
((${#saved[@]} > 10)) || { echo "pgo: the saved catalogs are missing from $src" >&2; exit 1; }

# lint, on one thread and on two, from a file and from a pipe, in every format.
for jobs in 1 2; do
  run 01 "$mh" lint --jobs "$jobs" --format json "$work/catalog.json"
  run_from "$work/catalog.json" 01 "$mh" lint --jobs "$jobs" -
done
run 1 "$mh" lint --format json "$work/findings.json"
for format in sarif junit github; do
  run 1 "$mh" lint --format "$format" "$work/small.json" "$work/findings.json"
done
run 01 "$mh" lint "${saved[@]}"

# The commands that read one catalog.
run 01 "$mh" report "$work/small.json"
run 01 "$mh" report --format html "$src/tests/fixtures/infer/real-tools.json"
run 01 "$mh" translate "$work/findings.json" --to risk-metadata@sep-2793
run 01 "$mh" infer --all --format json "$work/small.json"

# check-server against mock servers: both eras over stdio, and Streamable HTTP with a call.
for protocol in auto 2025-11-25; do
  run 01 "$mh" check-server --observe 0 --protocol "$protocol" -- "$mh" mock --scenario mock.basic
done
"$mh" mock --scenario mock.basic --transport http --port 0 >"$work/mock-url" 2>/dev/null &
mock_pid=$!
for _ in $(seq 100); do
  [ -s "$work/mock-url" ] && break
  sleep 0.05
done
url=$(head -n 1 "$work/mock-url")
[ -n "$url" ] || { echo "pgo: the HTTP mock printed no URL" >&2; exit 1; }
run 01 "$mh" check-server --observe 0 --call 'read_file={"id": "a"}' --url "$url"
kill "$mock_pid" 2>/dev/null || true
wait "$mock_pid" 2>/dev/null || true
mock_pid=
