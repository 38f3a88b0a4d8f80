#!/usr/bin/env bash
# Lint benchmark: whole-process `mcp-hints lint --format json` next to ajv 8 (Node) and Debian's
# python3-jsonschema doing the same schema validation on the same generated catalogs.
# Usage: bench/run.sh BUILD_DIR   (make bench calls it; figures go to stdout)
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$build/bin/mcp-hints"
work="$build/bench"
runs=${BENCH_RUNS:-3}
mkdir -p "$work"

# Median wall time (s) and the largest peak RSS (KiB) of $runs runs of a command.
measure() {
  local times=() rss=0 line
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time.txt" -f '%e %M' "$@" >/dev/null 2>/dev/null || true
    line=$(tail -n 1 "$work/time.txt")
    times+=("${line% *}")
    (( ${line#* } > rss )) && rss=${line#* }
  done
  printf '%s %s\n' "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" "$rss"
}

have_node=0
if command -v node >/dev/null && [ -d "$root/node/node_modules/ajv" ]; then have_node=1; fi
have_python=0
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then have_python=1; fi

printf '%-10s %10s | %-22s | %-22s | %-22s | %s\n' catalog size "mcp-hints s / RSS MiB" "ajv s / RSS MiB" "jsonschema s / RSS MiB" "ratios (time)"
for n in 3300 100000; do
  file="$work/catalog-$n.json"
  [ -f "$file" ] || python3 "$root/bench/generate_catalog.py" "$n" "$file"
  size=$(stat -c %s "$file")
  # The run must be a real, clean lint of every tool.
  "$bin" lint --format json "$file" | python3 -c "import json,sys; r=json.load(sys.stdin); assert r['toolCount']==$n and r['summary']['error']==0, r['summary']"
  read -r t_ours rss_ours < <(measure "$bin" lint --format json "$file")
  t_ajv=- rss_ajv=0 t_py=- rss_py=0
  if [ $have_node = 1 ]; then read -r t_ajv rss_ajv < <(NODE_PATH="$root/node/node_modules" measure node "$root/bench/ajv_lint.js" "$root/schemas" "$file"); fi
  if [ $have_python = 1 ]; then read -r t_py rss_py < <(measure /usr/bin/python3 "$root/bench/jsonschema_lint.py" "$root/schemas" "$file"); fi
  ratio() { [ "$2" = - ] && echo n/a || python3 -c "print(f'{$1/$2:.2f}')"; }
  mib() { python3 -c "print(f'{$1/1024:.1f}')"; }
  printf '%-10s %9.1fM | %8s / %-11s | %8s / %-11s | %8s / %-11s | ours/ajv %s, ours/jsonschema %s, RSS/input %s\n' \
    "$n" "$(python3 -c "print($size/1048576)")" "$t_ours" "$(mib "$rss_ours")" "$t_ajv" "$(mib "$rss_ajv")" \
    "$t_py" "$(mib "$rss_py")" "$(ratio "$t_ours" "$t_ajv")" "$(ratio "$t_ours" "$t_py")" \
    "$(python3 -c "print(f'{$rss_ours*1024/$size:.2f}')")"
done
[ $have_node = 1 ] || echo "note: node or node/node_modules/ajv missing: no ajv column"
[ $have_python = 1 ] || echo "note: Debian's python3-jsonschema missing: no jsonschema column"
