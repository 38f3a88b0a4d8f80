# Sourced by the packaging tests: run a command, hold its exit code and output to what is expected.
# expect CODE REGEX CMD...: CMD exits CODE and its standard output matches the extended REGEX.
expect() {
  local want=$1 pattern=$2 out code=0
  shift 2
  out=$("$@" 2>&1) || code=$?
  if [ "$code" != "$want" ]; then
    echo "FAIL: $* exited $code, not $want:"
    echo "$out" | head -20
    exit 1
  fi
  if ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL: $* printed no line matching /$pattern/:"
    echo "$out" | head -20
    exit 1
  fi
  echo "ok: $* -> $code, /$pattern/"
}

# no_tree_paths DIR PATH...: no file under DIR names any of the PATHs (a source or build tree
# leaking into what is installed).
no_tree_paths() {
  local dir=$1 path
  shift
  for path in "$@"; do
    if grep -rlF -- "$path" "$dir"; then
      echo "FAIL: the files above, installed in $dir, name the tree $path"
      exit 1
    fi
  done
  echo "ok: nothing in $dir names $*"
}

# runs_anywhere BIN EXAMPLES: the installed command, run from an empty folder with an empty HOME,
# lints an installed example and lists the data compiled into it (schemas, scenarios).
runs_anywhere() {
  local bin=$1 examples=$2 elsewhere
  elsewhere=$(mktemp -d)
  pushd "$elsewhere" >/dev/null
  expect 0 "^mcp-hints $version\$" env HOME="$elsewhere" "$bin" --version
  expect 0 "0 error" env HOME="$elsewhere" "$bin" lint "$examples/good-catalog.json"
  expect 1 "error" env HOME="$elsewhere" "$bin" lint "$examples/bad-catalog.json"
  expect 0 "confirm.spec-destructive" env HOME="$elsewhere" "$bin" certify --list
  expect 0 "mock.basic" env HOME="$elsewhere" "$bin" mock --list
  expect 0 "sep-1938" env HOME="$elsewhere" "$bin" vocab list
  popd >/dev/null
  rm -rf "$elsewhere"
}
