#!/usr/bin/env python3
"""The docs hold: every relative link lands, and every command shown runs.

usage: check_docs.py --bin PATH/TO/mcp-hints --source SOURCE_DIR [--timeout SECONDS]

(a) Every relative link of README.md, ARCHITECTURE.md and docs/*.md: the file exists, and a
    #anchor is a heading of the target as GitHub makes its anchor (lower case; punctuation but
    - and _ dropped; each space a hyphen; a repeated heading gets -1, -2...). http(s) and mailto
    links are not fetched.
(b) Every command of a fenced sh or console block of README.md and docs/*.md in which mcp-hints is
    the command: a line that starts with `mcp-hints ` (`$ mcp-hints ` in a console block), after
    VAR=value assignments, or after a pipe; a trailing backslash joins the next line. Each runs
    through bash, in the order of its page, in a scratch folder of the page's holding the source tree's folders and build/bin (the folder
    of --bin), with that folder first on PATH, for at most --timeout seconds; it must exit 0.
    HTML comments just before a block change that for the block:
      <!-- docs-test: exit N -->        every command of the block must exit N
      <!-- docs-test: script -->        the block runs whole, as one `bash -e` script
      <!-- docs-test: requires PATH --> run only when PATH exists under the source dir
      <!-- docs-test: skip REASON -->   run nothing; the reason is printed
(c) README.md has at most 300 lines.
Every failure names file:line and the link or command. Exit 0 when all hold, 1 otherwise.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

README_MAX_LINES = 300
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ANNOTATION = re.compile(r"^<!--\s*docs-test:\s*(\w+)\s*(.*?)\s*-->\s*$")
LINK = re.compile(r"(?<!\!)\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMAGE = re.compile(r"!\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
COMMAND = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*mcp-hints(?:\s|$)|\|\s*mcp-hints(?:\s|$)")


def github_anchor(heading):
    """The anchor GitHub gives a heading's text."""
    text = re.sub(r"<[^>]+>", "", heading)  # inline HTML
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    out = []
    for c in text.lower():
        if c.isalnum() or c in "-_":
            out.append(c)
        elif c == " ":
            out.append("-")
    return "".join(out)


def parse(path):
    """The headings' anchors, the links (line, target) and the fenced blocks of a Markdown file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    anchors, seen = set(), {}
    links, blocks = [], []
    prose = []  # (line number, text) outside code blocks
    fence = None
    annotations = []
    for number, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = {"marker": m.group(2), "lang": m.group(3), "start": number, "lines": [],
                     "annotations": annotations}
            annotations = []
            continue
        if fence is not None:
            if line.strip().startswith(fence["marker"]) and line.strip().strip(fence["marker"][0]) == "":
                blocks.append(fence)
                fence = None
            else:
                fence["lines"].append((number, line))
            continue
        a = ANNOTATION.match(line.strip())
        if a:
            annotations.append((number, a.group(1), a.group(2)))
            continue
        if line.strip():
            annotations = [] if not line.strip().startswith("<!--") else annotations
        h = HEADING.match(line)
        if h:
            base = github_anchor(h.group(2))
            anchor = base if base not in seen else f"{base}-{seen[base]}"
            seen[base] = seen.get(base, 0) + 1
            anchors.add(anchor)
        prose.append((number, line))
    # Links may wrap their text over lines: scan the prose as one text, inline code removed.
    text = "\n".join(line for _, line in prose)
    starts = []
    offset = 0
    for number, line in prose:
        starts.append((offset, number))
        offset += len(line) + 1
    stripped = re.sub(r"`+[^`\n]*`+", lambda m: " " * len(m.group(0)), text)
    for pattern in (LINK, IMAGE):
        for m in pattern.finditer(stripped):
            at = m.start(1)
            number = next(n for o, n in reversed(starts) if o <= at)
            links.append((number, m.group(1)))
    return anchors, links, blocks


def check_links(source, files, failures):
    cache = {}
    count = 0
    for path in files:
        _, links, _ = cache.setdefault(path, parse(path))
        for number, target in links:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http(s), mailto: not fetched
            count += 1
            where = f"{path.relative_to(source)}:{number}"
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            if not dest.exists():
                failures.append(f"{where}: broken link {target}: {file_part} does not exist")
                continue
            if anchor and dest.suffix == ".md":
                if dest not in cache:
                    cache[dest] = parse(dest)
                if anchor not in cache[dest][0]:
                    failures.append(f"{where}: broken link {target}: no heading of "
                                    f"{dest.relative_to(source) if dest.is_relative_to(source) else dest} "
                                    f"has the anchor #{anchor}")
    return count


def commands_of(block):
    """(line number, command) of a block, by the convention above."""
    console = block["lang"] == "console"
    out, pending, start = [], None, None
    for number, line in block["lines"]:
        if pending is not None:
            pending += "\n" + line
        else:
            text = line.strip()
            if console:
                if not text.startswith("$ "):
                    continue
                text = text[2:]
            pending, start = text, number
        if pending.endswith("\\"):
            continue
        command, pending = pending, None
        first = command.lstrip()
        if first and not first.startswith("#") and COMMAND.search(first):
            out.append((start, command))
    return out


def scratch_dir(source, bin_dir):
    """A folder with the source tree's entries (symlinks) and build/bin, for one command."""
    work = Path(tempfile.mkdtemp(prefix="docs-test-"))
    for entry in source.iterdir():
        if entry.name in ("build", ".git") or entry.name.startswith("build-"):
            continue
        (work / entry.name).symlink_to(entry)
    (work / "build").mkdir()
    (work / "build" / "bin").symlink_to(bin_dir)
    return work


