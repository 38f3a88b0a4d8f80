#!/usr/bin/env bash
# make release's two folders meet: the instrumented build names an object's counts from its build
# folder down, whatever the checkout's path and the generator, and the guided build's configure
# and compile look for that same name. Every folder is reached through a symbolic link, as in a
# checkout behind one, and built four sources to a unit as make release builds it; one object of
# each folder is built (the json library's last unit, its smallest), without optimization (names
# do not depend on it).
# A new training builds it again, and the guided configure refuses a profile named otherwise. The
# control: the same compile without the project's launcher, its $PWD naming the folder through the
# link (as make's generator compiles, or Ninja started in the folder), is caught: its counts are
# named from the root down.
# Usage: pgo_names_test.sh SOURCE_DIR WORK_DIR VALIJSON_INCLUDE_DIR CXX_COMPILER
set -euo pipefail
export LC_ALL=C  # GCC quotes with plain apostrophes
# Nothing a developer's environment adds to a configure, here or when a build configures again: a
# compiler launcher such as ccache, coloured diagnostics, flags.
unset CMAKE_CXX_COMPILER_LAUNCHER CMAKE_COLOR_DIAGNOSTICS CXXFLAGS
src=$1 work=$2 valijson=$3 compiler=$4
rm -rf "$work"
mkdir -p "$work/real"
ln -s real "$work/link"
tree=$work/link
library=core/json/CMakeFiles/mcp_hints_json.dir

fail() {
  echo "FAIL: $*"
  exit 1
}
# configure GENERATOR FOLDER ARGS...: a folder under the link, its libraries built as make
# release's.
configure() {
  local generator=$1 folder=$2
  shift 2
  (cd "$tree" && cmake -S "$src" -B "$folder" -G "$generator" -DVALIJSON_INCLUDE_DIR="$valijson" \
    -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_BUILD_TYPE=None -DMCP_HINTS_UNITY_LIBRARIES=ON "$@") \
    >"$work/$folder.log" 2>&1
}
# build_object GENERATOR FOLDER: the one object ($unit), built as the generator builds it (make's
# folder first checks its build system, as a whole build does).
build_object() {
  if [ "$1" = Ninja ]; then
    (cd "$tree" && cmake --build "$2" --target "$library/Unity/$unit.o")
  else
    make -C "$tree/$2" cmake_check_build_system && make -C "$tree/$2/core/json" "Unity/$unit.o"
  fi
}
# counts_name OBJECT PROFILE: the name of the counts the instrumented OBJECT writes into PROFILE
# (a string of the object's, ended by a NUL).
counts_name() {
  local line
  line=$(tr '\0' '\n' <"$1" | grep -aF -m1 -- "$2/") || true
  printf '%s' "${line#*"$2/"}"
}

for generator in Ninja "Unix Makefiles"; do
  g=${generator// /-}
  configure "$generator" "instrumented-$g" -DMCP_HINTS_PROFILE_GENERATE="$tree/profile-$g" ||
    fail "$generator: configuring the instrumented folder failed ($work/instrumented-$g.log)"
  unit=$( (ls "$tree/instrumented-$g/$library/Unity" 2>/dev/null || true) | sort -V | tail -1)
  [[ "$unit" == unity_*_cxx.cxx ]] || fail "$generator: no unit of the json library in $library/Unity"
  object=$library/Unity/$unit.o
  expected=${library//\//#}#Unity#$unit.gcda
  build_object "$generator" "instrumented-$g" >"$work/instrumented-$g.build.log" 2>&1 ||
    fail "$generator: building $object failed ($work/instrumented-$g.build.log)"
  name=$(counts_name "$tree/instrumented-$g/$object" "$tree/profile-$g")
  [ "$name" = "$expected" ] || fail "$generator: the instrumented object writes '$name', not '$expected'"
  echo "ok: $generator: the instrumented object writes $name"
  # A training's counts of that name (not counts: GCC says so when it opens them).
  mkdir -p "$tree/profile-$g"
  printf 'not counts' >"$tree/profile-$g/$name"
  touch "$tree/profile-$g/trained"
  configure "$generator" "guided-$g" -DMCP_HINTS_PROFILE_USE="$tree/profile-$g" ||
    fail "$generator: the guided folder's configure refused the training:" \
      "$(grep -m1 -A2 'CMake Error' "$work/guided-$g.log")"
  out=$(build_object "$generator" "guided-$g" 2>&1) || fail "$generator: building the guided $object failed: $out"
  grep -qF "profile-$g/$expected' is not a gcov data file" <<<"$out" ||
    fail "$generator: the guided object did not look for $expected: $out"
  echo "ok: $generator: the guided folder's configure takes the training and its object reads $expected"
  # A new training (its file newer) builds the guided object again, with nothing but a build asked.
  touch -d "@$(($(date +%s) + 2))" "$tree/profile-$g/trained"
  out=$(build_object "$generator" "guided-$g" 2>&1) || fail "$generator: building after a new training failed: $out"
  grep -qF "profile-$g/$expected' is not a gcov data file" <<<"$out" ||
    fail "$generator: after a new training the guided object was not built again: $out"
  echo "ok: $generator: a new training builds the guided object again"
done

# The guided configure refuses a training whose counts are named otherwise (from the root down).
mkdir -p "$tree/profile-elsewhere"
printf 'not counts' >"$tree/profile-elsewhere/#elsewhere#$expected"
touch "$tree/profile-elsewhere/trained"
! configure Ninja guided-elsewhere -DMCP_HINTS_PROFILE_USE="$tree/profile-elsewhere" ||
  fail "the guided configure took a training whose counts are named from the root down"
grep -q "no complete training" "$work/guided-elsewhere.log" ||
  fail "the guided configure refused the training without saying why: $(cat "$work/guided-elsewhere.log")"
echo "ok: the guided configure refuses a training whose counts are named from the root down"

# The control: the Ninja folder's compile without the launcher, from the folder's linked path.
command=$(cd "$tree/instrumented-Ninja" && ninja -t commands "$object" | tail -1)
[[ "$command" == "env -u PWD "* ]] || fail "the guided compile does not start with env -u PWD: $command"
rm "$tree/instrumented-Ninja/$object"
(cd "$tree/instrumented-Ninja" && eval "${command#env -u PWD }") 2>"$work/control.log"
name=$(counts_name "$tree/instrumented-Ninja/$object" "$tree/profile-Ninja")
[ "$name" != "$expected" ] || fail "the control: compiled with \$PWD the linked path, the counts are still '$name'"
echo "ok: the control: compiled with \$PWD the linked path, the counts are named '$name'"
echo "PASS: make release's folders name their counts alike, through a link, under Ninja and make"
