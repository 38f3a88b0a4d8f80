#!/usr/bin/env bash
# Mock server benchmark: sequential tools/call round trips over stdio and Streamable HTTP against
# `mcp-hints mock`, next to the TypeScript SDK's McpServer with the same trivial tool, both driven
# by the same client (bench/mock_rpc, the mcp-hints client library); plus the time from spawn to
# the initialize answer and the server's peak RSS, and this machine's bare pipe ping-pong rate.
# Usage: bench/mock_rpc.sh BUILD_DIR   (make bench calls it)
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
driver="$build/bin/mock_rpc"
ours=("$build/bin/mcp-hints" mock --scenario "$root/bench/echo.scenario.json")
calls=${BENCH_CALLS:-5000}
field() { python3 -c "import json,sys; print(round(json.loads(sys.argv[1])[sys.argv[2]], 1))" "$1" "$2"; }

floor=$("$driver" 20000 floor)
echo
echo "mock server, $calls sequential tools/call round trips"
printf '  %-44s %12s %12s %10s\n' "" "calls/s" "startup ms" "RSS MiB"
printf '  %-44s %12s\n' "bare pipe ping-pong (this machine's ceiling)" "$(field "$floor" calls_per_second)"
for transport in stdio http; do
  extra=(); [ "$transport" = http ] && extra=(--transport http)
  r=$("$driver" "$calls" "$transport" -- "${ours[@]}" "${extra[@]}")
  printf '  %-44s %12s %12s %10s\n' "mcp-hints mock ($transport)" "$(field "$r" calls_per_second)" \
    "$(field "$r" startup_ms)" "$(python3 -c "print(round($(field "$r" peak_rss_kib)/1024, 1))")"
  if command -v node >/dev/null && [ -d "$root/node/node_modules/@modelcontextprotocol/sdk" ]; then
    s=$("$driver" "$calls" "$transport" -- node "$root/node/sdk_echo_server.mjs" "$transport")
    printf '  %-44s %12s %12s %10s\n' "TypeScript SDK McpServer ($transport)" "$(field "$s" calls_per_second)" \
      "$(field "$s" startup_ms)" "$(python3 -c "print(round($(field "$s" peak_rss_kib)/1024, 1))")"
    echo "  ratio ($transport): $(python3 -c "import json; print(round(json.loads('$r')['calls_per_second']/json.loads('$s')['calls_per_second'], 1))")x"
  fi
done