def run(command, work, path_dir, timeout, script):
    env = dict(os.environ)
    env["PATH"] = f"{path_dir}:{env.get('PATH', '')}"
    env.pop("NO_COLOR", None)
    argv = ["bash", "-e", "-c", command] if script else ["bash", "-c", command]
    proc = subprocess.Popen(argv, cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        code = None
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # what the command left in the background
    except ProcessLookupError:
        pass
    return code, out.decode("utf-8", "replace")


def check_commands(source, files, binary, timeout, failures):
    bin_dir = binary.parent.resolve()
    path_dir = Path(tempfile.mkdtemp(prefix="docs-test-path-"))
    (path_dir / "mcp-hints").symlink_to(binary.resolve())
    ran, skipped = 0, []
    for path in files:
        work = scratch_dir(source, bin_dir)  # one per page: its commands run in order, as a reader's
        for block in parse(path)[2]:
            if block["lang"] not in ("sh", "console"):
                continue
            options = {kind: value for _, kind, value in block["annotations"]}
            for number, kind, _ in block["annotations"]:
                if kind not in ("exit", "script", "requires", "skip"):
                    failures.append(f"{path.relative_to(source)}:{number}: unknown docs-test annotation {kind}")
            where = f"{path.relative_to(source)}:{block['start']}"
            script = "script" in options
            commands = ([(block["start"], "\n".join(line for _, line in block["lines"]))] if script
                        else commands_of(block))
            if not commands:
                continue
            if "skip" in options:
                skipped.append(f"{where}: skipped ({len(commands)} command(s)): {options['skip']}")
                continue
            if "requires" in options and not (source / options["requires"]).exists():
                skipped.append(f"{where}: skipped ({len(commands)} command(s)): {options['requires']} "
                               "is not in the source tree")
                continue
            expected = int(options.get("exit", "0") or 0)
            for number, command in commands:
                code, out = run(command, work, path_dir, timeout, script)
                ran += 1
                shown = command if len(command) < 400 else command[:400] + "..."
                if code is None:
                    failures.append(f"{path.relative_to(source)}:{number}: `{shown}` did not end within "
                                    f"{timeout} s\n{out[-2000:]}")
                elif code != expected:
                    failures.append(f"{path.relative_to(source)}:{number}: `{shown}` exited {code}, "
                                    f"expected {expected}\n{out[-2000:]}")
        subprocess.run(["rm", "-rf", str(work)], check=False)
    subprocess.run(["rm", "-rf", str(path_dir)], check=False)
    return ran, skipped


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, type=Path, help="the built mcp-hints")
    parser.add_argument("--source", required=True, type=Path, help="the source tree")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per command (default 60)")
    parser.add_argument("--links-only", action="store_true", help="check the links alone")
    args = parser.parse_args()
    source = args.source.resolve()
    docs = sorted((source / "docs").glob("*.md"))
    failures = []
    readme = source / "README.md"
    lines = len(readme.read_text(encoding="utf-8").splitlines())
    if lines > README_MAX_LINES:
        failures.append(f"README.md:{lines}: {lines} lines, more than {README_MAX_LINES}: move reference to docs/")
    links = check_links(source, [readme, source / "ARCHITECTURE.md"] + docs, failures)
    ran, skipped = (0, []) if args.links_only else check_commands(source, [readme] + docs, args.bin,
                                                                   args.timeout, failures)
    for line in skipped:
        print(line)
    for failure in failures:
        print("FAIL: " + failure)
    print(f"{links} links checked, {ran} commands run, {len(skipped)} block(s) skipped, "
          f"README.md {lines} lines: {len(failures)} failure(s)")
    if failures:
        return 1
    print("PASS: the docs' links land and their commands run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
