#!/usr/bin/env bash
# Protocol schema benchmark: the memory of compiling every definition of every bundled MCP
# revision, and the time to check 10,000 tools/list results of 50 tools each per revision.
# Usage: bench/protocol_schema.sh BUILD_DIR   (make bench calls it)
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
echo
echo "protocol schemas (schemas/protocol/)"
"$build/bin/protocol_schema_bench" "$root" "${BENCH_RESULTS:-10000}" | sed 's/^/  /'
