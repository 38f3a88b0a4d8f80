#!/usr/bin/env python3
"""Says why each test of the last ctest run skipped itself (make test): ctest only counts them.

Reads BUILD/Testing/Temporary/LastTest.log; each skipped GoogleTest prints "path:line: Skipped"
and its reason on the next lines, before "[  SKIPPED ]"."""
import re
import sys

log_path = f"{sys.argv[1] if len(sys.argv) > 1 else 'build'}/Testing/Temporary/LastTest.log"
try:
    log = open(log_path, encoding="utf-8", errors="replace").read()
except OSError:
    sys.exit(0)
skipped = []
for block in re.split(r"\n(?=\d+/\d+ Testing: )", log):
    header = re.match(r"\d+/\d+ Testing: (\S+)", block)
    if not header or "[  SKIPPED ]" not in block:
        continue
    reason = re.search(r": Skipped\n(.*?)\n\[  SKIPPED \]", block, re.S)
    skipped.append((header.group(1), " ".join(reason.group(1).split()) if reason else "no reason given"))
for name, reason in skipped:
    print(f"skipped: {name}: {reason}")
