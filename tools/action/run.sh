#!/usr/bin/env bash
# The GitHub Action's main step (action.yml): mcp-hints lint or check-server with a SARIF report,
# whose exit code and SARIF path go to the next steps through $GITHUB_OUTPUT. It always exits 0
# itself unless its inputs are wrong (2), so the SARIF is uploaded before the findings fail the job.
#
# environment: MCP_HINTS (the command), INPUT_COMMAND (lint|check-server), INPUT_ARGS (split as a
# shell splits words, quotes honoured, nothing executed; for lint, patterns such as **/tools.json
# are expanded), INPUT_SARIF (the report's path), INPUT_FAIL_ON (error|warning|info|never),
# GITHUB_OUTPUT (a file: exit-code=N, sarif=PATH).
set -uo pipefail
fail() {
  echo "::error title=mcp-hints action::$1"
  exit 2
}
case "${INPUT_COMMAND:-}" in
  lint | check-server) ;;
  *) fail "command must be lint or check-server, not '${INPUT_COMMAND:-}'" ;;
esac
[ -n "${INPUT_ARGS:-}" ] || fail "args is empty: give the files to lint, or check-server's server command"
[ -n "${INPUT_SARIF:-}" ] || fail "sarif is empty: give the path of the SARIF report"
# xargs splits the words as a shell would, quotes included, without running anything in them.
split=$(mktemp)
trap 'rm -f "$split"' EXIT
xargs printf '%s\0' <<<"$INPUT_ARGS" >"$split" 2>/dev/null || fail "args could not be split into words (an unbalanced quote?)"
words=()
while IFS= read -r -d '' word; do words+=("$word"); done <"$split"
args=()
if [ "$INPUT_COMMAND" = lint ]; then
  shopt -s globstar
  for word in "${words[@]}"; do
    if [[ "$word" == *[*?[]* ]]; then
      mapfile -t matched < <(compgen -G "$word" | sort)
      [ "${#matched[@]}" -gt 0 ] || fail "'$word' matches no file"
      args+=("${matched[@]}")
    else
      args+=("$word")
    fi
  done
else
  args=("${words[@]}")
fi
mkdir -p "$(dirname "$INPUT_SARIF")"
rm -f "$INPUT_SARIF"
code=0
"$MCP_HINTS" "$INPUT_COMMAND" --format sarif --output "$INPUT_SARIF" --fail-on "${INPUT_FAIL_ON:-warning}" "${args[@]}" ||
  code=$?
echo "mcp-hints $INPUT_COMMAND: exit $code; SARIF report: $INPUT_SARIF"
{
  echo "exit-code=$code"
  [ -s "$INPUT_SARIF" ] && echo "sarif=$INPUT_SARIF"
} >>"$GITHUB_OUTPUT"
exit 0
