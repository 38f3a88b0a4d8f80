#!/usr/bin/env bash
# Every HTML report in a real browser: headless Chromium renders each at 390 px (a phone) and 1280
# px (a laptop), and the test asserts that nothing is wider than the window and that the report's
# summary (the element with id "verdict", else the first heading) is visible without scrolling.
# Screenshots go to OUT/screenshots. Exit 77 (skipped) when Chromium is not installed.
#
# usage: browser_test.sh MCP_HINTS REFERENCE_CLIENT SOURCE_DIR OUT
#        browser_test.sh --pages OUT PAGE.html...   (the same checks on the pages given)
set -euo pipefail
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: no Chromium on this machine (make test installs the Debian package chromium)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

reports=()
if [ "${1:-}" = "--pages" ]; then
  out=$2
  shift 2
  for page in "$@"; do
    name=$(basename "$page" .html)
    cp "$page" "$work/$name.html"
    reports+=("$name")
  done
else
  bin=$1 client=$2 source=$3 out=$4
  # The reports, from the bundled examples: a failing certification shows failing traces.
  "$bin" report "$source/examples/catalogs/bad-catalog.json" --format html --output "$work/safety-table.html" ||
    [ $? = 1 ]
  "$bin" vocab table --format html >"$work/crosswalk.html"
  "$bin" vocab trace --format html >"$work/traceability.html"
  "$bin" certify --client "$client --drop-propagation" --scenario propagation.sensitive-carried \
    --scenario confirm.spec-destructive --protocol 2025-11-25 --output "$work/certify" >/dev/null 2>&1 || [ $? = 1 ]
  cp "$work/certify/report.html" "$work/certification.html"
  # The host matrix of that report, given a host as certify --host names one.
  python3 -c 'import json, sys
report = json.load(open(sys.argv[1]))
report["host"] = {"name": "sample", "title": "Sample Host", "version": "1.0", "limits": "none"}
json.dump(report, open(sys.argv[2], "w"))' "$work/certify/results.json" "$work/host-report.json"
  "$bin" matrix "$work/host-report.json" --format html --output "$work/host-matrix.html"
  reports=(safety-table crosswalk traceability certification host-matrix)
fi
mkdir -p "$out/screenshots"

# Chromium's window is at least 500 px wide, so each report is shown in an iframe of the width
# under test; once loaded, the report posts its measures to the host page, which --dump-dom prints.
probe='<script>window.addEventListener("load",function(){var d=document.documentElement;
var v=document.getElementById("verdict")||document.querySelector("h1");var r=v.getBoundingClientRect();
parent.postMessage([d.scrollWidth,window.innerWidth,Math.ceil(r.bottom),window.innerHeight,d.scrollHeight].join(" "),"*");});</script>'

failures=0
for report in "${reports[@]}"; do
  sed "s#</body>#${probe//$'\n'/ }</body>#" "$work/$report.html" >"$work/$report.probe.html"
  for width in 390 1280; do
    for page in probe plain; do
      cat >"$work/$report-$width-$page.host.html" <<HOST
<!DOCTYPE html><html><body style="margin:0"><iframe src="$report$([ $page = probe ] && echo .probe || true).html"
 style="width:${width}px;height:900px;border:0;display:block"></iframe>
<script>window.addEventListener("message",function(e){document.body.setAttribute("data-measure",e.data);});</script>
</body></html>
HOST
    done
    window=$((width < 500 ? 500 : width))
    flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files
      --window-size="$window,900" --virtual-time-budget=3000)
    dom=$(timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$work/$report-$width-probe.host.html" 2>/dev/null)
    read -r scroll_width inner_width verdict_bottom inner_height scroll_height \
      < <(sed -n 's/.*data-measure="\([0-9 ]*\)".*/\1/p' <<<"$dom") || true
    if [ -z "${scroll_height:-}" ]; then
      echo "FAIL $report at $width px: the page did not report its measures"
      failures=$((failures + 1))
      continue
    fi
    timeout 60 "$browser" "${flags[@]}" --screenshot="$out/screenshots/$report-$width.png" \
      "file://$work/$report-$width-plain.host.html" >/dev/null 2>&1 || true
    verdict="ok"
    if [ "$scroll_width" -gt "$inner_width" ]; then
      verdict="FAIL: the page is $scroll_width px wide in a $inner_width px window"
      failures=$((failures + 1))
    elif [ "$verdict_bottom" -gt "$inner_height" ]; then
      verdict="FAIL: the summary ends at $verdict_bottom px, below the $inner_height px window"
      failures=$((failures + 1))
    fi
    echo "$report at $width px: page ${scroll_width}×${scroll_height} px, summary visible to $verdict_bottom px: $verdict"
  done
done
echo "screenshots: $out/screenshots"
[ "$failures" = 0 ]
