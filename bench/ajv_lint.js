// The peer of `mcp-hints lint` for the benchmark: the same schema validation with ajv 8 --
// every tool against the specification's Tool schema and each proposal's schema.
// Usage: node ajv_lint.js SCHEMAS_DIR CATALOG
'use strict';
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');

const [schemasDir, catalog] = process.argv.slice(2);
const names = ['spec-tool.2025-11-25', 'policy-hints.seed', 'risk-metadata.sep-2793', 'action-security.seed',
               'agency-hint.sep-1938'];
const ajv = new Ajv({ strict: false, allErrors: true });
const validators = names.map((n) => ajv.compile(JSON.parse(fs.readFileSync(path.join(schemasDir, n + '.schema.json'), 'utf8'))));
const doc = JSON.parse(fs.readFileSync(catalog, 'utf8'));
const tools = Array.isArray(doc) ? doc : (doc.result || doc).tools;
let errors = 0;
for (const tool of tools) for (const v of validators) if (!v(tool)) errors += v.errors.length;
console.log(JSON.stringify({ tool_count: tools.length, errors }));
