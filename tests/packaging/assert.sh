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
# lints an installed example, lists the data compiled into it (schemas, scenarios) and speaks
# Streamable HTTP (its HTTP module found where the installation put it).
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
  # Streamable HTTP, through the HTTP module installed beside the command: a mock served over HTTP,
  # checked by the same command.
  env HOME="$elsewhere" "$bin" mock --scenario mock.basic --transport http >"$elsewhere/url" 2>"$elsewhere/mock.err" &
  local mock=$! tries
  for tries in $(seq 200); do [ -s "$elsewhere/url" ] && break; sleep 0.05; done
  [ -s "$elsewhere/url" ] || { cat "$elsewhere/mock.err"; kill "$mock" 2>/dev/null; echo "FAIL: the mock served no HTTP"; exit 1; }
  # mock.basic's irreversible tool declares no confirmation (a warning): the run is held to MUSTs.
  expect 0 "1 server, 5 tools" env HOME="$elsewhere" "$bin" check-server --fail-on error --url "$(head -1 "$elsewhere/url")"
  kill "$mock" && wait "$mock" 2>/dev/null || true
  popd >/dev/null
  rm -rf "$elsewhere"
}
