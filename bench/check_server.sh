#!/usr/bin/env bash
# check-server benchmark: whole-process `mcp-hints check-server` against the project's sample
# server serving 3,300 tools, next to the official Inspector CLI listing the same server's tools.
# Usage: bench/check_server.sh BUILD_DIR   (make bench calls it)
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
work="$build/bench"
runs=${BENCH_RUNS:-5}
mkdir -p "$work"
catalog="$work/catalog-3300.json"
[ -f "$catalog" ] || python3 "$root/bench/generate_catalog.py" 3300 "$catalog"
server=("$build/bin/sample_server" --catalog "$catalog")

median() {  # median wall seconds of $runs runs of a command
  local times=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time.txt" -f '%e' "$@" >/dev/null 2>&1 || true
    times+=("$(tail -n 1 "$work/time.txt")")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

# Ours must be a real, clean run over every tool.
"$build/bin/mcp-hints" check-server --format json --observe 0 -- "${server[@]}" |
  python3 -c "import json,sys; r=json.load(sys.stdin); assert r['toolCount']==3300 and r['summary']['passed'], r['summary']"
ours=$(median "$build/bin/mcp-hints" check-server --format json --observe 0 -- "${server[@]}")
alone=$(median sh -c 'printf "%s\n" "$1" "$2" "$3" | "$4" --catalog "$5"' sh \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
  "$build/bin/sample_server" "$catalog")

inspector=$root/node/node_modules/.bin/mcp-inspector
if [ -x "$inspector" ]; then
  export PATH="$root/node/node_modules/.bin:$PATH"  # its pinned Node 22
  count=$("$inspector" --cli --method tools/list -- "${server[@]}" | python3 -c "import json,sys; print(len(json.load(sys.stdin)['tools']))")
  [ "$count" = 3300 ] || { echo "inspector listed $count tools" >&2; exit 1; }
  theirs=$(median "$inspector" --cli --method tools/list -- "${server[@]}")
  ratio=$(python3 -c "print(f'{$ours/$theirs:.2f}')")
else
  theirs="n/a (node/node_modules not installed)"; ratio=n/a
fi
echo
echo "check-server, 3,300 tools over stdio (median of $runs runs; --observe 0)"
printf '  %-58s %s s\n' "mcp-hints check-server (2 sessions, 3 listings, all checks)" "$ours" \
  "sample server alone (start, initialize, one listing)" "$alone" "Inspector CLI --method tools/list (1 listing)" "$theirs"
echo "  ratio mcp-hints / Inspector: $ratio"
