#!/usr/bin/env python3
"""The GitHub Action (action.yml) and the pre-commit hook (.pre-commit-hooks.yaml), checked as far
as can be without GitHub: their structure, every reference between their parts, and the Action's
main step (tools/action/run.sh) run for real against the built command.

usage: action_test.py SOURCE_DIR MCP_HINTS SAMPLE_SERVER WORK_DIR
       action_test.py --structure ACTION.yml   (the structural checks alone: a planted broken file)
Prints "PASS: ..." when every check holds, "FAIL: ..." for each that does not (exit 1);
"SKIPPED: ..." (exit 77) without python3-yaml."""
import json
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("SKIPPED: python3-yaml is not installed (make test installs it)")
    sys.exit(77)

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)
    return condition


def action_structure(path, source=None):
    with open(path) as f:
        text = f.read()
    action = yaml.safe_load(text)
    check(isinstance(action, dict), f"{path}: not a mapping")
    for key in ("name", "description", "inputs", "runs"):
        check(key in action, f"{path}: no '{key}'")
    inputs = action.get("inputs") or {}
    for name, spec in inputs.items():
        check(isinstance(spec, dict) and spec.get("description"), f"{path}: input '{name}' has no description")
    runs = action.get("runs") or {}
    check(runs.get("using") == "composite", f"{path}: runs.using is not composite")
    steps = runs.get("steps") or []
    check(steps, f"{path}: no steps")
    ids = set()
    for i, step in enumerate(steps):
        label = step.get("name", f"step {i + 1}")
        check(("run" in step) != ("uses" in step), f"{path}: '{label}' needs exactly one of run and uses")
        if "run" in step:
            check("shell" in step, f"{path}: '{label}' runs a script but names no shell (a composite step must)")
        if "id" in step:
            ids.add(step["id"])
    # Every expression names a declared input and an existing step.
    for name in re.findall(r"\binputs\.([A-Za-z0-9_-]+)", text):
        check(name in inputs, f"{path}: inputs.{name} is used but not declared")
    for step_id in re.findall(r"\bsteps\.([A-Za-z0-9_-]+)\.outputs", text):
        check(step_id in ids, f"{path}: steps.{step_id} is used but no step has that id")
    for name, spec in (action.get("outputs") or {}).items():
        check("value" in spec, f"{path}: output '{name}' has no value (a composite action's must)")
    uploads = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    check(len(uploads) == 1, f"{path}: no step uploads SARIF with github/codeql-action/upload-sarif")
    if source:
        makefile = open(os.path.join(source, "Makefile")).read()
        for step in steps:
            for target in re.findall(r'make -C "\$GITHUB_ACTION_PATH" (\S+)', step.get("run", "")):
                check(re.search(rf"^{re.escape(target)}:", makefile, re.M),
                      f"{path}: make target '{target}' is not in the Makefile")
            for script in re.findall(r'\$GITHUB_ACTION_PATH/(\S+?)"', step.get("run", "")):
                check(os.path.isfile(os.path.join(source, script)), f"{path}: {script} does not exist")
    return action


def pre_commit(path):
    hooks = yaml.safe_load(open(path))
    check(isinstance(hooks, list) and hooks, f"{path}: not a list of hooks")
    hook = next((h for h in hooks if h.get("id") == "mcp-hints-lint"), None)
    if not check(hook is not None, f"{path}: no hook mcp-hints-lint"):
        return
    for key in ("name", "entry", "language", "files"):
        check(key in hook, f"{path}: mcp-hints-lint has no '{key}'")
    check(hook.get("entry") == "mcp-hints lint", f"{path}: entry is not 'mcp-hints lint'")
    check(hook.get("language") == "system", f"{path}: language is not system")
    files = re.compile(hook.get("files", "$^"))
    for name in ("tools.json", "catalogs/tools.json", "server/tools-list.json"):
        check(files.search(name), f"{path}: files does not match {name}")
    for name in ("package.json", "tools.json.bak", "mytools.json", "tools/list.yaml"):
        check(not files.search(name), f"{path}: files matches {name}")


def run_step(source, mcp_hints, work, command, args, want_code, fail_on="warning", findings=None):
    """tools/action/run.sh as the Action runs it; returns its outputs."""
    output = os.path.join(work, "github-output")
    open(output, "w").close()
    sarif = os.path.join(work, "reports", "mcp-hints.sarif")
    env = dict(os.environ, MCP_HINTS=mcp_hints, INPUT_COMMAND=command, INPUT_ARGS=args, INPUT_SARIF=sarif,
               INPUT_FAIL_ON=fail_on, GITHUB_OUTPUT=output)
    done = subprocess.run(["bash", os.path.join(source, "tools/action/run.sh")], cwd=source, env=env,
                          capture_output=True, text=True, timeout=120)
    outputs = dict(line.split("=", 1) for line in open(output).read().splitlines())
    label = f"run.sh {command} {args!r}"
    if want_code == "refused":
        check(done.returncode == 2 and "::error" in done.stdout, f"{label}: not refused ({done.stdout})")
        return outputs
    check(done.returncode == 0, f"{label}: the step itself failed ({done.returncode}): {done.stdout}{done.stderr}")
    check(outputs.get("exit-code") == str(want_code), f"{label}: exit-code {outputs.get('exit-code')}, not {want_code}")
    check(outputs.get("sarif") == sarif, f"{label}: no sarif output")
    if os.path.exists(sarif):
        report = json.load(open(sarif))
        check(report.get("version") == "2.1.0", f"{label}: the report is not SARIF 2.1.0")
        results = report["runs"][0].get("results", [])
        if findings is None:
            findings = want_code == 1
        check((len(results) > 0) == findings, f"{label}: {len(results)} SARIF results")
    return outputs


def main(argv):
    if argv[1] == "--structure":
        action_structure(argv[2])
    else:
        source, mcp_hints, sample_server, work = argv[1:5]
        os.makedirs(work, exist_ok=True)
        action_structure(os.path.join(source, "action.yml"), source)
        pre_commit(os.path.join(source, ".pre-commit-hooks.yaml"))
        run_step(source, mcp_hints, work, "lint", "examples/catalogs/good-catalog.json", 0)
        run_step(source, mcp_hints, work, "lint", "examples/catalogs/*-catalog.json", 1)
        run_step(source, mcp_hints, work, "lint", "'examples/catalogs/bad-catalog.json'", 0, fail_on="never", findings=True)
        for catalog, code in (("good", 0), ("bad", 1)):
            run_step(source, mcp_hints, work, "check-server",
                     f"--timeout 60s -- {sample_server} --catalog examples/catalogs/{catalog}-catalog.json", code)
        run_step(source, mcp_hints, work, "fmt", "x.json", "refused")
        run_step(source, mcp_hints, work, "lint", "no-such-dir/*.json", "refused")
        run_step(source, mcp_hints, work, "lint", "'unbalanced", "refused")
    if failures:
        sys.exit(1)
    print("PASS: action.yml and .pre-commit-hooks.yaml hold together, and the Action's step runs")


main(sys.argv)
