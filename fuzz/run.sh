#!/usr/bin/env bash
# Runs each libFuzzer harness of BUILD (a -DMCP_HINTS_FUZZ=ON build) for SECONDS over its corpus
# (fuzz/corpus/NAME, read only; what the run finds goes to BUILD/fuzz-corpus/NAME) and prints
# executions and seconds per harness. A crash, hang, leak or sanitizer report fails the run; its
# input is left in BUILD/fuzz-artifacts/ and the log in BUILD/fuzz-logs/NAME.log.
# usage: fuzz/run.sh BUILD SECONDS [NAME ...]
set -u
build=${1:?usage: fuzz/run.sh BUILD SECONDS [NAME ...]}
seconds=${2:?usage: fuzz/run.sh BUILD SECONDS [NAME ...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for corpus in "$here"/corpus/*/; do names+=("$(basename "$corpus")"); done
fi
mkdir -p "$build/fuzz-logs" "$build/fuzz-artifacts"
failed=0
printf '%-18s %12s %8s  %s\n' harness executions seconds result
for name in "${names[@]}"; do
  bin="$build/bin/fuzz_$name"
  log="$build/fuzz-logs/$name.log"
  if [ ! -x "$bin" ]; then
    echo "fuzz: $bin is not built" >&2
    failed=1
    continue
  fi
  mkdir -p "$build/fuzz-corpus/$name"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-16/bin/llvm-symbolizer} \
    "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/fuzz-artifacts/$name-" "$build/fuzz-corpus/$name" "$here/corpus/$name" >"$log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  result=clean
  if [ $status -ne 0 ]; then
    result="FAILED (exit $status; see $log)"
    failed=1
  fi
  printf '%-18s %12s %8s  %s\n' "$name" "${runs:-?}" "${time:-?}" "$result"
done
exit $failed
