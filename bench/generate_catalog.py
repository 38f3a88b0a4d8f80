#!/usr/bin/env python3
"""Writes a deterministic tools/list result of N tools for the benchmarks.

Tools mix every vocabulary the way a large gateway catalog might: the specification's four
hints on all, proposal hints (mirrored in _meta) on some, and input schemas of a few fields.
With --all-findings every tool carries findings instead (short tools, one a line, so that what a
command costs comes from the findings more than from the input): hints that contradict each other
and the tool's name, and in turn a risk level outside its enum, a _meta key that breaks the
specification's key pattern, or a proposal effect that contradicts readOnlyHint.
--seed picks other field counts, types and lengths (make build trains its profile on another seed
than the benchmarks read).
Usage: generate_catalog.py [--all-findings] [--seed S] N OUTPUT
"""
import argparse
import json
import random

VERBS = [("get", "read"), ("list", "read"), ("search", "read"), ("create", "write"), ("update", "write"),
         ("delete", "delete"), ("send", "external"), ("sync", "external")]
NOUNS = ["user", "invoice", "ticket", "repo", "pod", "message", "file", "record", "report", "deployment"]


def tool(i, rng):
    verb, effect = VERBS[i % len(VERBS)]
    noun = NOUNS[(i // len(VERBS)) % len(NOUNS)]
    read_only = effect == "read"
    props = {f"field_{k}": {"type": rng.choice(["string", "integer", "boolean"]),
                            "description": f"Field {k} of the {noun} to {verb}; " + "detail " * rng.randint(2, 8)}
             for k in range(rng.randint(2, 6))}
    t = {
        "name": f"{verb}_{noun}_{i}",
        "title": f"{verb.title()} {noun} #{i}",
        "description": f"{verb.title()} a {noun} in pack {i // 4}. " + "It does what its name says. " * rng.randint(2, 6),
        "inputSchema": {"type": "object", "properties": props, "required": sorted(props)[:1]},
        "annotations": {"readOnlyHint": read_only, "openWorldHint": effect == "external"},
    }
    if not read_only:
        t["annotations"]["destructiveHint"] = effect == "delete"
        t["annotations"]["idempotentHint"] = effect != "external"
    meta = {"com.example.gateway/pack": f"pack-{i // 4}"}
    if i % 3 == 0:
        meta.update({"mcp.dev/effect": effect, "mcp.dev/idempotent": effect != "external",
                     "mcp.dev/requiresConfirmation": effect in ("delete", "external"),
                     "mcp.dev/resultSensitivity": "internal"})
    if i % 5 == 0:
        risk = {"riskLevel": {"read": "low", "write": "medium", "delete": "high", "external": "medium"}[effect],
                "category": {"read": "read", "write": "mutate", "delete": "delete", "external": "mutate"}[effect],
                "blastRadius": "item", "reversibility": "none" if effect == "delete" else "manual",
                "approvalRecommendation": "single" if effect in ("delete", "external") else "none",
                "minTrustLevel": 2, "sideEffects": []}
        t["annotations"].update(risk)
        meta.update({f"com.example/{k}": v for k, v in risk.items()})
    t["_meta"] = meta
    return t


def tool_with_findings(i):
    verb = VERBS[i % len(VERBS)][0]
    noun = NOUNS[(i // len(VERBS)) % len(NOUNS)]
    # Read-only and destructive at once, and read-only against a writing, deleting or sending verb.
    t = {"name": f"{verb}_{noun}_{i}", "description": f"{verb.title()} the {noun} #{i}.",
         "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
         "annotations": {"readOnlyHint": True, "destructiveHint": True}}
    kind = i % 3
    if kind == 0:
        t["annotations"].update({"riskLevel": "extreme", "category": "mutate"})
    elif kind == 1:
        t["_meta"] = {"com.example.gateway/-pack": f"pack-{i // 4}"}
    else:
        t["_meta"] = {"mcp.dev/effect": "delete", "mcp.dev/requiresConfirmation": False}
    return t


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--all-findings", action="store_true")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("n", type=int)
    parser.add_argument("output")
    args = parser.parse_args()
    with open(args.output, "w") as f:
        if args.all_findings:
            # One tool a line, written as it is made: hundreds of thousands of tools never in memory.
            f.write('{"tools": [\n')
            for i in range(args.n):
                f.write(("," if i else "") + json.dumps(tool_with_findings(i)) + "\n")
            f.write("]}\n")
        else:
            rng = random.Random(args.seed)
            json.dump({"tools": [tool(i, rng) for i in range(args.n)]}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
