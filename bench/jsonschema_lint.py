#!/usr/bin/python3
"""The peer of `mcp-hints lint` for the benchmark: the same schema validation with Debian's
python3-jsonschema (Draft 7). Usage: jsonschema_lint.py SCHEMAS_DIR CATALOG"""
import json
import os
import sys

import jsonschema

NAMES = ["spec-tool.2025-11-25", "policy-hints.seed", "risk-metadata.sep-2793", "action-security.seed",
         "agency-hint.sep-1938"]


def main():
    schemas_dir, catalog = sys.argv[1], sys.argv[2]
    validators = []
    for n in NAMES:
        with open(os.path.join(schemas_dir, n + ".schema.json")) as f:
            validators.append(jsonschema.Draft7Validator(json.load(f)))
    with open(catalog) as f:
        doc = json.load(f)
    tools = doc if isinstance(doc, list) else doc.get("result", doc)["tools"]
    errors = sum(1 for t in tools for v in validators for _ in v.iter_errors(t))
    print(json.dumps({"tool_count": len(tools), "errors": errors}))


if __name__ == "__main__":
    main()
