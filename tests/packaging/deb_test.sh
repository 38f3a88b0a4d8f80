#!/usr/bin/env bash
# cpack -G DEB builds mcp-hints_VERSION_ARCH.deb (the command and its data) and
# libmcp-hints-dev_VERSION_ARCH.deb (libraries, headers, CMake package); their control fields
# are checked, each is unpacked into a temporary root (dpkg-deb -x: no root needed), and the
# unpacked command runs from there.
#
# usage: deb_test.sh BUILD_DIR SOURCE_DIR WORK_DIR VERSION [SANITIZE_FLAGS] (as install_test.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/assert.sh"
build=$1 source=$2 work=$3 version=$4
command -v dpkg-deb >/dev/null || { echo "SKIPPED: no dpkg-deb on this machine"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
arch=$(dpkg --print-architecture)

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; echo "FAIL: cpack -G DEB"; exit 1; }
deb=$work/out/mcp-hints_${version}_$arch.deb
dev=$work/out/libmcp-hints-dev_${version}_$arch.deb
for file in "$deb" "$dev"; do
  [ -f "$file" ] || { ls "$work/out"; echo "FAIL: cpack made no $(basename "$file")"; exit 1; }
done

expect 0 "^mcp-hints\$" dpkg-deb -f "$deb" Package
expect 0 "^$version\$" dpkg-deb -f "$deb" Version
# Depends come from the shared libraries the command and its HTTP module link (shlibdeps):
# cpp-httplib is the module's; Boost, jemalloc and Nettle are linked in.
expect 0 "libcpp-httplib0\.[0-9.]+ \(>= [^)]+\)" dpkg-deb -f "$deb" Depends
if dpkg-deb -f "$deb" Depends | grep -E 'libboost|libjemalloc|libnettle'; then
  echo "FAIL: the command's package depends on a library the command links statically"
  exit 1
fi
expect 0 "@" dpkg-deb -f "$deb" Maintainer
expect 0 "^conformance suite and mock servers for MCP tool-safety hints\$" dpkg-deb -f "$deb" Description
expect 0 "^mcp-hints role libraries \(static\) and their CMake package\$" dpkg-deb -f "$dev" Description
expect 0 "^libmcp-hints-dev\$" dpkg-deb -f "$dev" Package
expect 0 "nlohmann-json3-dev" dpkg-deb -f "$dev" Depends
expect 0 "\./usr/bin/mcp-hints\$" dpkg-deb -c "$deb"
expect 0 "\./usr/lib/mcp-hints/mcp-hints-http\.so\$" dpkg-deb -c "$deb"
expect 0 "\./usr/lib/cmake/mcp_hints/mcp_hintsConfig\.cmake\$" dpkg-deb -c "$dev"
if dpkg-deb -c "$deb" | grep -E '\./usr/(include|lib)/.' | grep -v '\./usr/lib/mcp-hints/'; then
  echo "FAIL: the command's package holds the files above of the development package"
  exit 1
fi

root=$work/root
dpkg-deb -x "$deb" "$root"
# The command itself loads neither cpp-httplib nor OpenSSL: only its HTTP module does, when used.
if readelf -d "$root/usr/bin/mcp-hints" | grep NEEDED | grep -E 'httplib|libssl|libcrypto'; then
  echo "FAIL: the command needs the libraries above, which only its HTTP module is to load"
  exit 1
fi
dpkg-deb -x "$dev" "$root"
no_tree_paths "$root/usr/lib/cmake" "$source" "$build"
[ -n "${5:-}" ] || no_tree_paths "$root/usr/bin" "$source" "$build"
runs_anywhere "$root/usr/bin/mcp-hints" "$root/usr/share/doc/mcp-hints/examples/catalogs"
echo "PASS: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) and $(basename "$dev") ($(du -k "$dev" | cut -f1) KiB) built and run"
