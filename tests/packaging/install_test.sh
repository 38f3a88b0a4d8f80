#!/usr/bin/env bash
# cmake --install into a fresh prefix, then: the layout is the usual one, the CMake package names
# neither the source nor the build tree, the installed command works from anywhere, and a small
# project (tests/packaging/consumer) builds against the prefix with find_package(mcp_hints) and
# lints the installed example catalogs through mcp_hints::checks.
#
# usage: install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR VERSION CXX_COMPILER [SANITIZE_FLAGS]
# SANITIZE_FLAGS (a sanitizer build's): the consumer links with them, and the command is not
# searched for tree paths (the sanitizers' runtime data names every source file).
#        install_test.sh --no-tree-paths DIR PATH...   (the leak check alone, on DIR)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/assert.sh"
if [ "${1:-}" = "--no-tree-paths" ]; then
  shift
  no_tree_paths "$@"
  exit 0
fi
build=$1 source=$2 work=$3 version=$4 cxx=$5 sanitize=${6:-}
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for path in bin/mcp-hints lib/mcp-hints/mcp-hints-http.so share/mcp-hints/schemas/lint-report.schema.json \
  share/mcp-hints/schemas/protocol share/mcp-hints/scenarios/mock.basic.json \
  share/doc/mcp-hints/examples/catalogs/bad-catalog.json include/mcp_hints/json/version.hpp \
  include/mcp_hints/checks/lint.hpp lib/libmcp_hints_checks.a lib/cmake/mcp_hints/mcp_hintsConfig.cmake \
  lib/cmake/mcp_hints/mcp_hintsConfigVersion.cmake lib/cmake/mcp_hints/mcp_hints-targets.cmake; do
  [ -e "$prefix/$path" ] || { echo "FAIL: $path is not installed"; exit 1; }
done
for data in schemas scenarios; do
  want=$(find "$source/$data" -name '*.json' | wc -l)
  got=$(find "$prefix/share/mcp-hints/$data" -name '*.json' | wc -l)
  [ "$want" = "$got" ] || { echo "FAIL: $got of the $want $data files are installed"; exit 1; }
done
echo "ok: the layout ($(du -sk "$prefix" | cut -f1) KiB installed)"
no_tree_paths "$prefix/lib/cmake" "$source" "$build"
# The command reads no data from the source tree: it does not even name it.
[ -n "$sanitize" ] || no_tree_paths "$prefix/bin" "$source" "$build"
grep -q 'add_library(mcp_hints::checks STATIC IMPORTED)' "$prefix/lib/cmake/mcp_hints/mcp_hints-targets.cmake" ||
  { echo "FAIL: no imported target mcp_hints::checks"; exit 1; }

runs_anywhere "$prefix/bin/mcp-hints" "$prefix/share/doc/mcp-hints/examples/catalogs"

# The consumer: configured against the prefix only (no package registry), built, run.
cmake -S "$here/consumer" -B "$work/consumer" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXE_LINKER_FLAGS="$sanitize" >"$work/consumer.log" 2>&1 ||
  { cat "$work/consumer.log"; echo "FAIL: the consumer does not configure"; exit 1; }
grep -q "mcp_hints_DIR:PATH=$prefix/lib/cmake/mcp_hints" "$work/consumer/CMakeCache.txt" ||
  { echo "FAIL: the consumer found mcp_hints elsewhere than in $prefix"; exit 1; }
cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 ||
  { cat "$work/consumer.log"; echo "FAIL: the consumer does not build"; exit 1; }
examples=$prefix/share/doc/mcp-hints/examples/catalogs
expect 0 "^mcp_hints $version: [1-9][0-9]* tools, 0 findings\$" "$work/consumer/consumer" "$examples/good-catalog.json"
expect 0 "^[1-9][0-9]* built-in scenarios\$" "$work/consumer/consumer" "$examples/good-catalog.json"
expect 1 "^mcp_hints $version: [1-9][0-9]* tools, [1-9][0-9]* findings\$" "$work/consumer/consumer" "$examples/bad-catalog.json"
echo "PASS: installed, consumed by find_package(mcp_hints)"
